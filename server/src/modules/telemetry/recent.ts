// Points stored in the journal but not yet compacted into the clustered table (the memory side of the LSM split, see
// writer.ts): per series a time-ordered run of columns, in two generations. `active` takes what each commit stored; at
// a round's start it is frozen and compacted chunk by chunk (series in id order), each series released once its chunk
// committed. Every point read merges these with the table's rows (point-reads.ts).
// Columns, not point objects: a few hundred thousand points live here for seconds, and objects that old would be
// copied by every young-generation collection and then promoted, which costs the event loop more than the ingest.
import type { PointColumns } from './write-batch.js';
import type { TelemetryPoint } from './writer.js';

export type PointRow = [ts: number, num: number | null, text: string | null];

const NUM = 1;
const TEXT = 2;
/** the smallest run, and the largest a run starts with from the round before (a series with a backlog grows on) */
const MIN_RUN = 8;
const MAX_START_RUN = 256;

/** one series' points of a generation, oldest first */
class Run {
  ts: Float64Array;
  num: Float64Array;
  /** 0: null, NUM: num[i], TEXT: texts[i] */
  kind: Uint8Array;
  texts: (string | undefined)[] | null = null;
  n = 0;

  /** room for `capacity` points before the first growth */
  constructor(capacity = MIN_RUN) {
    this.ts = new Float64Array(capacity);
    this.num = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
  }

  add(p: TelemetryPoint): void {
    if (this.n === this.ts.length) this.grow();
    // points of a series nearly always come in time order
    let at = this.n;
    if (at > 0 && this.ts[at - 1]! > p.ts) {
      at = this.firstAtOrAfter(p.ts);
      this.ts.copyWithin(at + 1, at, this.n);
      this.num.copyWithin(at + 1, at, this.n);
      this.kind.copyWithin(at + 1, at, this.n);
      this.texts?.splice(at, 0, undefined);
    }
    this.ts[at] = p.ts;
    this.num[at] = p.num ?? 0;
    this.kind[at] = p.text !== null ? TEXT : p.num !== null ? NUM : 0;
    if (p.text !== null) {
      this.texts ??= [];
      this.texts[at] = p.text;
    }
    this.n++;
  }

  private grow(): void {
    const size = this.ts.length * 2;
    const ts = new Float64Array(size);
    ts.set(this.ts);
    const num = new Float64Array(size);
    num.set(this.num);
    const kind = new Uint8Array(size);
    kind.set(this.kind);
    this.ts = ts;
    this.num = num;
    this.kind = kind;
  }

  /** index of the first point with ts ≥ `ts` (binary search) */
  firstAtOrAfter(ts: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ts[mid]! < ts) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  row(i: number): PointRow {
    const k = this.kind[i];
    return [this.ts[i]!, k === NUM ? this.num[i]! : null, k === TEXT ? this.texts![i]! : null];
  }
}

/** one round's points */
export class Generation {
  readonly series = new Map<number, Run>();
  points = 0;
  /**
   * `before`: the generation this one follows. A series' run starts as large as it grew there: its arrays grow (and
   * the outgrown ones become garbage that outlived young collections) only when the series sends faster than before.
   */
  constructor(
    readonly round: number,
    private before: Generation | null = null,
  ) {}

  /** frozen: it takes no more points, and lets go of the generation before it */
  seal(): void {
    this.before = null;
  }

  add(p: TelemetryPoint): void {
    let run = this.series.get(p.seriesId);
    if (!run) this.series.set(p.seriesId, (run = new Run(this.startSize(p.seriesId))));
    run.add(p);
    this.points++;
  }

  private startSize(seriesId: number): number {
    const n = this.before?.series.get(seriesId)?.ts.length ?? MIN_RUN;
    return Math.min(MAX_START_RUN, Math.max(MIN_RUN, n));
  }

  has(seriesId: number, ts: number): boolean {
    const run = this.series.get(seriesId);
    if (!run) return false;
    const i = run.firstAtOrAfter(ts);
    return i < run.n && run.ts[i] === ts;
  }

  /** points held of the series */
  count(seriesId: number): number {
    return this.series.get(seriesId)?.n ?? 0;
  }

  release(seriesId: number): void {
    const run = this.series.get(seriesId);
    if (!run) return;
    this.points -= run.n;
    this.series.delete(seriesId);
  }

  /** the points of the series `ids` (in that order, each oldest first) as batch columns */
  columns(ids: ArrayLike<number>): PointColumns {
    let n = 0;
    for (let k = 0; k < ids.length; k++) n += this.count(ids[k]!);
    const out: PointColumns = { series: new Float64Array(n), ts: new Float64Array(n), num: new Float64Array(n), hasNum: new Uint8Array(n), textAt: new Int32Array(0), texts: [] };
    const textAt: number[] = [];
    let o = 0;
    for (let k = 0; k < ids.length; k++) {
      const run = this.series.get(ids[k]!);
      if (!run) continue;
      out.series.fill(ids[k]!, o, o + run.n);
      out.ts.set(run.ts.subarray(0, run.n), o);
      out.num.set(run.num.subarray(0, run.n), o);
      for (let i = 0; i < run.n; i++) {
        const kind = run.kind[i];
        if (kind === NUM) out.hasNum[o + i] = 1;
        else if (kind === TEXT) textAt.push(o + i), out.texts.push(run.texts![i]!);
      }
      o += run.n;
    }
    out.textAt = Int32Array.from(textAt);
    return out;
  }
}

export function createRecentPoints() {
  let active = new Generation(1);
  let frozen: Generation | null = null;

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
      frozen.seal();
      active = new Generation(frozen.round + 1, frozen);
      return frozen;
    },
    /** the frozen generation is compacted whole */
    compacted(): void {
      frozen = null;
    },
    /**
     * The series' points with lo ≤ ts ≤ hi, oldest first, in a new array (both generations; timestamps are whole
     * milliseconds, so an exclusive bound is the inclusive one ∓ 1).
     */
    inRange(seriesId: number, lo: number, hi: number): PointRow[] {
      const a = slice(active.series.get(seriesId), lo, hi);
      const f = slice(frozen?.series.get(seriesId), lo, hi);
      if (!f.length) return a;
      if (!a.length) return f;
      return mergeByTs(f, a);
    },
  };
}

function slice(run: Run | undefined, lo: number, hi: number): PointRow[] {
  if (!run || run.n === 0 || run.ts[0]! > hi || run.ts[run.n - 1]! < lo) return [];
  const from = run.firstAtOrAfter(lo);
  const to = run.firstAtOrAfter(hi + 1);
  const out = new Array<PointRow>(to - from);
  for (let i = from; i < to; i++) out[i - from] = run.row(i);
  return out;
}

/**
 * Two lists of rows in the same time order (`order` 1: oldest first, -1: newest first) as one, at most `limit` rows; a
 * timestamp present in both is kept once, from `a`.
 */
export function mergeByTs(a: readonly PointRow[], b: readonly PointRow[], order: 1 | -1 = 1, limit = Infinity): PointRow[] {
  const out: PointRow[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    const d = x && y ? (x[0] - y[0]) * order : x ? -1 : 1;
    if (d < 0) out.push(x!), i++;
    else if (d > 0) out.push(y!), j++;
    else out.push(x!), i++, j++;
  }
  return out;
}

export type RecentPoints = ReturnType<typeof createRecentPoints>;
