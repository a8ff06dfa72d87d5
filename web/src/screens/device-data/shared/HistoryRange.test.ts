import { describe, expect, it } from 'vitest';
import { historyRequest } from './HistoryRange.js';

const calls = { latest: (n: number) => `latest ${n}`, time: (from: number, to: number) => `time ${from} ${to}` };

describe('historyRequest', () => {
  it('asks for the latest n on "Nilai Terakhir"', () => {
    expect(historyRequest({ tab: 'latest', n: 50, start: '', end: '' }, calls)).toBe('latest 50');
  });
  it('asks for the range on "Waktu" when both ends are valid, for nothing otherwise', () => {
    const start = '2024-05-01T08:00:00';
    const end = '2024-05-02T08:00:00';
    expect(historyRequest({ tab: 'time', n: 25, start, end }, calls)).toBe(`time ${new Date(start).getTime()} ${new Date(end).getTime()}`);
    expect(historyRequest({ tab: 'time', n: 25, start: '', end }, calls)).toBeNull();
  });
});
