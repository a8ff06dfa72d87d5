// The aggregate functions of a window, per bucket: AVG, COUNT, MAX, MIN, SUM, USAGE, SAMPLE, LAST. They fold pieces
// (rollup buckets or raw points, in time order; see seriesReads.ts) so a month of hourly rollups is 720 rows, not
// 2.6 million points. An empty bucket is null, except COUNT (0).
import type { Piece } from '../seriesReads.js';
import { CounterFold, risesOnly, usageOfReadings, type CounterReading } from './usage.js';

export const AGGREGATES = ['AVG', 'COUNT', 'MAX', 'MIN', 'SUM', 'USAGE', 'SAMPLE', 'LAST'] as const;
export type AggregateFn = (typeof AGGREGATES)[number];
export const isAggregate = (q: string): q is AggregateFn => (AGGREGATES as readonly string[]).includes(q);

export interface UsageContext {
  /** the counter's reading just before the window (its baseline); null when the window holds its first point */
  baseline: CounterReading | null;
  /** raw points of a rollup piece whose counter is not monotone inside (it was reset there) */
  expand(p: Piece): Piece[];
}

/**
 * One value per bucket [boundaries[i], boundaries[i+1]).
 * USAGE is the increase of a cumulative counter: the sum of the steps between consecutive readings under the rule of
 * usage.ts (a rise counts, a drop to near zero is a reset, a re-basing or a step across a gap counts nothing). A rollup
 * bucket is taken whole when it only rose (its first is its min and its last its max), else its raw points decide.
 * A step is drawn over its own time, from the reading before to the next: each bucket it crosses gets the share of the
 * time it holds (07:30 → 08:00 is the 07:00 hour's usage, however the readings fall on the hour), and the share before
 * the window's start is not the window's. So an hour never shows more than the hour can hold, and the buckets still add
 * up to the whole window's figure. A bucket with no reading that a step crosses shows its share.
 */
export function bucketAggregates(
  fn: AggregateFn,
  pieces: readonly Piece[],
  boundaries: readonly number[],
  usage?: UsageContext,
): (number | null)[] {
  const n = boundaries.length - 1;
  const count = new Array<number>(n).fill(0);
  const acc = new Array<number | null>(n).fill(null);
  let b = 0;
  const counter = fn === 'USAGE' ? new CounterFold(usage?.baseline ?? null) : null;
  const step = (p: Piece, i: number) => {
    const fold = counter!;
    fold.add(p);
    const { step, stepFrom } = fold;
    acc[i] = (acc[i] ?? 0) + (p.last - p.first);
    const span = stepFrom === null ? 0 : p.firstTs - stepFrom;
    if (step === 0 || span <= 0 || stepFrom! >= boundaries[i]!) {
      acc[i] = acc[i]! + step;
      return;
    }
    for (let j = i; j >= 0 && boundaries[j + 1]! > stepFrom!; j--) {
      const held = Math.min(p.firstTs, boundaries[j + 1]!) - Math.max(stepFrom!, boundaries[j]!);
      if (held > 0) acc[j] = (acc[j] ?? 0) + (step * held) / span;
    }
  };

  for (const p of pieces) {
    while (b < n - 1 && p.from >= boundaries[b + 1]!) b++;
    if (p.from < boundaries[0]! || p.from >= boundaries[n]!) continue;
    count[b] += p.count;
    const cur = acc[b];
    switch (fn) {
      case 'COUNT':
        break;
      case 'SUM':
      case 'AVG':
        acc[b] = (cur ?? 0) + p.sum;
        break;
      case 'MIN':
        acc[b] = cur === null || p.min < cur ? p.min : cur;
        break;
      case 'MAX':
        acc[b] = cur === null || p.max > cur ? p.max : cur;
        break;
      case 'SAMPLE':
        if (cur === null) acc[b] = p.first;
        break;
      case 'LAST':
        acc[b] = p.last;
        break;
      case 'USAGE':
        if (risesOnly(p)) step(p, b);
        else for (const q of usage!.expand(p)) step(q, b);
        break;
    }
  }
  if (fn === 'COUNT') return count;
  if (fn === 'USAGE') return acc;
  if (fn === 'AVG') return acc.map((s, i) => (s === null || count[i] === 0 ? null : s / count[i]!));
  return acc.map((v, i) => (count[i] === 0 ? null : v));
}

/** The same functions over readings ([ts, value]) in time order (REALTIME windows: the last N points). */
export function valuesAggregate(fn: AggregateFn, readings: readonly (readonly [number, number])[]): number | null {
  const values = readings.map((r) => r[1]);
  if (fn === 'COUNT') return values.length;
  if (values.length === 0) return null;
  switch (fn) {
    case 'SUM':
      return values.reduce((a, v) => a + v, 0);
    case 'AVG':
      return values.reduce((a, v) => a + v, 0) / values.length;
    case 'MIN':
      return Math.min(...values);
    case 'MAX':
      return Math.max(...values);
    case 'SAMPLE':
      return values[0]!;
    case 'LAST':
      return values[values.length - 1]!;
    case 'USAGE':
      return usageOfReadings(readings);
  }
}
