// Per-minute and per-hour rollups kept at ingest: stored points fold into in-memory deltas per (series, bucket), which
// are merged into the rollup tables every `rollupFlushMs` inside a writer transaction (folded only after their points
// committed) — raw points are never rescanned.
// Reads overlay the deltas not yet flushed, so an aggregate is exact the moment its points are stored.
import { grownF64, grownI32, grownU8, MIN_SLOTS, Slots } from '../slots.js';

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

export const ROLLUP_TABLE: Record<RollupLevel, string> = {
  minute: 'telemetry_rollup_minute',
  hour: 'telemetry_rollup_hour',
};

/** Deltas handed to the writer: flat rows (see ROLLUP_ROW) and the generation their transaction records. */
export interface RollupSnapshot {
  writer: string;
  generation: number;
  minute: Float64Array;
  hour: Float64Array;
}

/** Values of a delta bucket in the columns: a rollup row without its series id (bucket_ts, count, sum, ..., last_ts). */
const B = ROLLUP_ROW - 1;
/** buckets a series keeps per level in the columns: the open one and the one before (a minute just closed) */
const WAYS = 2;
const LEVELS: readonly RollupLevel[] = ['minute', 'hour'];

/** the rows of a snapshot in flight (copies: the snapshot's arrays travel to the writer thread) */
interface Flushing {
  generation: number;
  minute: Float64Array;
  hour: Float64Array;
}

/** a bucket's values at `o` in a row or column array (`o` at its bucket_ts) as a bucket */
const bucketAt = (a: Float64Array, o: number): RollupBucket => ({
  bucketTs: a[o]!,
  count: a[o + 1]!,
  sum: a[o + 2]!,
  min: a[o + 3]!,
  max: a[o + 4]!,
  first: a[o + 5]!,
  firstTs: a[o + 6]!,
  last: a[o + 7]!,
  lastTs: a[o + 8]!,
});

/** `b`'s values at `o` (the reverse of `bucketAt`) */
function writeBucket(a: Float64Array, o: number, b: RollupBucket): void {
  a[o] = b.bucketTs;
  a[o + 1] = b.count;
  a[o + 2] = b.sum;
  a[o + 3] = b.min;
  a[o + 4] = b.max;
  a[o + 5] = b.first;
  a[o + 6] = b.firstTs;
  a[o + 7] = b.last;
  a[o + 8] = b.lastTs;
}

/** `b` folded into the list's bucket of the same start, or added (a copy) */
function fold(list: RollupBucket[], b: RollupBucket) {
  for (const have of list) if (have.bucketTs === b.bucketTs) return void mergeBucket(have, b);
  list.push({ ...b });
}

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
 * One level's deltas, per series slot in columns: WAYS buckets of B values (count 0: empty), and in `extra` the rare
 * bucket beyond them (a late point for a third bucket). Columns, not objects: 15,000 series' buckets as objects were
 * ~300,000 objects and heap numbers that every mark-compact had to mark.
 */
class LevelDeltas {
  cols = new Float64Array(MIN_SLOTS * WAYS * B);
  readonly extra = new Map<number, RollupBucket[]>();
  /** non-empty buckets of every slot */
  count = 0;

  room(slots: number): void {
    if (slots * WAYS * B > this.cols.length)
      this.cols = grownF64(this.cols, Math.max(slots, (this.cols.length / (WAYS * B)) * 2) * WAYS * B);
  }

  /** adds one value to the slot's bucket `bucketTs` */
  add(slot: number, bucketTs: number, ts: number, v: number): void {
    const c = this.cols;
    let empty = -1;
    for (let w = 0; w < WAYS; w++) {
      const o = (slot * WAYS + w) * B;
      if (c[o + 1] === 0) {
        if (empty < 0) empty = o;
        continue;
      }
      if (c[o] !== bucketTs) continue;
      c[o + 1]++;
      c[o + 2] += v;
      if (v < c[o + 3]!) c[o + 3] = v;
      if (v > c[o + 4]!) c[o + 4] = v;
      if (ts < c[o + 6]!) ((c[o + 5] = v), (c[o + 6] = ts));
      if (ts >= c[o + 8]!) ((c[o + 7] = v), (c[o + 8] = ts));
      return;
    }
    if (empty >= 0) {
      this.count++;
      c[empty] = bucketTs;
      c[empty + 1] = 1;
      c[empty + 2] = c[empty + 3] = c[empty + 4] = c[empty + 5] = c[empty + 7] = v;
      c[empty + 6] = c[empty + 8] = ts;
      return;
    }
    this.fold(slot, { bucketTs, count: 1, sum: v, min: v, max: v, first: v, firstTs: ts, last: v, lastTs: ts });
  }

  /** folds a whole bucket into the slot's deltas (a failed snapshot's rows coming back) */
  fold(slot: number, b: RollupBucket): void {
    const c = this.cols;
    for (let w = 0; w < WAYS; w++) {
      const o = (slot * WAYS + w) * B;
      if (c[o + 1] !== 0 && c[o] === b.bucketTs) {
        const into = bucketAt(c, o);
        mergeBucket(into, b);
        writeBucket(c, o, into);
        return;
      }
    }
    for (let w = 0; w < WAYS; w++) {
      const o = (slot * WAYS + w) * B;
      if (c[o + 1] === 0) return (this.count++, writeBucket(c, o, b));
    }
    let list = this.extra.get(slot);
    if (!list) this.extra.set(slot, (list = []));
    const had = list.length;
    fold(list, b);
    this.count += list.length - had;
  }

  /** non-empty buckets of the slot */
  held(slot: number): number {
    let n = this.extra.get(slot)?.length ?? 0;
    for (let w = 0; w < WAYS; w++) if (this.cols[(slot * WAYS + w) * B + 1] !== 0) n++;
    return n;
  }

  /** the slot's buckets as rows of `seriesId` at `o` in `out`; they are emptied. Returns the next row's offset. */
  take(slot: number, seriesId: number, out: Float64Array, o: number): number {
    const c = this.cols;
    const from = o;
    for (let w = 0; w < WAYS; w++) {
      const at = (slot * WAYS + w) * B;
      if (c[at + 1] === 0) continue;
      out[o] = seriesId;
      out.set(c.subarray(at, at + B), o + 1);
      c[at + 1] = 0;
      o += ROLLUP_ROW;
    }
    const list = this.extra.get(slot);
    if (list) {
      for (const b of list) {
        out[o] = seriesId;
        writeBucket(out, o + 1, b);
        o += ROLLUP_ROW;
      }
      this.extra.delete(slot);
    }
    this.count -= (o - from) / ROLLUP_ROW;
    return o;
  }

  /** the slot's buckets in [start, end), as copies folded into `out` */
  collect(slot: number, start: number, end: number, out: RollupBucket[]): void {
    for (let w = 0; w < WAYS; w++) {
      const o = (slot * WAYS + w) * B;
      if (this.cols[o + 1] !== 0 && this.cols[o]! >= start && this.cols[o]! < end) fold(out, bucketAt(this.cols, o));
    }
    for (const b of this.extra.get(slot) ?? []) if (b.bucketTs >= start && b.bucketTs < end) fold(out, b);
  }
}

/**
 * Deltas not yet merged into the tables, per series (a slot lookup per stored point). A snapshot copies them into rows
 * for the writer's transaction and empties them; reads overlay those rows (`flushing`) until the table says their
 * generation is durable (`pendingOf`'s `durableGeneration`, read in the same snapshot as the rows).
 */
export function createRollupKeeper(writer: string) {
  const slots = new Slots();
  const levels: Record<RollupLevel, LevelDeltas> = { minute: new LevelDeltas(), hour: new LevelDeltas() };
  /** slots with deltas, oldest first, from `head` to `tail`; a snapshot takes whole series from the front */
  let queue = new Int32Array(MIN_SLOTS);
  let head = 0;
  let tail = 0;
  /** 1: the slot is queued */
  let queued = new Uint8Array(MIN_SLOTS);
  let flushing: Flushing | null = null;
  let generation = 0;

  /** the slot of `seriesId`, queued */
  function pendingSlot(seriesId: number): number {
    const slot = slots.take(seriesId);
    if (slot >= queued.length) {
      queued = grownU8(queued, Math.max(slot + 1, queued.length * 2));
      for (const level of LEVELS) levels[level].room(queued.length);
    }
    if (queued[slot] === 0) {
      queued[slot] = 1;
      if (tail === queue.length) {
        // move down in place once the head has passed half the array, else grow it
        if (head * 2 >= queue.length) (queue.copyWithin(0, head, tail), (tail -= head), (head = 0));
        else queue = grownI32(queue, queue.length * 2);
      }
      queue[tail++] = slot;
    }
    return slot;
  }

  /** rows of the slots' buckets of `level`, series in id order; the buckets are emptied */
  function take(taken: Int32Array, level: RollupLevel): Float64Array {
    const deltas = levels[level];
    let n = 0;
    for (const slot of taken) n += deltas.held(slot);
    const out = new Float64Array(n * ROLLUP_ROW);
    let o = 0;
    for (const slot of taken) o = deltas.take(slot, slots.ids[slot]!, out, o);
    return out;
  }

  return {
    writer,
    /** a point that was just stored */
    add(seriesId: number, ts: number, v: number): void {
      const slot = pendingSlot(seriesId);
      levels.minute.add(slot, bucketOf(ts, BUCKET_MS.minute), ts, v);
      levels.hour.add(slot, bucketOf(ts, BUCKET_MS.hour), ts, v);
    },
    /**
     * Pending deltas of whole series (both levels), up to about `maxRows` rows, as rows for the writer's next
     * transaction (reads see them in `flushing` meanwhile), so no transaction grows with the fleet; null when none are
     * pending or a snapshot is in flight.
     */
    snapshot(maxRows = Infinity): RollupSnapshot | null {
      if (flushing || tail === head) return null;
      let k = head;
      for (let n = 0; k < tail && n < maxRows; k++) n += levels.minute.held(queue[k]!) + levels.hour.held(queue[k]!);
      const taken = queue.slice(head, k);
      head = k;
      if (head === tail) head = tail = 0;
      for (const slot of taken) queued[slot] = 0;
      taken.sort((x, y) => slots.ids[x]! - slots.ids[y]!); // clustered key order: neighbouring pages
      const minute = take(taken, 'minute');
      const hour = take(taken, 'hour');
      flushing = { generation: ++generation, minute: minute.slice(), hour: hour.slice() };
      return { writer, generation, minute, hour };
    },
    /** series with pending deltas */
    get pendingSeries(): number {
      return tail - head;
    },
    /** the snapshot's transaction committed: the table holds it */
    snapshotStored(): void {
      flushing = null;
    },
    /** the snapshot's transaction failed: its deltas are pending again */
    snapshotFailed(): void {
      if (!flushing) return;
      for (const level of LEVELS) {
        const rows = flushing[level];
        for (let o = 0; o < rows.length; o += ROLLUP_ROW)
          levels[level].fold(pendingSlot(rows[o]!), bucketAt(rows, o + 1));
      }
      flushing = null;
    },
    /** deltas of one series in [start, end) not yet in the table as of `durableGeneration` (copies) */
    pendingOf(
      level: RollupLevel,
      seriesId: number,
      start: number,
      end: number,
      durableGeneration: number,
    ): RollupBucket[] {
      const out: RollupBucket[] = [];
      const slot = slots.get(seriesId);
      if (slot >= 0 && slot < queued.length) levels[level].collect(slot, start, end, out);
      if (flushing && flushing.generation > durableGeneration) {
        const rows = flushing[level];
        for (
          let o = firstRowOf(rows, seriesId) * ROLLUP_ROW;
          o < rows.length && rows[o] === seriesId;
          o += ROLLUP_ROW
        ) {
          if (rows[o + 1]! >= start && rows[o + 1]! < end) fold(out, bucketAt(rows, o + 1));
        }
      }
      return out;
    },
    get hasPending(): boolean {
      return tail > head;
    },
    get pendingBuckets(): number {
      return levels.minute.count + levels.hour.count;
    },
  };
}

export type RollupKeeper = ReturnType<typeof createRollupKeeper>;
