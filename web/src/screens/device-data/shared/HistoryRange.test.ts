import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { historyRequest, rangeProblem } from './HistoryRange.js';

const calls = { latest: (n: number) => `latest ${n}`, time: (from: number, to: number) => `time ${from} ${to}` };

describe('historyRequest', () => {
  it('asks for the latest n on "Nilai Terakhir"', () => {
    expect(historyRequest({ tab: 'latest', n: 50, start: null, end: null }, calls)).toBe('latest 50');
  });
  it('asks for the range on "Waktu" when both ends are set, for nothing otherwise', () => {
    expect(historyRequest({ tab: 'time', n: 25, start: 1000, end: 2000 }, calls)).toBe('time 1000 2000');
    expect(historyRequest({ tab: 'time', n: 25, start: null, end: 2000 }, calls)).toBeNull();
  });
  it('asks for nothing when the end is before the start, and the end field says why (the rule of the calls)', () => {
    expect(historyRequest({ tab: 'time', n: 25, start: 2000, end: 1000 }, calls)).toBeNull();
    expect(rangeProblem(2000, 1000)).toBe(T.deviceData.rangeOrder);
    expect(rangeProblem(1000, 1000)).toBeNull();
    expect(rangeProblem(null, 1000)).toBeNull();
  });
});
