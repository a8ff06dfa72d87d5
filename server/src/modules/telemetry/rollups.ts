// Per-minute and per-hour rollups kept at ingest: stored points fold into in-memory deltas per (series, bucket), which
// are merged into the rollup tables every `rollupFlushMs` inside a writer transaction (folded only after their points
// committed) — raw points are never rescanned.
// Reads overlay the deltas not yet flushed, so an aggregate is exact the moment its points are stored.

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

/** Values per rollup row of a snapshot: series_id, bucket_ts, count, sum, min, max, first, first_ts, last, last_ts */
export const ROLLUP_ROW = 10;

export const ROLLUP_TABLE: Record<RollupLevel, string> = { minute: 'telemetry_rollup_minute', hour: 'telemetry_rollup_hour' };

/** Deltas handed to the writer: flat rows (see ROLLUP_ROW) and the generation their transaction records. */
export interface RollupSnapshot {
  writer: string;
  generation: number;
  minute: Float64Array;
  hour: Float64Array;
}

/** one series' deltas not yet merged: per level a short list of buckets (usually the one open bucket) */
interface SeriesDeltas {
  minute: RollupBucket[];
  hour: RollupBucket[];
}

/**
 * Deltas not yet merged into the tables, per series (one map lookup per stored point). A snapshot moves them to
 * `flushing` while the writer's transaction runs; reads overlay `flushing` until the table says its generation is
 * durable (`pendingOf`'s `durableGeneration`, read in the same snapshot as the rows).
 */
export function createRollupKeeper(writer: string) {
  let pending = new Map<number, SeriesDeltas>();
  let flushing: { generation: number; series: Map<number, SeriesDeltas> } | null = null;
  let generation = 0;

  /** `b` merged into the list's bucket of the same start, or added to it */
  function fold(list: RollupBucket[], b: RollupBucket) {
    for (const have of list) if (have.bucketTs === b.bucketTs) return void mergeBucket(have, b);
    list.push(b);
  }

  function add(list: RollupBucket[], bucketTs: number, ts: number, v: number) {
    // the open bucket is the last one nearly always
    for (let i = list.length - 1; i >= 0; i--) {
      const b = list[i]!;
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

  function rows(series: Map<number, SeriesDeltas>, level: RollupLevel): Float64Array {
    let n = 0;
    for (const d of series.values()) n += d[level].length;
    const out = new Float64Array(n * ROLLUP_ROW);
    let o = 0;
    const ids = Float64Array.from(series.keys()).sort(); // clustered key order: neighbouring pages
    for (const id of ids) {
      for (const b of series.get(id)![level]) {
        out[o] = id;
        out[o + 1] = b.bucketTs;
        out[o + 2] = b.count;
        out[o + 3] = b.sum;
        out[o + 4] = b.min;
        out[o + 5] = b.max;
        out[o + 6] = b.first;
        out[o + 7] = b.firstTs;
        out[o + 8] = b.last;
        out[o + 9] = b.lastTs;
        o += ROLLUP_ROW;
      }
    }
    return out;
  }

  return {
    writer,
    /** a point that was just stored */
    add(seriesId: number, ts: number, v: number): void {
      let d = pending.get(seriesId);
      if (!d) pending.set(seriesId, (d = { minute: [], hour: [] }));
      add(d.minute, bucketOf(ts, BUCKET_MS.minute), ts, v);
      add(d.hour, bucketOf(ts, BUCKET_MS.hour), ts, v);
    },
    /**
     * Pending deltas of whole series (both levels), up to about `maxRows` rows, moved to `flushing` for the writer's
     * next transaction, so no transaction grows with the fleet; null when none are pending or a snapshot is in flight.
     */
    snapshot(maxRows = Infinity): RollupSnapshot | null {
      if (flushing || pending.size === 0) return null;
      let taken = pending;
      if (pending.size * 2 > maxRows) {
        taken = new Map();
        let n = 0;
        for (const [id, d] of pending) {
          if (n >= maxRows) break;
          taken.set(id, d);
          pending.delete(id);
          n += d.minute.length + d.hour.length;
        }
      } else pending = new Map();
      flushing = { generation: ++generation, series: taken };
      return { writer, generation, minute: rows(taken, 'minute'), hour: rows(taken, 'hour') };
    },
    /** series with pending deltas */
    get pendingSeries(): number {
      return pending.size;
    },
    /** the snapshot's transaction committed: the table holds it */
    snapshotStored(): void {
      flushing = null;
    },
    /** the snapshot's transaction failed: its deltas are pending again */
    snapshotFailed(): void {
      if (!flushing) return;
      for (const [id, d] of flushing.series) {
        const into = pending.get(id);
        if (!into) {
          pending.set(id, d);
          continue;
        }
        for (const b of d.minute) fold(into.minute, b);
        for (const b of d.hour) fold(into.hour, b);
      }
      flushing = null;
    },
    /** deltas of one series in [start, end) not yet in the table as of `durableGeneration` (copies) */
    pendingOf(level: RollupLevel, seriesId: number, start: number, end: number, durableGeneration: number): RollupBucket[] {
      const out: RollupBucket[] = [];
      const take = (list: RollupBucket[] | undefined) => {
        if (list) for (const b of list) if (b.bucketTs >= start && b.bucketTs < end) fold(out, { ...b });
      };
      take(pending.get(seriesId)?.[level]);
      if (flushing && flushing.generation > durableGeneration) take(flushing.series.get(seriesId)?.[level]);
      return out;
    },
    get hasPending(): boolean {
      return pending.size > 0;
    },
    get pendingBuckets(): number {
      let n = 0;
      for (const d of pending.values()) n += d.minute.length + d.hour.length;
      return n;
    },
    forgetSeries(ids: Iterable<number>): void {
      for (const id of ids) pending.delete(id);
    },
  };
}

export type RollupKeeper = ReturnType<typeof createRollupKeeper>;
