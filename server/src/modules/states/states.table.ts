// Device states: the current key/value of each device (spec "Daftar Kondisi") and its history as value periods.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const deviceStates = sqliteTable(
  'device_states',
  {
    deviceId: integer('device_id').notNull(),
    appId: integer('app_id').notNull(),
    key: text('key').notNull(),
    /** JSON text of the value; NULL when the device reported null (the state is "Inactive") */
    value: text('value'),
    /** when the current value took effect */
    initialTs: integer('initial_ts').notNull(),
    /** when the current value was last reported */
    latestTs: integer('latest_ts').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key] }), index('device_states_app').on(t.appId, t.deviceId)],
);

/** One row per value period: a repeated report extends `latest_ts`, a change opens a new row. WITHOUT ROWID (storage.ts). */
export const deviceStateHistory = sqliteTable(
  'device_state_history',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    initialTs: integer('initial_ts').notNull(),
    value: text('value'),
    latestTs: integer('latest_ts').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.initialTs] })],
);
