// Test support: the tables telemetry on PostgreSQL reads and writes but does not lay out itself (the derived schema's
// migrations create them), with the columns of telemetry.table.ts and states.table.ts, integers as bigint. Suites use
// this until the migrations exist.
import type pg from 'pg';

export const DERIVED_TABLES_DDL = `
create table if not exists telemetry_series (
  id bigserial primary key, app_id bigint not null, device_id bigint not null, sensor text not null,
  configtype text not null, param text not null, subparam text not null default '', datatype text not null,
  created_at bigint not null);
create unique index if not exists telemetry_series_key on telemetry_series (device_id, sensor, configtype, param, subparam);
create index if not exists telemetry_series_app on telemetry_series (app_id, device_id);
create table if not exists device_states (
  device_id bigint not null, app_id bigint not null, key text not null, value text, initial_ts bigint not null,
  latest_ts bigint not null, primary key (device_id, key));
create index if not exists device_states_app on device_states (app_id, device_id);
create table if not exists device_state_history (
  device_id bigint not null, key text not null, initial_ts bigint not null, value text, latest_ts bigint not null,
  primary key (device_id, key, initial_ts));
`;

export async function createDerivedTables(pool: pg.Pool): Promise<void> {
  await pool.query(DERIVED_TABLES_DDL);
}
