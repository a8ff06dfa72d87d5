// Every read of raw points goes through here: the clustered table's rows merged with the points the journal holds and
// memory serves until their compaction (recent.ts). A point is in one of the two, or in both for the instant between a
// compaction's commit and the writer hearing of it; the merge keeps a timestamp once.
import type Database from 'better-sqlite3';
import { mergeByTs, type PointRow, type RecentPoints } from './recent.js';

export type { PointRow } from './recent.js';

/** the bounds of "any time" (timestamps are whole epoch milliseconds) */
export const EARLIEST = -Number.MAX_SAFE_INTEGER;
export const LATEST = Number.MAX_SAFE_INTEGER;

export function createPointReads(sqlite: Database.Database, recent: RecentPoints | null) {
  const oldest = sqlite
    .prepare(
      'SELECT ts, num, text FROM telemetry_points WHERE series_id = ? AND ts >= ? AND ts <= ? ORDER BY ts LIMIT ?',
    )
    .raw();
  const newest = sqlite
    .prepare(
      'SELECT ts, num, text FROM telemetry_points WHERE series_id = ? AND ts >= ? AND ts <= ? ORDER BY ts DESC LIMIT ?',
    )
    .raw();

  const count = (limit: number) => Math.max(0, Math.floor(limit));

  /** points with lo ≤ ts ≤ hi, oldest first, at most `limit` */
  function readOldest(seriesId: number, lo: number, hi: number, limit: number): PointRow[] {
    const n = count(limit);
    if (n === 0 || hi < lo) return [];
    const stored = oldest.all(seriesId, lo, hi, n) as PointRow[];
    const held = recent?.inRange(seriesId, lo, hi);
    return held?.length ? mergeByTs(stored, held, 1, n) : stored;
  }

  /** points with lo ≤ ts ≤ hi, newest first, at most `limit` */
  function readNewest(seriesId: number, lo: number, hi: number, limit: number): PointRow[] {
    const n = count(limit);
    if (n === 0 || hi < lo) return [];
    const stored = newest.all(seriesId, lo, hi, n) as PointRow[];
    const held = recent?.inRange(seriesId, lo, hi);
    return held?.length ? mergeByTs(stored, held.reverse(), -1, n) : stored;
  }

  return {
    oldest: readOldest,
    newest: readNewest,
    /** the newest point of the series, or null */
    last: (seriesId: number): PointRow | null => readNewest(seriesId, EARLIEST, LATEST, 1)[0] ?? null,
  };
}

export type PointReads = ReturnType<typeof createPointReads>;
