// The quick time ranges: written as Grafana writes them (what the address carries), relative ones ending now,
// calendar ones starting at the browser's midnight, Monday or first of the month.
import { describe, expect, it } from 'vitest';
import {
  QUICK_RANGE_IDS,
  isQuickRangeId,
  quickRange,
  quickRangeLabel,
  quickRangeOf,
  quickRangeText,
} from './quickRanges.js';

// Thursday 14 March 2024, 10:30 local time
const now = new Date(2024, 2, 14, 10, 30, 0).getTime();
const local = (...p: [number, number, number, number?, number?, number?, number?]) =>
  new Date(...(p as [number, number, number])).getTime();

describe('quick time ranges', () => {
  it('offers the ranges Grafana users know, in Indonesian', () => {
    expect(QUICK_RANGE_IDS.map(quickRangeLabel)).toEqual([
      '5 menit terakhir',
      '15 menit terakhir',
      '30 menit terakhir',
      '1 jam terakhir',
      '3 jam terakhir',
      '6 jam terakhir',
      '12 jam terakhir',
      '24 jam terakhir',
      '2 hari terakhir',
      '7 hari terakhir',
      '30 hari terakhir',
      'Hari ini',
      'Kemarin',
      'Minggu ini',
      'Bulan ini',
    ]);
  });

  it('ends a relative range now', () => {
    expect(quickRange('last1h', now)).toEqual({ start: now - 3_600_000, end: now });
    expect(quickRange('last7d', now)).toEqual({ start: now - 7 * 86_400_000, end: now });
  });

  it('starts "Hari ini" at midnight, "Minggu ini" on Monday and "Bulan ini" on the first', () => {
    expect(quickRange('today', now)).toEqual({ start: local(2024, 2, 14), end: now });
    expect(quickRange('thisWeek', now)).toEqual({ start: local(2024, 2, 11), end: now });
    expect(quickRange('thisMonth', now)).toEqual({ start: local(2024, 2, 1), end: now });
    // a Sunday belongs to the week that began six days before
    expect(quickRange('thisWeek', local(2024, 2, 17, 8)).start).toBe(local(2024, 2, 11));
  });

  it('covers the whole of yesterday', () => {
    expect(quickRange('yesterday', now)).toEqual({ start: local(2024, 2, 13), end: local(2024, 2, 14) - 1 });
  });

  it('is written as Grafana writes it, and a written range is recognised as its quick range', () => {
    expect(quickRangeText('last7d')).toEqual({ from: 'now-7d', to: 'now' });
    expect(quickRangeText('today')).toEqual({ from: 'now/d', to: 'now' });
    for (const id of QUICK_RANGE_IDS) expect(quickRangeOf(quickRangeText(id))).toBe(id);
    expect(quickRangeOf({ from: 'now-3d', to: 'now' })).toBeUndefined();
  });

  it('knows its own ids only', () => {
    expect(isQuickRangeId('last1h')).toBe(true);
    expect(isQuickRangeId('toString')).toBe(false);
    expect(isQuickRangeId(undefined)).toBe(false);
  });
});
