// Points stored in the journal but not yet compacted into the clustered table (the memory side of the LSM split, see
// writer.ts), in two generations. `active` takes what each commit stored; at a round's start it is frozen and
// compacted chunk by chunk (series in id order), each series released once its chunk committed; the generation
// compacted whole is reset and becomes the active one of the round after. Every point read merges these with the
// table's rows (point-reads.ts).
import type { PointColumns } from '../store/write-batch.js';
import type { TelemetryPoint } from '../message.js';
import { grownF64, grownI32, grownU8, MIN_SLOTS, Slots } from '../slots.js';

export type PointRow = [ts: number, num: number | null, text: string | null];

const NUM = 1;
const TEXT = 2;
/** a generation's first room for points; it doubles as a round needs, and is kept (reused) for the rounds after */
const MIN_POINTS = 1024;

/**
 * One round's points, in one arena of columns (arrival order) with, per series, a chain through it (`next`), oldest
 * first unless points arrived out of time order (then `unsorted`, and reads sort that series' few points). Nothing
 * here is allocated per point or per series: a few hundred thousand points live for seconds, and objects (or arrays
 * per series) that old would be copied by young-generation collections and then promoted, at a cost to the event loop
 * larger than the ingest itself. Once compacted, a generation is reset and takes the round after next.
 */
export class Generation {
  points = 0;
  /** arena: points in arrival order */
  private n = 0;
  private ts = new Float64Array(MIN_POINTS);
  private num = new Float64Array(MIN_POINTS);
  /** 0: null, NUM: num[i], TEXT: texts.get(i) */
  private kind = new Uint8Array(MIN_POINTS);
  /** the series' next point in the arena, or -1 */
  private next = new Int32Array(MIN_POINTS);
  private readonly texts = new Map<number, string>();
  /** per slot: first and last point in the arena (-1: none), points held, whether they arrived out of time order */
  private head = new Int32Array(MIN_SLOTS).fill(-1);
  private tail = new Int32Array(MIN_SLOTS);
  private counts = new Int32Array(MIN_SLOTS);
  private unsorted = new Uint8Array(MIN_SLOTS);
  /** slots with points this round, in first-arrival order */
  private touched = new Int32Array(MIN_SLOTS);
  private nTouched = 0;

  constructor(
    public round: number,
    private readonly slots: Slots = new Slots(),
  ) {}

  /** room for points held (reused round after round) */
  get capacity(): number {
    return this.ts.length;
  }

  /** empties the generation for `round`, keeping its arrays (shrunk when the last round used under a quarter) */
  reset(round: number): this {
    for (let k = 0; k < this.nTouched; k++) {
      const slot = this.touched[k]!;
      this.head[slot] = -1;
      this.counts[slot] = 0;
      this.unsorted[slot] = 0;
    }
    if (this.n * 4 < this.ts.length && this.ts.length > MIN_POINTS)
      this.resize(Math.max(MIN_POINTS, this.ts.length >>> 1));
    this.round = round;
    this.points = 0;
    this.n = 0;
    this.nTouched = 0;
    this.texts.clear();
    return this;
  }

  private resize(size: number): void {
    this.ts = grownF64(this.ts, size);
    this.num = grownF64(this.num, size);
    this.kind = grownU8(this.kind, size);
    this.next = grownI32(this.next, size);
  }

  private slotRoom(slots: number): void {
    if (slots <= this.head.length) return;
    const size = Math.max(slots, this.head.length * 2);
    this.head = grownI32(this.head, size, -1);
    this.tail = grownI32(this.tail, size);
    this.counts = grownI32(this.counts, size);
    this.unsorted = grownU8(this.unsorted, size);
    this.touched = grownI32(this.touched, size);
  }

  add(p: TelemetryPoint): void {
    const slot = this.slots.take(p.seriesId);
    this.slotRoom(slot + 1);
    if (this.n === this.ts.length) this.resize(this.n * 2);
    const i = this.n++;
    this.ts[i] = p.ts;
    this.num[i] = p.num ?? 0;
    this.kind[i] = p.text !== null ? TEXT : p.num !== null ? NUM : 0;
    if (p.text !== null) this.texts.set(i, p.text);
    this.next[i] = -1;
    if (this.head[slot] === -1) {
      // first this round (a released series, -1, is listed already)
      if (this.counts[slot] === 0) this.touched[this.nTouched++] = slot;
      this.counts[slot] = 0;
      this.head[slot] = i;
    } else {
      const last = this.tail[slot]!;
      this.next[last] = i;
      // points of a series nearly always come in time order
      if (this.ts[last]! > p.ts) this.unsorted[slot] = 1;
    }
    this.tail[slot] = i;
    this.counts[slot]++;
    this.points++;
  }

  /** the series' points in the arena, oldest first (`out` reused when large enough) */
  private chain(slot: number, out?: Int32Array): Int32Array {
    const n = this.counts[slot]!;
    const at = out && out.length >= n ? out.subarray(0, n) : new Int32Array(n);
    for (let i = this.head[slot]!, k = 0; i !== -1 && k < n; i = this.next[i]!) at[k++] = i;
    if (this.unsorted[slot]) at.sort((a, b) => this.ts[a]! - this.ts[b]!);
    return at;
  }

  private slotOf(seriesId: number): number {
    const slot = this.slots.get(seriesId);
    return slot >= 0 && slot < this.head.length && this.head[slot] !== -1 ? slot : -1;
  }

  has(seriesId: number, ts: number): boolean {
    const slot = this.slotOf(seriesId);
    if (slot < 0) return false;
    for (let i = this.head[slot]!; i !== -1; i = this.next[i]!) if (this.ts[i] === ts) return true;
    return false;
  }

  /** points held of the series */
  count(seriesId: number): number {
    const slot = this.slotOf(seriesId);
    return slot < 0 ? 0 : this.counts[slot]!;
  }

  /** the series is compacted: its points no longer count nor read (their room is reused with the whole generation) */
  release(seriesId: number): void {
    const slot = this.slotOf(seriesId);
    if (slot < 0) return;
    this.points -= this.counts[slot]!;
    this.head[slot] = -1;
    this.counts[slot] = -1; // released: not "touched" again this round
  }

  /** the ids of the series with points held */
  seriesIds(): Float64Array {
    const out = new Float64Array(this.nTouched);
    let o = 0;
    for (let k = 0; k < this.nTouched; k++) {
      const slot = this.touched[k]!;
      if (this.head[slot] !== -1) out[o++] = this.slots.ids[slot]!;
    }
    return out.subarray(0, o);
  }

  /** the series' points with lo ≤ ts ≤ hi, oldest first */
  rows(seriesId: number, lo: number, hi: number): PointRow[] {
    const slot = this.slotOf(seriesId);
    if (slot < 0) return [];
    const out: PointRow[] = [];
    for (const i of this.chain(slot)) {
      const ts = this.ts[i]!;
      if (ts < lo || ts > hi) continue;
      const k = this.kind[i];
      out.push([ts, k === NUM ? this.num[i]! : null, k === TEXT ? this.texts.get(i)! : null]);
    }
    return out;
  }

  /** the points of the series `ids` (in that order, each oldest first) as batch columns */
  columns(ids: ArrayLike<number>): PointColumns {
    let n = 0;
    for (let k = 0; k < ids.length; k++) n += this.count(ids[k]!);
    const out: PointColumns = {
      series: new Float64Array(n),
      ts: new Float64Array(n),
      num: new Float64Array(n),
      hasNum: new Uint8Array(n),
      textAt: new Int32Array(0),
      texts: [],
    };
    const textAt: number[] = [];
    let scratch: Int32Array = new Int32Array(64);
    let o = 0;
    for (let k = 0; k < ids.length; k++) {
      const slot = this.slotOf(ids[k]!);
      if (slot < 0) continue;
      const at = this.chain(slot, scratch);
      if (at.buffer !== scratch.buffer) scratch = at;
      out.series.fill(ids[k]!, o, o + at.length);
      for (let j = 0; j < at.length; j++, o++) {
        const i = at[j]!;
        out.ts[o] = this.ts[i]!;
        out.num[o] = this.num[i]!;
        const kind = this.kind[i];
        if (kind === NUM) out.hasNum[o] = 1;
        else if (kind === TEXT) (textAt.push(o), out.texts.push(this.texts.get(i)!));
      }
    }
    out.textAt = Int32Array.from(textAt);
    return out;
  }
}

export function createRecentPoints() {
  const slots = new Slots();
  let active = new Generation(1, slots);
  let frozen: Generation | null = null;
  /** the last generation compacted: reset, it becomes the next round's active one */
  let spare: Generation | null = null;

  return {
    get active() {
      return active;
    },
    get frozen() {
      return frozen;
    },
    /** points held, both generations */
    get size() {
      return active.points + (frozen?.points ?? 0);
    },
    has: (seriesId: number, ts: number) => active.has(seriesId, ts) || (frozen?.has(seriesId, ts) ?? false),
    add: (p: TelemetryPoint) => active.add(p),
    /** starts a round: the active generation is frozen for compaction and a new one takes the commits */
    freeze(): Generation {
      if (frozen) throw new Error('a compaction round is still running');
      frozen = active;
      active = spare ? spare.reset(frozen.round + 1) : new Generation(frozen.round + 1, slots);
      spare = null;
      return frozen;
    },
    /** the frozen generation is compacted whole */
    compacted(): void {
      spare = frozen;
      frozen = null;
    },
    /**
     * The series' points with lo ≤ ts ≤ hi, oldest first, in a new array (both generations; timestamps are whole
     * milliseconds, so an exclusive bound is the inclusive one ∓ 1).
     */
    inRange(seriesId: number, lo: number, hi: number): PointRow[] {
      const a = active.rows(seriesId, lo, hi);
      const f = frozen?.rows(seriesId, lo, hi) ?? [];
      if (!f.length) return a;
      if (!a.length) return f;
      return mergeByTs(f, a);
    },
  };
}

/**
 * Two lists of rows in the same time order (`order` 1: oldest first, -1: newest first) as one, at most `limit` rows; a
 * timestamp present in both is kept once, from `a`.
 */
export function mergeByTs(
  a: readonly PointRow[],
  b: readonly PointRow[],
  order: 1 | -1 = 1,
  limit = Infinity,
): PointRow[] {
  const out: PointRow[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    const d = x && y ? (x[0] - y[0]) * order : x ? -1 : 1;
    if (d < 0) (out.push(x!), i++);
    else if (d > 0) (out.push(y!), j++);
    else (out.push(x!), i++, j++);
  }
  return out;
}

export type RecentPoints = ReturnType<typeof createRecentPoints>;
