// The USAGE step rule on its own and folded over rollup pieces: rises, resets, re-basings, gaps (absolute and relative
// to the interval before them), a baseline far before the window, and a rollup bucket taken whole or point by point.
import { describe, expect, it } from 'vitest';
import { bucketAggregates } from './aggregates.js';
import { CounterFold, gapLimit, usageOfReadings, usageStep, USAGE_GAP_MIN_MS, type CounterReading } from './usage.js';
import type { Piece } from '../seriesReads.js';

const MIN = 60_000;
const H = 3_600_000;
const reading = (v: number, ts: number, interval: number | null = 10_000): CounterReading => ({ v, ts, interval });

describe('one step between two readings', () => {
  it('a rise counts in full', () => {
    expect(usageStep(reading(100, 0), 112.5, 10_000)).toBe(12.5);
  });
  it('a drop to at most half the reading before is a reset: the new reading counts (it restarted from zero)', () => {
    expect(usageStep(reading(130, 0), 3, 10_000)).toBe(3);
    expect(usageStep(reading(8.2, 0), 0.01, 10_000)).toBe(0.01); // Tasmota's ENERGY Today at midnight
    expect(usageStep(reading(100, 0), 50, 10_000)).toBe(50);
  });
  it('a smaller drop is a re-basing and counts nothing (85,000 → 81,000 kWh is not 81,000 kWh of usage)', () => {
    expect(usageStep(reading(85_364.97, 0), 81_170.55, 10_000)).toBe(0);
    expect(usageStep(reading(100, 0), 50.01, 10_000)).toBe(0);
  });
  it('a negative reading after a drop counts nothing', () => {
    expect(usageStep(reading(10, 0), -1, 10_000)).toBe(0);
  });
  it('a step longer than an hour is a gap and counts nothing, rise or reset', () => {
    expect(usageStep(reading(100, 0), 180, H + 1)).toBe(0);
    expect(usageStep(reading(100, 0), 5, H + 1)).toBe(0);
    expect(usageStep(reading(100, 0), 180, H)).toBe(80);
  });
  it('a slow reporter: the gap is ten times the interval before the step (an hourly node may miss nine uplinks)', () => {
    expect(gapLimit(H)).toBe(10 * H);
    expect(usageStep(reading(100, 0, H), 130, 9 * H)).toBe(30);
    expect(usageStep(reading(100, 0, H), 130, 10 * H + 1)).toBe(0);
    // an unknown interval: the absolute bound alone
    expect(gapLimit(null)).toBe(USAGE_GAP_MIN_MS);
  });
});

describe('readings in time order (REALTIME: the last N points)', () => {
  it('chains rises, a reset and a re-basing: 100 → 110 → 125 ↺ 3 → 10 ↘ 8 → 12 = 10 + 15 + 3 + 7 + 0 + 4', () => {
    const t = (i: number) => i * 10_000;
    expect(
      usageOfReadings([
        [t(0), 100],
        [t(1), 110],
        [t(2), 125],
        [t(3), 3],
        [t(4), 10],
        [t(5), 8],
        [t(6), 12],
      ]),
    ).toBe(39);
  });
  it('a silence of a day between two readings adds nothing; the readings after it count again', () => {
    expect(
      usageOfReadings([
        [0, 100],
        [10_000, 101],
        [10_000 + 24 * H, 700],
        [20_000 + 24 * H, 702],
      ]),
    ).toBe(3);
  });
});

/** rollup-like pieces: one per hour, readings every `every` ms rising by `perReading` */
function hourPiece(hour: number, first: number, readings: number, perReading: number, every = 10_000): Piece {
  const from = hour * H;
  const last = first + (readings - 1) * perReading;
  return {
    from,
    to: from + H,
    count: readings,
    sum: 0,
    min: first,
    max: last,
    first,
    firstTs: from,
    last,
    lastTs: from + (readings - 1) * every,
  };
}
const raw = (ts: number, v: number): Piece => ({
  from: ts,
  to: ts + 1,
  count: 1,
  sum: v,
  min: v,
  max: v,
  first: v,
  firstTs: ts,
  last: v,
  lastTs: ts,
});

describe('USAGE per bucket over rollup pieces', () => {
  const bounds = [0, H, 2 * H, 3 * H, 4 * H, 5 * H];
  const noExpand = { expand: (): Piece[] => [] };

  it('a bucket that only rose is taken whole; the step between two buckets lies in hour 0 (its time: 59:50 → 60:00)', () => {
    const pieces = [hourPiece(0, 100, 360, 0.1), hourPiece(1, 136, 360, 0.1)];
    const out = bucketAggregates('USAGE', pieces, bounds.slice(0, 3), { baseline: null, ...noExpand });
    expect(out[0]).toBeCloseTo(35.9 + 0.1);
    expect(out[1]).toBeCloseTo(35.9);
  });
  it('a step across an hour is shared by the time on each side: 10 over 50:00 → 70:00 is 5 and 5', () => {
    const out = bucketAggregates('USAGE', [raw(50 * MIN, 100), raw(70 * MIN, 110)], bounds.slice(0, 3), {
      baseline: null,
      ...noExpand,
    });
    expect(out).toEqual([5, 5]);
  });
  it("an hourly reporter off the hour: every whole hour is one hour of usage, never two readings' worth", () => {
    // a panel at a steady 50 kW reporting at :40 of every hour from a baseline at -00:20; hour 3 holds what its
    // readings tell so far (03:00 → 03:40), hour 4 nothing yet
    const pieces = [0, 1, 2, 3].map((h) => raw(h * H + 40 * MIN, 1000 + 50 * (h + 1)));
    const out = bucketAggregates('USAGE', pieces, bounds, { baseline: reading(1000, -20 * MIN, H), ...noExpand });
    expect(out.map((v) => (v === null ? v : Math.round(v * 1e9) / 1e9))).toEqual([50, 50, 50, 33.333333333, null]);
  });
  it('a step that crosses a bucket with no reading gives it its share (readings every 2 hours, 20 a step)', () => {
    const pieces = [raw(0, 100), raw(2 * H, 120), raw(4 * H, 140)];
    const out = bucketAggregates('USAGE', pieces, bounds, { baseline: reading(80, -2 * H, 2 * H), ...noExpand });
    expect(out).toEqual([10, 10, 10, 10, 0]);
  });
  it('a gap across buckets (hours 2 and 3 silent) puts nothing in the hour the device came back', () => {
    const pieces = [hourPiece(0, 100, 360, 0.1), hourPiece(4, 900, 360, 0.1)];
    const out = bucketAggregates('USAGE', pieces, bounds, { baseline: null, ...noExpand });
    expect(out[0]).toBeCloseTo(35.9);
    expect(out.slice(1, 4)).toEqual([null, null, null]);
    expect(out[4]).toBeCloseTo(35.9);
  });
  it('a re-based counter (the readings start again from an older value) adds no bar of its whole reading', () => {
    const pieces = [hourPiece(0, 85_000, 360, 0.1), hourPiece(1, 81_170, 360, 0.1)];
    const out = bucketAggregates('USAGE', pieces, bounds.slice(0, 3), { baseline: null, ...noExpand });
    expect(out[1]).toBeCloseTo(35.9);
  });
  it('a bucket with a reset inside is read point by point (125 → 130 ↺ 3 → 10: 5 + 3 + 7)', () => {
    const inside = [raw(H, 125), raw(H + 10 * MIN, 130), raw(H + 20 * MIN, 3), raw(H + 30 * MIN, 10)];
    const bucket: Piece = { ...inside[0]!, to: 2 * H, count: 4, min: 3, max: 130, last: 10, lastTs: H + 30 * MIN };
    const out = bucketAggregates('USAGE', [raw(50 * MIN, 120), bucket], bounds.slice(0, 3), {
      baseline: null,
      expand: () => inside,
    });
    // 50:00 → 60:00 (5) lies in hour 0; hour 1 holds 125 → 130 (5), the reset (3) and 3 → 10 (7)
    expect(out).toEqual([5, 5 + 3 + 7]);
  });
  it("the baseline before the window chains into the first bucket for the step's time inside, unless beyond a gap", () => {
    const pieces = [{ ...hourPiece(0, 100, 360, 0.1), firstTs: 10_000 }];
    const near = bucketAggregates('USAGE', pieces, bounds.slice(0, 2), {
      baseline: reading(99, -10_000),
      ...noExpand,
    });
    // 99 → 100 over -10 s → +10 s: half of it is the window's
    expect(near[0]).toBeCloseTo(35.9 + 0.5);
    const far = bucketAggregates('USAGE', pieces, bounds.slice(0, 2), {
      baseline: reading(10, -20 * H),
      ...noExpand,
    });
    expect(far[0]).toBeCloseTo(35.9);
  });
  it('the interval of a rollup piece is its mean interval: an hourly reporter is not cut at every bucket', () => {
    // one reading per hour: each piece holds one reading, the interval comes from the step before
    const fold = new CounterFold(reading(0, -H, H));
    const usage = [0, 1, 2, 3].map((h) => fold.add(raw(h * H + 5 * MIN, (h + 1) * 10)));
    expect(usage).toEqual([10, 10, 10, 10]);
  });
});
