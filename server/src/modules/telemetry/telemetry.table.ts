// Telemetry storage: one series per (device, sensor, configtype, param, subparam), points clustered by (series, ts),
// and per-minute / per-hour rollups kept at ingest. Points and rollups are WITHOUT ROWID tables: drizzle-kit cannot
// declare that, so `ensureClusteredLayout` (storage.ts) rebuilds them once right after the generated migration.
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const telemetrySeries = sqliteTable(
  'telemetry_series',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id').notNull(),
    deviceId: integer('device_id').notNull(),
    sensor: text('sensor').notNull(),
    configtype: text('configtype').notNull(),
    param: text('param').notNull(),
    /** '' when the param has no subparams (NULL would defeat the unique key) */
    subparam: text('subparam').notNull().default(''),
    /** number, boolean, datetime, string, object, uobject, image, mobject, surveillance, array (spec section 3) */
    datatype: text('datatype').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('telemetry_series_key').on(t.deviceId, t.sensor, t.configtype, t.param, t.subparam),
    index('telemetry_series_app').on(t.appId, t.deviceId),
  ],
);

/** `num` holds number, boolean (0/1) and datetime (epoch ms); `text` holds string and image as is, the rest as JSON. */
export const telemetryPoints = sqliteTable(
  'telemetry_points',
  {
    seriesId: integer('series_id').notNull(),
    ts: integer('ts').notNull(),
    num: real('num'),
    text: text('text'),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.ts] })],
);

const rollupColumns = () => ({
  seriesId: integer('series_id').notNull(),
  /** start of the bucket, epoch ms (UTC minute / UTC hour) */
  bucketTs: integer('bucket_ts').notNull(),
  count: integer('count').notNull(),
  sum: real('sum').notNull(),
  min: real('min').notNull(),
  max: real('max').notNull(),
  first: real('first').notNull(),
  firstTs: integer('first_ts').notNull(),
  last: real('last').notNull(),
  lastTs: integer('last_ts').notNull(),
});

export const telemetryRollupMinute = sqliteTable('telemetry_rollup_minute', rollupColumns(), (t) => [
  primaryKey({ columns: [t.seriesId, t.bucketTs] }),
]);
export const telemetryRollupHour = sqliteTable('telemetry_rollup_hour', rollupColumns(), (t) => [
  primaryKey({ columns: [t.seriesId, t.bucketTs] }),
]);

/**
 * Per writer process, the last rollup-delta generation its transactions made durable: read in the same snapshot as the
 * rollup rows, it tells a read whether the deltas in flight on the writer thread are already in the table.
 */
export const telemetryWriterState = sqliteTable('telemetry_writer_state', {
  writer: text('writer').primaryKey(),
  rollupGeneration: integer('rollup_generation').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The point journal, in two halves used in turn (the LSM split, see writer.ts): a batch appends its points as one row
 * of packed columns (little-endian float64 series, ts and num; a byte per point telling whether num holds; the texts as
 * JSON `[[index, text], ...]`), and reads serve them from memory until a compaction round has moved them into
 * `telemetry_points` in series order; the half is then emptied in one statement. `round` orders the halves when a
 * restart replays them.
 */
const journalColumns = () => ({
  id: integer('id').primaryKey(),
  round: integer('round').notNull(),
  points: integer('points').notNull(),
  series: blob('series').notNull(),
  ts: blob('ts').notNull(),
  num: blob('num').notNull(),
  hasNum: blob('has_num').notNull(),
  texts: text('texts'),
});
export const telemetryJournal0 = sqliteTable('telemetry_journal_0', journalColumns());
export const telemetryJournal1 = sqliteTable('telemetry_journal_1', journalColumns());
