// Windows and buckets: calendar ranges in the application's time zone, rolling ranges, custom ranges, 'auto'.
import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { FilterError, autoStep, resolveWindow } from './filters.js';

const TZ = 'Asia/Jakarta';
// Friday 15 March 2024, 10:31:20 in Jakarta
const NOW = Date.UTC(2024, 2, 15, 3, 31, 20);
const local = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) - 7 * 3_600_000;
const win = (f: Record<string, unknown>, bucketed = true) => {
  const w = resolveWindow(f, NOW, TZ, bucketed);
  if (w.type === 'REALTIME') throw new Error('realtime');
  return w;
};

describe('periodic ranges in the application time zone', () => {
  it.each([
    ['TODAY', local(2024, 3, 15), local(2024, 3, 16)],
    ['LAST_DAY', local(2024, 3, 14), local(2024, 3, 15)],
    ['THIS_WEEK', local(2024, 3, 11), local(2024, 3, 18)],
    ['LAST_WEEK', local(2024, 3, 4), local(2024, 3, 11)],
    ['THIS_MONTH', local(2024, 3, 1), local(2024, 4, 1)],
    ['LAST_MONTH', local(2024, 2, 1), local(2024, 3, 1)],
    ['THIS_YEAR', local(2024, 1, 1), local(2025, 1, 1)],
    ['LAST_YEAR', local(2023, 1, 1), local(2024, 1, 1)],
  ])('%s spans local calendar time (weeks from Monday)', (range, start, end) => {
    expect(win({ range })).toMatchObject({ type: 'PERIODIC', start, end });
  });
  it('LAST_MINUTE and LAST_HOUR end now and take their parameter', () => {
    expect(win({ range: 'LAST_MINUTE', range_param: 30 })).toMatchObject({
      start: NOW + 1 - 30 * 60_000,
      end: NOW + 1,
    });
    expect(win({ range: 'LAST_HOUR', range_param: 6 })).toMatchObject({ start: NOW + 1 - 6 * 3_600_000 });
  });
  it('cuts today into 3-hour buckets from local midnight', () => {
    const w = win({ range: 'TODAY', period: 'hour', interval: 3 });
    expect(w.boundaries).toEqual(Array.from({ length: 9 }, (_, i) => local(2024, 3, 15) + i * 3 * 3_600_000));
  });
  it('cuts this year into months and into 2-month buckets', () => {
    expect(win({ range: 'THIS_YEAR', period: 'month', interval: 1 }).boundaries).toHaveLength(13);
    expect(win({ range: 'THIS_YEAR', period: 'month', interval: 2 }).boundaries[1]).toBe(local(2024, 3, 1));
  });
  it('clips rolling buckets to the window (LAST_MINUTE 15 by 10 seconds)', () => {
    const w = win({ range: 'LAST_MINUTE', range_param: 15, period: 'second', interval: 10 });
    expect(w.boundaries[0]).toBe(NOW + 1 - 15 * 60_000);
    expect(w.boundaries[1]! % 10_000).toBe(0);
    expect(w.boundaries.at(-1)).toBe(NOW + 1);
  });
  it(`refuses an interval the range does not offer: "${T.dashboards.variables.optionNotOffered}"`, () => {
    expect(() => win({ range: 'LAST_HOUR', range_param: 1, period: 'minute', interval: 20 })).toThrow(FilterError);
  });
});

describe('custom and realtime filters', () => {
  it('takes start and an inclusive end', () => {
    expect(win({ start: 1000, end: 1999 }, false)).toMatchObject({ type: 'CUSTOM', start: 1000, end: 2000 });
  });
  it('takes a span ending now that moves with the clock (a dashboard\'s "7 hari terakhir")', () => {
    const week = 7 * 86_400_000;
    expect(win({ type: 'CUSTOM', span: week }, false)).toMatchObject({ start: NOW + 1 - week, end: NOW + 1 });
    const later = resolveWindow({ type: 'CUSTOM', span: week }, NOW + 60_000, TZ, false);
    expect(later).toMatchObject({ start: NOW + 60_001 - week, end: NOW + 60_001 });
    // a start wins over a span
    expect(win({ start: NOW - 1000, span: week }, false)).toMatchObject({ start: NOW - 1000, end: NOW + 1 });
  });
  it(`refuses a range whose start is not before its end: "${T.cards.rangeOrder}"`, () => {
    expect(() => win({ start: 2000, end: 1000 })).toThrow(T.cards.rangeOrder);
    expect(() => win({ start: 2000, end: 1999 })).toThrow(T.cards.rangeOrder);
    // the end is inclusive: one millisecond is a window
    expect(win({ start: 2000, end: 2000 }, false)).toMatchObject({ start: 2000, end: 2001 });
  });
  it(`refuses a range longer than 400 days instead of cutting it: "${T.cards.rangeTooLong(400)}"`, () => {
    const day = 86_400_000;
    expect(() => win({ start: NOW - 401 * day, end: NOW })).toThrow(T.cards.rangeTooLong(400));
    expect(() => win({ start: NOW - 399 * day, end: NOW })).not.toThrow();
  });
  it("converts the request layer's named months of 2020 to the whole local month", () => {
    expect(win({ period: 'april' }, false)).toMatchObject({ start: local(2020, 4, 1), end: local(2020, 5, 1) });
  });
  it("'auto' keeps a chart at 700 buckets or fewer", () => {
    for (const days of [0.01, 1, 7, 30, 365]) {
      const w = win({ start: NOW - days * 86_400_000, end: NOW });
      expect(w.boundaries.length - 1).toBeLessThanOrEqual(700);
    }
    expect(autoStep(86_400_000)).toEqual(['minute', 5]);
  });
  it('REALTIME takes N Data 1 to 120', () => {
    expect(resolveWindow({ ndata: 120 }, NOW, TZ, true)).toEqual({ type: 'REALTIME', ndata: 120, name: undefined });
    expect(() => resolveWindow({ ndata: 121 }, NOW, TZ, true)).toThrow(T.dashboards.variables.ndata);
  });
});
