import { describe, expect, it } from 'vitest';
import { sortedBySeries, type TelemetryMessage } from './writer.js';

const msg = (points: [number, number][]): TelemetryMessage => ({
  appId: 1, deviceId: 1, qos: 0, receivedAt: 0, states: [], points: points.map(([seriesId, ts]) => ({ seriesId, ts, num: ts, text: null })),
});

describe('sortedBySeries', () => {
  it('orders a batch by series then time, whatever the arrival order', () => {
    const out = sortedBySeries([msg([[30, 5], [2, 9], [10, 1]]), msg([[2, 3], [30, 1], [10, 2]]), msg([[2, 10]])]);
    expect(out.map((p) => [p.seriesId, p.ts])).toEqual([[2, 3], [2, 9], [2, 10], [10, 1], [10, 2], [30, 1], [30, 5]]);
  });
  it('keeps every point and handles an empty batch', () => {
    expect(sortedBySeries([])).toEqual([]);
    const many = Array.from({ length: 1000 }, (_, i) => msg([[i % 37, 1000 - i]]));
    const out = sortedBySeries(many);
    expect(out).toHaveLength(1000);
    for (let i = 1; i < out.length; i++) {
      const a = out[i - 1]!;
      const b = out[i]!;
      expect(a.seriesId < b.seriesId || (a.seriesId === b.seriesId && a.ts <= b.ts)).toBe(true);
    }
  });
});
