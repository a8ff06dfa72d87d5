// Rollup rows as stored (the deltas not yet merged are the reads' business, reads.ts): one series' buckets of a window,
// with a writer's durable generation read in the same snapshot so deltas in flight count exactly once.
import type Database from 'better-sqlite3';
import { ROLLUP_TABLE, type RollupBucket, type RollupLevel } from '../store/rollups.js';

export interface StoredRollups {
  /** buckets with start ≤ bucket_ts < end, in time order */
  rows: RollupBucket[];
  /** the writer's rollup generation the table holds (0: none, or no writer asked) */
  generation: number;
}

const toBucket = (r: number[]): RollupBucket => ({
  bucketTs: r[0]!,
  count: r[1]!,
  sum: r[2]!,
  min: r[3]!,
  max: r[4]!,
  first: r[5]!,
  firstTs: r[6]!,
  last: r[7]!,
  lastTs: r[8]!,
});

export function createRollupRows(sqlite: Database.Database) {
  const range = (level: RollupLevel) =>
    sqlite
      .prepare(
        `SELECT bucket_ts, "count", "sum", "min", "max", "first", first_ts, "last", last_ts FROM ${ROLLUP_TABLE[level]} WHERE series_id = ? AND bucket_ts >= ? AND bucket_ts < ? ORDER BY bucket_ts`,
      )
      .raw();
  const rollupRange = { minute: range('minute'), hour: range('hour') };
  const durableGeneration = sqlite
    .prepare('SELECT rollup_generation FROM telemetry_writer_state WHERE writer = ?')
    .pluck();
  // the rows and the writer's durable generation in one read snapshot: deltas in flight count exactly once
  const withGeneration = sqlite.transaction(
    (level: RollupLevel, seriesId: number, start: number, end: number, writer: string) => ({
      rows: rollupRange[level].all(seriesId, start, end) as number[][],
      generation: (durableGeneration.get(writer) as number | undefined) ?? 0,
    }),
  );
  return {
    /** the stored buckets of [start, end), and with `writer` its durable generation (same snapshot) */
    read(level: RollupLevel, seriesId: number, start: number, end: number, writer?: string): StoredRollups {
      const stored =
        writer === undefined
          ? { rows: rollupRange[level].all(seriesId, start, end) as number[][], generation: 0 }
          : withGeneration(level, seriesId, start, end, writer);
      return { rows: stored.rows.map(toBucket), generation: stored.generation };
    },
  };
}

export type RollupRows = ReturnType<typeof createRollupRows>;
