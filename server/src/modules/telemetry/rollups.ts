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

/**
 * Deltas not yet merged into the tables: per series a short list of buckets (usually the one open bucket). A snapshot
 * moves them to `flushing` while the writer's transaction runs; reads overlay `flushing` until the table says its
 * generation is durable (`pendingOf`'s `durableGeneration`, read in the same snapshot as the rows).
 */
export function createRollupKeeper(writer: string) {
  let pending: Record<RollupLevel, Map<number, RollupBucket[]>> = { minute: new Map(), hour: new Map() };
  let flushing: { generation: number; levels: Record<RollupLevel, Map<number, RollupBucket[]>> } | null = null;
  let generation = 0;

  /** `b` merged into the list's bucket of the same start, or added to it */
  function fold(list: RollupBucket[], b: RollupBucket) {
    for (const have of list) if (have.bucketTs === b.bucketTs) return void mergeBucket(have, b);
    list.push(b);
  }

  function add(level: RollupLevel, seriesId: number, ts: number, v: number) {
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

  function rows(map: Map<number, RollupBucket[]>): Float64Array {
    let n = 0;
    for (const list of map.values()) n += list.length;
    const out = new Float64Array(n * ROLLUP_ROW);
    let o = 0;
    const ids = Float64Array.from(map.keys()).sort(); // clustered key order: neighbouring pages
    for (const id of ids) {
      for (const b of map.get(id)!) {
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
      add('minute', seriesId, ts, v);
      add('hour', seriesId, ts, v);
    },
    /**
     * Pending deltas of whole series (both levels), up to about `maxRows` rows, moved to `flushing` for the writer's
     * next transaction, so no transaction grows with the fleet; null when none are pending or a snapshot is in flight.
     */
    snapshot(maxRows = Infinity): RollupSnapshot | null {
      if (flushing || pending.minute.size === 0) return null;
      let levels = pending;
      if (pending.minute.size + pending.hour.size > maxRows) {
        levels = { minute: new Map(), hour: new Map() };
        let n = 0;
        for (const [id, list] of pending.minute) {
          if (n >= maxRows) break;
          const hour = pending.hour.get(id);
          levels.minute.set(id, list);
          pending.minute.delete(id);
          n += list.length;
          if (hour) levels.hour.set(id, hour), pending.hour.delete(id), (n += hour.length);
        }
      } else pending = { minute: new Map(), hour: new Map() };
      flushing = { generation: ++generation, levels };
      return { writer, generation, minute: rows(levels.minute), hour: rows(levels.hour) };
    },
    /** series with pending deltas */
    get pendingSeries(): number {
      return pending.minute.size;
    },
    /** the snapshot's transaction committed: the table holds it */
    snapshotStored(): void {
      flushing = null;
    },
    /** the snapshot's transaction failed: its deltas are pending again */
    snapshotFailed(): void {
      if (!flushing) return;
      for (const level of ['minute', 'hour'] as const) {
        for (const [id, list] of flushing.levels[level]) {
          const into = pending[level].get(id);
          if (into) for (const b of list) fold(into, b);
          else pending[level].set(id, list);
        }
      }
      flushing = null;
    },
    /** deltas of one series in [start, end) not yet in the table as of `durableGeneration` (copies) */
    pendingOf(level: RollupLevel, seriesId: number, start: number, end: number, durableGeneration: number): RollupBucket[] {
      const out: RollupBucket[] = [];
      const take = (list: RollupBucket[] | undefined) => {
        if (list) for (const b of list) if (b.bucketTs >= start && b.bucketTs < end) fold(out, { ...b });
      };
      take(pending[level].get(seriesId));
      if (flushing && flushing.generation > durableGeneration) take(flushing.levels[level].get(seriesId));
      return out;
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
