-- Null ids: drizzle renders an insert without id as `values (null, ...)` (SQLite dialect); these tables take
-- it from their sequence. Written by `npm run db:generate:pg -w server` (src/platform/db/pg-null-id.ts).
CREATE OR REPLACE FUNCTION "sentra_null_id"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seq regclass := pg_get_serial_sequence(format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME), 'id');
BEGIN
  IF NEW.id IS NULL THEN
    NEW.id := nextval(seq);
  ELSIF NEW.id > coalesce(pg_sequence_last_value(seq), 0) THEN
    PERFORM setval(seq, NEW.id);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "accounts_null_id" BEFORE INSERT ON "accounts" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "applications_null_id" BEFORE INSERT ON "applications" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "credentials_null_id" BEFORE INSERT ON "credentials" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "dashboards_null_id" BEFORE INSERT ON "dashboards" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "device_tokens_null_id" BEFORE INSERT ON "device_tokens" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "devices_null_id" BEFORE INSERT ON "devices" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "lora_servers_null_id" BEFORE INSERT ON "lora_servers" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "mqtt_queued_null_id" BEFORE INSERT ON "mqtt_queued" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "notification_attempts_null_id" BEFORE INSERT ON "notification_attempts" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "notification_outbox_null_id" BEFORE INSERT ON "notification_outbox" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "refresh_tokens_null_id" BEFORE INSERT ON "refresh_tokens" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "roles_null_id" BEFORE INSERT ON "roles" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "rules_null_id" BEFORE INSERT ON "rules" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "tag_categories_null_id" BEFORE INSERT ON "tag_categories" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "tag_definitions_null_id" BEFORE INSERT ON "tag_definitions" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "task_events_null_id" BEFORE INSERT ON "task_events" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "tasks_null_id" BEFORE INSERT ON "tasks" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "telemetry_series_null_id" BEFORE INSERT ON "telemetry_series" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
--> statement-breakpoint
CREATE TRIGGER "tenants_null_id" BEFORE INSERT ON "tenants" FOR EACH ROW EXECUTE FUNCTION "sentra_null_id"();
