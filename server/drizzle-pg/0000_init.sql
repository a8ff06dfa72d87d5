CREATE TABLE "accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"first" text NOT NULL,
	"last" text,
	"pass_hash" text NOT NULL,
	"role_id" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"domain" text NOT NULL,
	"description" text,
	"timezone" text DEFAULT 'Asia/Jakarta' NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "applications_domain_unique" UNIQUE("domain")
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"category" bigint NOT NULL,
	"credentials_id" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text DEFAULT '{}' NOT NULL,
	"details" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"label" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"path" text NOT NULL,
	"parent_id" bigint,
	"sort" bigint DEFAULT 0 NOT NULL,
	"conf_dashboard" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint
);
--> statement-breakpoint
CREATE TABLE "deployment" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_state_history" (
	"device_id" bigint NOT NULL,
	"key" text NOT NULL,
	"initial_ts" bigint NOT NULL,
	"value" text,
	"latest_ts" bigint NOT NULL,
	CONSTRAINT "device_state_history_device_id_key_initial_ts_pk" PRIMARY KEY("device_id","key","initial_ts")
);
--> statement-breakpoint
CREATE TABLE "device_states" (
	"device_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"key" text NOT NULL,
	"value" text,
	"initial_ts" bigint NOT NULL,
	"latest_ts" bigint NOT NULL,
	CONSTRAINT "device_states_device_id_key_pk" PRIMARY KEY("device_id","key")
);
--> statement-breakpoint
CREATE TABLE "device_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"connected_at" bigint
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"category" bigint NOT NULL,
	"category_text" text DEFAULT 'Dummy' NOT NULL,
	"device_type" text NOT NULL,
	"name" text NOT NULL,
	"label" text,
	"serial_number" text NOT NULL,
	"description" text,
	"latitude" double precision,
	"longitude" double precision,
	"sensors" text DEFAULT '{}' NOT NULL,
	"tags" text DEFAULT '{}' NOT NULL,
	"firmware_version" text DEFAULT '1.0' NOT NULL,
	"online" bigint DEFAULT 0 NOT NULL,
	"last_online_ts" bigint,
	"last_offline_ts" bigint,
	"disabled" bigint DEFAULT 0 NOT NULL,
	"uid" text,
	"broker_username" text,
	"broker_password" text,
	"topic" text,
	"token_id" bigint,
	"dev_eui" text,
	"network_server_id" bigint,
	"details" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_sightings" (
	"uid" text PRIMARY KEY NOT NULL,
	"first_ts" bigint NOT NULL,
	"last_ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lora_servers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"mac" text NOT NULL,
	"name" text NOT NULL,
	"server" text NOT NULL,
	"application_uuid" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mqtt_queued" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"topic" text NOT NULL,
	"payload" "bytea" NOT NULL,
	"qos" bigint NOT NULL,
	"properties" text,
	"expires_at" bigint
);
--> statement-breakpoint
CREATE TABLE "mqtt_retained" (
	"topic" text PRIMARY KEY NOT NULL,
	"payload" "bytea" NOT NULL,
	"qos" bigint NOT NULL,
	"properties" text,
	"expires_at" bigint,
	"holder" text,
	"tenant" text
);
--> statement-breakpoint
CREATE TABLE "mqtt_sessions" (
	"client_id" text PRIMARY KEY NOT NULL,
	"identity_key" text NOT NULL,
	"subscriptions" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"task_id" bigint,
	"ts" bigint NOT NULL,
	"outcome" text NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"task_id" bigint,
	"rule_id" bigint,
	"event" text,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"principal_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"family" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "retired_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"principal_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"family" text NOT NULL,
	"retired_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_navs" (
	"role_id" bigint NOT NULL,
	"dashboard_id" bigint NOT NULL,
	"sort" bigint NOT NULL,
	CONSTRAINT "role_navs_role_id_dashboard_id_pk" PRIMARY KEY("role_id","dashboard_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"permissions" text DEFAULT '{}' NOT NULL,
	"sys_navs" text DEFAULT '[]' NOT NULL,
	"descendant" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_states" (
	"rule_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"phase" text NOT NULL,
	"since" bigint NOT NULL,
	"due" bigint,
	"value" text,
	"last_fire_ts" bigint,
	CONSTRAINT "rule_states_rule_id_device_id_pk" PRIMARY KEY("rule_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"name" text NOT NULL,
	"key" text,
	"category" bigint NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"condition" text NOT NULL,
	"action" text NOT NULL,
	"details" text DEFAULT '{}' NOT NULL,
	"active" bigint DEFAULT 1 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_settings" (
	"device_id" bigint NOT NULL,
	"key" text NOT NULL,
	"policies" text DEFAULT '{}' NOT NULL,
	"tags" text DEFAULT '{}' NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "sensor_settings_device_id_key_pk" PRIMARY KEY("device_id","key")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"principal_id" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint DEFAULT 0 NOT NULL,
	"refresh_family" text
);
--> statement-breakpoint
CREATE TABLE "tag_categories" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"category" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_definitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"category_id" bigint NOT NULL,
	"name" text NOT NULL,
	"name_lc" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" bigint NOT NULL,
	"ts" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" bigint,
	"previous" bigint,
	"value" text,
	"actor" text
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"rule_id" bigint,
	"rule_name" text,
	"category" bigint NOT NULL,
	"device_id" bigint DEFAULT 0 NOT NULL,
	"device_name" text,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" bigint DEFAULT 1 NOT NULL,
	"open" bigint DEFAULT 1 NOT NULL,
	"notification_active" bigint DEFAULT 1 NOT NULL,
	"occurrences" bigint DEFAULT 1 NOT NULL,
	"last_value" text,
	"first_ts" bigint NOT NULL,
	"last_ts" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_series" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"sensor" text NOT NULL,
	"configtype" text NOT NULL,
	"param" text NOT NULL,
	"subparam" text DEFAULT '' NOT NULL,
	"datatype" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_writer_state" (
	"writer" text PRIMARY KEY NOT NULL,
	"rollup_generation" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"first" text NOT NULL,
	"last" text,
	"email" text NOT NULL,
	"pass_hash" text NOT NULL,
	"tenant_name" text NOT NULL,
	"billing_expires_at" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "tenants_username_unique" UNIQUE("username"),
	CONSTRAINT "tenants_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_network_server_id_lora_servers_id_fk" FOREIGN KEY ("network_server_id") REFERENCES "public"."lora_servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lora_servers" ADD CONSTRAINT "lora_servers_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retired_refresh_tokens" ADD CONSTRAINT "retired_refresh_tokens_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_navs" ADD CONSTRAINT "role_navs_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_navs" ADD CONSTRAINT "role_navs_dashboard_id_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "public"."dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_states" ADD CONSTRAINT "rule_states_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_settings" ADD CONSTRAINT "sensor_settings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_categories" ADD CONSTRAINT "tag_categories_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_definitions" ADD CONSTRAINT "tag_definitions_category_id_tag_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."tag_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_app_username" ON "accounts" USING btree ("app_id","username");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_app_email" ON "accounts" USING btree ("app_id","email");--> statement-breakpoint
CREATE INDEX "accounts_role" ON "accounts" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_app_credentials_id" ON "credentials" USING btree ("app_id","credentials_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dashboards_app_path" ON "dashboards" USING btree ("app_id","path");--> statement-breakpoint
CREATE INDEX "dashboards_app_parent" ON "dashboards" USING btree ("app_id","parent_id");--> statement-breakpoint
CREATE INDEX "device_states_app" ON "device_states" USING btree ("app_id","device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_tokens_hash" ON "device_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "devices_app_id" ON "devices" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_app_serial" ON "devices" USING btree ("app_id","serial_number");--> statement-breakpoint
CREATE INDEX "devices_app_online" ON "devices" USING btree ("app_id","online");--> statement-breakpoint
CREATE INDEX "devices_app_category" ON "devices" USING btree ("app_id","category");--> statement-breakpoint
CREATE INDEX "devices_app_type" ON "devices" USING btree ("app_id","device_type");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_uid" ON "devices" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_broker_username" ON "devices" USING btree ("broker_username");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_topic" ON "devices" USING btree ("topic");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_token" ON "devices" USING btree ("token_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_app_dev_eui" ON "devices" USING btree ("app_id","dev_eui");--> statement-breakpoint
CREATE INDEX "devices_network_server" ON "devices" USING btree ("network_server_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lora_servers_app_mac" ON "lora_servers" USING btree ("app_id","mac");--> statement-breakpoint
CREATE INDEX "mqtt_queued_client" ON "mqtt_queued" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "notification_attempts_task" ON "notification_attempts" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "notification_outbox_status_due" ON "notification_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notification_outbox_task" ON "notification_outbox" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_owner" ON "refresh_tokens" USING btree ("kind","principal_id","app_id");--> statement-breakpoint
CREATE INDEX "retired_refresh_tokens_owner" ON "retired_refresh_tokens" USING btree ("kind","principal_id","app_id");--> statement-breakpoint
CREATE INDEX "role_navs_dashboard" ON "role_navs" USING btree ("dashboard_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_app_name" ON "roles" USING btree ("app_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "rules_app_key" ON "rules" USING btree ("app_id","key") WHERE "rules"."key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sessions_principal" ON "sessions" USING btree ("kind","principal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_categories_app_prefix" ON "tag_categories" USING btree ("app_id","prefix");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_definitions_category_name_lc" ON "tag_definitions" USING btree ("category_id","name_lc");--> statement-breakpoint
CREATE INDEX "task_events_task" ON "task_events" USING btree ("task_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_open_rule_device" ON "tasks" USING btree ("rule_id","device_id") WHERE "tasks"."open" = 1;--> statement-breakpoint
CREATE INDEX "tasks_app_updated" ON "tasks" USING btree ("app_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "telemetry_series_key" ON "telemetry_series" USING btree ("device_id","sensor","configtype","param","subparam");--> statement-breakpoint
CREATE INDEX "telemetry_series_app" ON "telemetry_series" USING btree ("app_id","device_id");