// USAGE: how much a cumulative counter (kWh, litres, km, transactions) rose, step by step between consecutive readings.
// Prometheus' increase() counts every rise and takes any drop as a reset from zero; that turned two things into usage
// that were none: a counter re-based to an older, lower value (a device restored or restarted from its initial reading:
// 85,000 → 81,000 counted 81,000 kWh) and a rise across a silence (a day of usage landing in the hour the device came
// back). The rule (docs/decisions/cards.md "USAGE"):
//   - a rise counts in full, unless it crosses a gap;
//   - a drop to at most half the previous reading is a reset: the new reading counts (the counter restarted from 0);
//   - any other drop is a re-basing: it counts nothing, and later rises count from the new, lower reading;
//   - a gap is a step longer than max(1 hour, 10 × the interval before it): it counts nothing, whatever its size.
// A step never spans more than an hour inside an hour rollup bucket, so a bucket whose readings only rise (first = min,
// last = max) is taken whole; a gap can only fall between two pieces, where both readings' times are known.
// Per bucket (aggregates.ts), a step is shared among the buckets its time crosses, in proportion to the time in each.

/** a step longer than this is always a gap */
export const USAGE_GAP_MIN_MS = 3_600_000;
/** a step longer than this many times the interval before it is a gap (a device that reports hourly may miss a few) */
export const USAGE_GAP_FACTOR = 10;
/** a drop to at most this fraction of the previous reading is a reset (the counter restarted near zero) */
export const USAGE_RESET_FRACTION = 0.5;

/** A counter reading as the step rule needs it. */
export interface CounterReading {
  v: number;
  ts: number;
  /** the interval from the reading before it to this one (ms); null when unknown */
  interval: number | null;
}

/** The longest step after a reading whose own interval was `interval` that is not a gap. */
export const gapLimit = (interval: number | null): number =>
  Math.max(USAGE_GAP_MIN_MS, USAGE_GAP_FACTOR * (interval ?? 0));

/** What the step from `a` to the reading (v, ts) adds to a counter's usage. */
export function usageStep(a: CounterReading, v: number, ts: number): number {
  if (ts - a.ts > gapLimit(a.interval)) return 0;
  if (v >= a.v) return v - a.v;
  return v >= 0 && v <= a.v * USAGE_RESET_FRACTION ? v : 0;
}

/** Aggregates of a stretch of readings: one rollup bucket, or one reading (count 1). */
export interface CounterPiece {
  count: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
  min: number;
  max: number;
}

/** A piece taken whole: a single reading, or readings that only rose (no reset or drop inside). */
export const risesOnly = (p: CounterPiece): boolean => p.count === 1 || (p.first === p.min && p.last === p.max);

/**
 * Folds a counter's pieces in time order; `add` answers the usage a piece brings (the step into it plus its own rise)
 * and leaves the step's part in `step`, from the reading at `stepFrom` (null: none), for a caller that shares the step
 * among the buckets its time crosses. The piece must be one `risesOnly` accepts: others are folded reading by reading.
 */
export class CounterFold {
  private prev: CounterReading | null;
  /** the part of the last `add` that was the step into the piece */
  step = 0;
  /** the time of the reading that step started from; null when there was none */
  stepFrom: number | null = null;

  constructor(baseline: CounterReading | null) {
    this.prev = baseline;
  }

  add(p: CounterPiece): number {
    const prev = this.prev;
    this.step = prev ? usageStep(prev, p.first, p.firstTs) : 0;
    this.stepFrom = prev ? prev.ts : null;
    const interval = p.count >= 2 ? (p.lastTs - p.firstTs) / (p.count - 1) : prev ? p.firstTs - prev.ts : null;
    this.prev = { v: p.last, ts: p.lastTs, interval };
    return this.step + (p.last - p.first);
  }
}

/** The usage of readings in time order ([ts, value]) after an optional baseline (REALTIME windows: the last N points). */
export function usageOfReadings(
  readings: readonly (readonly [number, number])[],
  baseline: CounterReading | null = null,
) {
  const fold = new CounterFold(baseline);
  let inc = 0;
  for (const [ts, v] of readings)
    inc += fold.add({ count: 1, first: v, firstTs: ts, last: v, lastTs: ts, min: v, max: v });
  return inc;
}
