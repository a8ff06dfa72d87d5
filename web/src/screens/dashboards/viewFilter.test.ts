// "Filters default to the first filter of type period. If there is none, a start/end range is used. A filter flagged
// as default wins."
import { describe, expect, it } from 'vitest';
import { DEFAULT_RANGE_MS, defaultViewFilter, filterVariables } from './viewFilter.js';

const realtime = { _varType: 'filter', id: 'rt', name: 'Realtime', type: 'REALTIME', ndata: 10 };
const today = { _varType: 'filter', id: 'hari', name: 'Hari ini', type: 'PERIODIC', range: 'TODAY' };
const week = { _varType: 'filter', id: 'minggu', name: 'Minggu ini', type: 'PERIODIC', range: 'THIS_WEEK' };

describe('the dashboard view filter', () => {
  it('starts with the first periodic filter', () => {
    expect(defaultViewFilter({ rt: realtime, hari: today, minggu: week }, 0)).toEqual({
      kind: 'filter',
      key: 'hari',
      name: 'Hari ini',
    });
  });
  it('lets a filter flagged default win', () => {
    expect(defaultViewFilter({ hari: today, rt: { ...realtime, is_default: true } }, 0)).toMatchObject({
      kind: 'filter',
      key: 'rt',
    });
  });
  it('uses a start/end range (the last 24 hours) without a periodic or default filter', () => {
    expect(defaultViewFilter({ rt: realtime, x: 'teks' }, 1_000_000_000)).toEqual({
      kind: 'range',
      start: 1_000_000_000 - DEFAULT_RANGE_MS,
      end: 1_000_000_000,
    });
    expect(defaultViewFilter(undefined, 5).kind).toBe('range');
  });
  it('skips malformed filter variables', () => {
    expect(
      filterVariables({
        a: { _varType: 'filter', id: 'b', name: 'x', type: 'CUSTOM' },
        c: { _varType: 'filter', type: 'PERIODIC' },
      }),
    ).toEqual([]);
  });
});
