import { describe, expect, it } from 'vitest';
import type { SensorDataRow } from '@sentra/contracts';
import { historyTraces } from './historySeries.js';

const row = (timestamp: number, value: unknown): SensorDataRow => ({
  dt: 'number',
  value,
  quality: 'good',
  timestamp,
  sensor: 's',
  configtype: 'data',
  param: 'p',
});

describe('the Data dialog history chart', () => {
  it('draws a number series oldest first', () => {
    expect(historyTraces([row(3, 30), row(1, 10), row(2, 20)], 'suhu')).toEqual([
      { name: 'suhu', x: [1, 2, 3], y: [10, 20, 30], step: false },
    ]);
  });
  it('draws one line per numeric subparam of an object value, skipping text', () => {
    const t = historyTraces([row(1, { r: 220, s: 221, note: 'ok' }), row(2, { r: 219, s: 222 })], 'fasa');
    expect(t.map((x) => [x.name, x.y])).toEqual([
      ['r', [220, 219]],
      ['s', [221, 222]],
    ]);
  });
  it('draws a boolean as a 0/1 step line and text as nothing', () => {
    expect(historyTraces([row(1, true), row(2, false)], 'pompa')).toEqual([
      { name: 'pompa', x: [1, 2], y: [1, 0], step: true },
    ]);
    expect(historyTraces([row(1, 'ON'), row(2, null)], 'mode')).toEqual([]);
  });
  it("escapes a device's subparam names, and caps the number of lines", () => {
    expect(historyTraces([row(1, { '<b>x</b>': 1 })], 'p')[0]!.name).toBe('&lt;b&gt;x&lt;/b&gt;');
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
    expect(historyTraces([row(1, many)], 'p', 12)).toHaveLength(12);
  });
});
