// Per-minute and per-hour rollups kept at ingest: stored points fold into in-memory deltas per (series, bucket), which
// are merged into the rollup tables every `rollupFlushMs` inside a writer transaction (folded only after their points
// committed) — raw points are never rescanned.
// Reads overlay the deltas not yet flushed, so an aggregate is exact the moment its points are stored.
import type Database from 'better-sqlite3';

export type RollupLevel = 'minute' | 'hour';
export const BUCKET_MS: Record<RollupLevel, number> = { minute: 60_000, hour: 3_600_000 };

export interface RollupBucket {
  bucketTs: number;
  count: number;
  sum: number;
  min: number;
  max: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
}

export const bucketOf = (ts: number, size: number): number => ts - (((ts % size) + size) % size);

/** Folds `b` into `a` (same bucket): the one merge rule shared by ingest, flush (as SQL) and reads. */
export function mergeBucket(a: RollupBucket, b: RollupBucket): RollupBucket {
  a.count += b.count;
  a.sum += b.sum;
  if (b.min < a.min) a.min = b.min;
  if (b.max > a.max) a.max = b.max;
  if (b.firstTs < a.firstTs) {
    a.first = b.first;
    a.firstTs = b.firstTs;
  }
  if (b.lastTs >= a.lastTs) {
    a.last = b.last;
    a.lastTs = b.lastTs;
  }
  return a;
}

const mergeSql = (table: string) => `INSERT INTO ${table} (series_id, bucket_ts, "count", "sum", "min", "max", "first", first_ts, "last", last_ts)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (series_id, bucket_ts) DO UPDATE SET
    "count" = "count" + excluded."count",
    "sum" = "sum" + excluded."sum",
    "min" = min("min", excluded."min"),
    "max" = max("max", excluded."max"),
    "first" = CASE WHEN excluded.first_ts < first_ts THEN excluded."first" ELSE "first" END,
    first_ts = min(first_ts, excluded.first_ts),
    "last" = CASE WHEN excluded.last_ts >= last_ts THEN excluded."last" ELSE "last" END,
    last_ts = max(last_ts, excluded.last_ts)`;

export const ROLLUP_TABLE: Record<RollupLevel, string> = { minute: 'telemetry_rollup_minute', hour: 'telemetry_rollup_hour' };

/** Deltas not yet merged into the tables: per series a short list of buckets (usually the one open bucket). */
export function createRollupKeeper(sqlite: Database.Database) {
  const pending: Record<RollupLevel, Map<number, RollupBucket[]>> = { minute: new Map(), hour: new Map() };
  const merge = { minute: sqlite.prepare(mergeSql(ROLLUP_TABLE.minute)), hour: sqlite.prepare(mergeSql(ROLLUP_TABLE.hour)) };

  function fold(level: RollupLevel, seriesId: number, ts: number, v: number) {
    const bucketTs = bucketOf(ts, BUCKET_MS[level]);
    let list = pending[level].get(seriesId);
    if (!list) pending[level].set(seriesId, (list = []));
    for (const b of list) {
      if (b.bucketTs !== bucketTs) continue;
      b.count++;
      b.sum += v;
      if (v < b.min) b.min = v;
      if (v > b.max) b.max = v;
      if (ts < b.firstTs) (b.first = v), (b.firstTs = ts);
      if (ts >= b.lastTs) (b.last = v), (b.lastTs = ts);
      return;
    }
    list.push({ bucketTs, count: 1, sum: v, min: v, max: v, first: v, firstTs: ts, last: v, lastTs: ts });
  }

  return {
    /** a point that was just stored */
    add(seriesId: number, ts: number, v: number): void {
      fold('minute', seriesId, ts, v);
      fold('hour', seriesId, ts, v);
    },
    /** merges every delta into the tables (caller holds the transaction; memory is untouched). Returns rows merged. */
    write(): number {
      let rows = 0;
      for (const level of ['minute', 'hour'] as const) {
        const map = pending[level];
        const ids = [...map.keys()].sort((a, b) => a - b); // clustered key order: neighbouring pages
        for (const id of ids) {
          for (const b of map.get(id)!) {
            merge[level].run(id, b.bucketTs, b.count, b.sum, b.min, b.max, b.first, b.firstTs, b.last, b.lastTs);
            rows++;
          }
        }
      }
      return rows;
    },
    /** after the transaction of `write` committed */
    clearWritten(): void {
      pending.minute.clear();
      pending.hour.clear();
    },
    /** deltas of one series in [start, end) not yet in the table (copies) */
    pendingOf(level: RollupLevel, seriesId: number, start: number, end: number): RollupBucket[] {
      const list = pending[level].get(seriesId);
      if (!list) return [];
      return list.filter((b) => b.bucketTs >= start && b.bucketTs < end).map((b) => ({ ...b }));
    },
    get hasPending(): boolean {
      return pending.minute.size > 0;
    },
    get pendingBuckets(): number {
      let n = 0;
      for (const level of ['minute', 'hour'] as const) for (const list of pending[level].values()) n += list.length;
      return n;
    },
    forgetSeries(ids: Iterable<number>): void {
      for (const id of ids) {
        pending.minute.delete(id);
        pending.hour.delete(id);
      }
    },
  };
}

export type RollupKeeper = ReturnType<typeof createRollupKeeper>;
