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
 * One series' deltas not yet merged: per level a short list of buckets (usually the one open bucket). Kept for the
 * series' life and reused: a merged bucket is emptied (count 0) and takes the next bucket's deltas, so a flush round
 * allocates nothing per series (objects made anew every round outlive young collections and are promoted).
 */
interface SeriesDeltas {
  id: number;
  minute: RollupBucket[];
  hour: RollupBucket[];
  /** in `pending` */
  pending: boolean;
  /** the snapshot generation when it last took a point */
  seen: number;
}

/** how often (in snapshots, 30-odd per 5-second round at 15,000 series) the deltas of silent series are let go */
const SWEEP_EVERY = 512;

/**
 * Series waiting for a snapshot, oldest first, in one array kept for the process: taking from the front moves a head,
 * and the items move down in place once the head passes half the array (a new array per snapshot of a 15,000-series
 * list is a large object allocated straight in the old generation).
 */
class Waiting {
  private items: (SeriesDeltas | undefined)[] = [];
  private head = 0;
  private tail = 0;

  get size(): number {
    return this.tail - this.head;
  }

  at(i: number): SeriesDeltas {
    return this.items[this.head + i]!;
  }

  push(d: SeriesDeltas): void {
    if (this.tail === this.items.length && this.head * 2 >= this.items.length && this.head > 0) {
      this.items.copyWithin(0, this.head, this.tail);
      this.items.fill(undefined, this.tail - this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
    }
    this.items[this.tail++] = d;
  }

  /** the first `k`, removed */
  take(k: number): SeriesDeltas[] {
    const out = this.items.slice(this.head, this.head + k) as SeriesDeltas[];
    this.items.fill(undefined, this.head, this.head + k);
    this.head += k;
    if (this.head === this.tail) this.head = this.tail = 0;
    return out;
  }
}

/** the rows of a snapshot in flight (copies: the snapshot's arrays travel to the writer thread) */
interface Flushing {
  generation: number;
  minute: Float64Array;
  hour: Float64Array;
}

/** a bucket's row of a snapshot (ROLLUP_ROW values at `o`) as a bucket */
const bucketOfRow = (rows: Float64Array, o: number): RollupBucket => ({
  bucketTs: rows[o + 1]!,
  count: rows[o + 2]!,
  sum: rows[o + 3]!,
  min: rows[o + 4]!,
  max: rows[o + 5]!,
  first: rows[o + 6]!,
  firstTs: rows[o + 7]!,
  last: rows[o + 8]!,
  lastTs: rows[o + 9]!,
});

/** the first row of `seriesId` in rows sorted by series (binary search), or the row count when there is none */
function firstRowOf(rows: Float64Array, seriesId: number): number {
  let lo = 0;
  let hi = rows.length / ROLLUP_ROW;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid * ROLLUP_ROW]! < seriesId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Deltas not yet merged into the tables, per series (one map lookup per stored point). A snapshot copies them into
 * rows for the writer's transaction and empties them; reads overlay those rows (`flushing`) until the table says their
 * generation is durable (`pendingOf`'s `durableGeneration`, read in the same snapshot as the rows).
 */
export function createRollupKeeper(writer: string) {
  const deltas = new Map<number, SeriesDeltas>();
  /** series with deltas, oldest first; a snapshot takes whole series from the front */
  const pending = new Waiting();
  let flushing: Flushing | null = null;
  let generation = 0;

  /** `b` folded into the list's bucket of the same start, or into an empty one, or added */
  function fold(list: RollupBucket[], b: RollupBucket) {
    let empty: RollupBucket | undefined;
    for (const have of list) {
      if (have.count > 0 && have.bucketTs === b.bucketTs) return void mergeBucket(have, b);
      if (have.count === 0) empty ??= have;
    }
    if (empty) Object.assign(empty, b);
    else list.push({ ...b });
  }

  function add(list: RollupBucket[], bucketTs: number, ts: number, v: number) {
    // the open bucket is the last one nearly always
    let empty: RollupBucket | undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const b = list[i]!;
      if (b.count === 0) {
        empty ??= b;
        continue;
      }
      if (b.bucketTs !== bucketTs) continue;
      b.count++;
      b.sum += v;
      if (v < b.min) b.min = v;
      if (v > b.max) b.max = v;
      if (ts < b.firstTs) (b.first = v), (b.firstTs = ts);
      if (ts >= b.lastTs) (b.last = v), (b.lastTs = ts);
      return;
    }
    if (!empty) return void list.push({ bucketTs, count: 1, sum: v, min: v, max: v, first: v, firstTs: ts, last: v, lastTs: ts });
    empty.bucketTs = bucketTs;
    empty.count = 1;
    empty.sum = empty.min = empty.max = empty.first = empty.last = v;
    empty.firstTs = empty.lastTs = ts;
  }

  function deltasOf(seriesId: number): SeriesDeltas {
    let d = deltas.get(seriesId);
    if (!d) deltas.set(seriesId, (d = { id: seriesId, minute: [], hour: [], pending: false, seen: generation }));
    if (!d.pending) (d.pending = true), (d.seen = generation), pending.push(d);
    return d;
  }

  const bucketsHeld = (list: RollupBucket[]) => {
    let n = 0;
    for (const b of list) if (b.count > 0) n++;
    return n;
  };

  /** the series' non-empty buckets of `level` as rows, series in id order; the buckets are emptied */
  function take(series: SeriesDeltas[], level: RollupLevel): Float64Array {
    let n = 0;
    for (const d of series) n += bucketsHeld(d[level]);
    const out = new Float64Array(n * ROLLUP_ROW);
    let o = 0;
    for (const d of series) {
      for (const b of d[level]) {
        if (b.count === 0) continue;
        out[o] = d.id;
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
        b.count = 0;
      }
    }
    return out;
  }

  /** the rows of `seriesId` in rows sorted by series, as copies, folded into `out` when within [start, end) */
  function overlay(out: RollupBucket[], rows: Float64Array, seriesId: number, start: number, end: number) {
    for (let o = firstRowOf(rows, seriesId) * ROLLUP_ROW; o < rows.length && rows[o] === seriesId; o += ROLLUP_ROW) {
      const bucketTs = rows[o + 1]!;
      if (bucketTs >= start && bucketTs < end) fold(out, bucketOfRow(rows, o));
    }
  }

  return {
    writer,
    /** a point that was just stored */
    add(seriesId: number, ts: number, v: number): void {
      const d = deltasOf(seriesId);
      add(d.minute, bucketOf(ts, BUCKET_MS.minute), ts, v);
      add(d.hour, bucketOf(ts, BUCKET_MS.hour), ts, v);
    },
    /**
     * Pending deltas of whole series (both levels), up to about `maxRows` rows, as rows for the writer's next
     * transaction (reads see them in `flushing` meanwhile), so no transaction grows with the fleet; null when none are
     * pending or a snapshot is in flight.
     */
    snapshot(maxRows = Infinity): RollupSnapshot | null {
      if (flushing || pending.size === 0) return null;
      let k = 0;
      for (let n = 0; k < pending.size && n < maxRows; k++) n += bucketsHeld(pending.at(k).minute) + bucketsHeld(pending.at(k).hour);
      const taken = pending.take(k);
      for (const d of taken) d.pending = false;
      taken.sort((a, b) => a.id - b.id); // clustered key order: neighbouring pages
      const minute = take(taken, 'minute');
      const hour = take(taken, 'hour');
      flushing = { generation: ++generation, minute: minute.slice(), hour: hour.slice() };
      // series silent for SWEEP_EVERY snapshots (deleted, or sending rarely) let go of their deltas
      if (generation % SWEEP_EVERY === 0) for (const [id, d] of deltas) if (!d.pending && generation - d.seen > SWEEP_EVERY) deltas.delete(id);
      return { writer, generation, minute, hour };
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
      for (const level of ['minute', 'hour'] as const) {
        const rows = flushing[level];
        for (let o = 0; o < rows.length; o += ROLLUP_ROW) fold(deltasOf(rows[o]!)[level], bucketOfRow(rows, o));
      }
      flushing = null;
    },
    /** deltas of one series in [start, end) not yet in the table as of `durableGeneration` (copies) */
    pendingOf(level: RollupLevel, seriesId: number, start: number, end: number, durableGeneration: number): RollupBucket[] {
      const out: RollupBucket[] = [];
      const d = deltas.get(seriesId);
      if (d) for (const b of d[level]) if (b.count > 0 && b.bucketTs >= start && b.bucketTs < end) fold(out, b);
      if (flushing && flushing.generation > durableGeneration) overlay(out, flushing[level], seriesId, start, end);
      return out;
    },
    get hasPending(): boolean {
      return pending.size > 0;
    },
    get pendingBuckets(): number {
      let n = 0;
      for (let i = 0; i < pending.size; i++) n += bucketsHeld(pending.at(i).minute) + bucketsHeld(pending.at(i).hour);
      return n;
    },
  };
}

export type RollupKeeper = ReturnType<typeof createRollupKeeper>;
