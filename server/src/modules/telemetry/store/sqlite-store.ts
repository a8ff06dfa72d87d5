// The telemetry store on SQLite: the existing synchronous code behind the async interface (telemetry-store.ts), with
// nothing changed on the way. Each call answers a resolved promise; `sync` exposes the same functions for the callers
// that stay synchronous while the engine is SQLite (the data screens read thousands of series a request: a promise per
// read would be pure cost there). The executor is the one the storage start chose (writer thread or inline).
import type Database from 'better-sqlite3';
import { createPointReads, type PointReads } from '../read/point-reads.js';
import type { PointRow, RecentPoints } from '../read/recent.js';
import { createRollupRows } from '../read/rollup-rows.js';
import { createSeriesKeys } from '../read/series-keys.js';
import { ROLLUP_TABLE } from './rollups.js';
import { retentionCutoff, type RetentionResult, type TelemetryStore } from './telemetry-store.js';
import type { BatchExecutor } from './writer-thread.js';

export interface SqliteStoreOptions {
  executor: BatchExecutor;
  /** the point reads (merging the journal's memory side); made here without a journal when absent */
  points?: PointReads;
  recent?: RecentPoints | null;
}

/** series whose old rows one retention transaction deletes: the writer thread waits for at most that much */
const RETENTION_SERIES_PER_TX = 500;

/**
 * Deletes the rows of `table` older than `cutoff`, series by series: each series' next id is one seek on the clustered
 * key (SQLite has no skip scan for DISTINCT), its old rows one range delete.
 */
function retentionOf(sqlite: Database.Database, table: string, column: string) {
  const next = sqlite.prepare(`SELECT series_id FROM ${table} WHERE series_id > ? ORDER BY series_id LIMIT 1`).pluck();
  const drop = sqlite.prepare(`DELETE FROM ${table} WHERE series_id = ? AND ${column} < ?`);
  const some = sqlite.transaction((from: number, cutoff: number): { deleted: number; last: number | null } => {
    let deleted = 0;
    let id = from;
    for (let k = 0; k < RETENTION_SERIES_PER_TX; k++) {
      const n = next.get(id) as number | undefined;
      if (n === undefined) return { deleted, last: null };
      id = n;
      deleted += drop.run(id, cutoff).changes;
    }
    return { deleted, last: id };
  });
  return (cutoff: number): number => {
    let deleted = 0;
    let from: number | null = -Number.MAX_SAFE_INTEGER;
    while (from !== null) {
      const r: { deleted: number; last: number | null } = some(from, cutoff);
      deleted += r.deleted;
      from = r.last;
    }
    return deleted;
  };
}

export function sqliteTelemetryStore(sqlite: Database.Database, o: SqliteStoreOptions) {
  const points = o.points ?? createPointReads(sqlite, o.recent ?? null);
  const series = createSeriesKeys(sqlite);
  const rollups = createRollupRows(sqlite);
  const retention = [
    retentionOf(sqlite, 'telemetry_points', 'ts'),
    retentionOf(sqlite, ROLLUP_TABLE.minute, 'bucket_ts'),
    retentionOf(sqlite, ROLLUP_TABLE.hour, 'bucket_ts'),
  ];
  const sync = {
    points,
    series,
    rollups,
    latest: (seriesIds: readonly number[]): (PointRow | null)[] => seriesIds.map((id) => points.last(id)),
    dropOlderThan(before: number): RetentionResult {
      const cutoff = retentionCutoff(before);
      let deletedRows = 0;
      for (const drop of retention) deletedRows += drop(cutoff);
      return { cutoff, droppedPartitions: [], deletedRows };
    },
  };
  const store: TelemetryStore & { sync: typeof sync } = {
    engine: 'sqlite',
    executor: o.executor,
    sync,
    points: {
      oldest: async (seriesId, lo, hi, limit) => points.oldest(seriesId, lo, hi, limit),
      newest: async (seriesId, lo, hi, limit) => points.newest(seriesId, lo, hi, limit),
      last: async (seriesId) => points.last(seriesId),
      latest: async (seriesIds) => sync.latest(seriesIds),
    },
    series: {
      byKey: async (appId, deviceId, sensor, configtype, param, subparam) =>
        series.byKey(appId, deviceId, sensor, configtype, param, subparam),
      ofParam: async (appId, deviceId, sensor, configtype, param) =>
        series.ofParam(appId, deviceId, sensor, configtype, param),
      idsOfDevice: async (appId, deviceId) => series.idsOfDevice(appId, deviceId),
    },
    rollups: {
      read: async (level, seriesId, start, end, writer) => rollups.read(level, seriesId, start, end, writer),
    },
    dropOlderThan: async (before) => sync.dropOlderThan(before),
    maintain: async () => {},
    close: async () => {},
  };
  return store;
}

export type SqliteTelemetryStore = ReturnType<typeof sqliteTelemetryStore>;
