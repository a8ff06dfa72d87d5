// "Filters default to the first filter of type period. If there is none, a start/end range is used. A filter flagged
// as default wins." Beyond the spec: the address names the filter or the range (`?filter=`, `?from=&to=`).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANGE_MS,
  choiceOf,
  defaultViewFilter,
  filterQuery,
  filterVariables,
  searchOf,
  viewFilterOf,
} from './viewFilter.js';

const realtime = { _varType: 'filter', id: 'rt', name: 'Realtime', type: 'REALTIME', ndata: 10 };
const today = { _varType: 'filter', id: 'hari', name: 'Hari ini', type: 'PERIODIC', range: 'TODAY' };
const week = { _varType: 'filter', id: 'minggu', name: 'Minggu ini', type: 'PERIODIC', range: 'THIS_WEEK' };
const NOW = 1_700_000_000_000;

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
  it('uses a start/end range (the last 24 hours, moving with the clock) without a periodic or default filter', () => {
    const f = defaultViewFilter({ rt: realtime, x: 'teks' }, NOW);
    expect(f).toEqual({
      kind: 'range',
      from: 'now-24h',
      to: 'now',
      start: NOW - DEFAULT_RANGE_MS,
      end: NOW,
      quick: 'last24h',
    });
    expect(filterQuery(f)).toEqual({ type: 'CUSTOM', span: DEFAULT_RANGE_MS });
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

describe('the time choice in the address', () => {
  const vars = { hari: today, minggu: week };
  it('reads a filter by id, a range as written, or nothing (the default)', () => {
    expect(choiceOf(new URLSearchParams('filter=minggu'))).toEqual({ kind: 'filter', key: 'minggu' });
    expect(choiceOf(new URLSearchParams('from=now-7d&to=now'))).toEqual({
      kind: 'range',
      range: { from: 'now-7d', to: 'now' },
    });
    expect(choiceOf(new URLSearchParams('from=now-7d'))).toEqual({ kind: 'default' });
    expect(choiceOf(new URLSearchParams(''))).toEqual({ kind: 'default' });
  });
  it('writes what it reads back', () => {
    for (const c of [
      { kind: 'filter', key: 'minggu' },
      { kind: 'range', range: { from: 'now/d', to: 'now' } },
      { kind: 'range', range: { from: '1700000000000', to: '1700003600000' } },
      { kind: 'default' },
    ] as const)
      expect(choiceOf(searchOf(c))).toEqual(c);
    expect(searchOf({ kind: 'range', range: { from: 'now-7d', to: 'now' } }).toString()).toBe('from=now-7d&to=now');
  });
  it('resolves the choice: the named filter, the range at now (a quick one named), else the default', () => {
    expect(viewFilterOf({ kind: 'filter', key: 'minggu' }, vars, NOW)).toEqual({
      kind: 'filter',
      key: 'minggu',
      name: 'Minggu ini',
    });
    expect(viewFilterOf({ kind: 'range', range: { from: 'now-7d', to: 'now' } }, vars, NOW)).toMatchObject({
      kind: 'range',
      start: NOW - 7 * 86_400_000,
      end: NOW,
      quick: 'last7d',
    });
    // a filter the dashboard lacks, a range that cannot be read: the dashboard's default
    expect(viewFilterOf({ kind: 'filter', key: 'hilang' }, vars, NOW)).toMatchObject({ key: 'hari' });
    expect(viewFilterOf({ kind: 'range', range: { from: 'now', to: 'now-1h' } }, vars, NOW)).toMatchObject({
      key: 'hari',
    });
  });
  it('asks the gateway for the filter by id, a span ending now, or instants', () => {
    expect(filterQuery(viewFilterOf({ kind: 'filter', key: 'minggu' }, vars, NOW))).toEqual({ filter: 'minggu' });
    const absolute = { kind: 'range', range: { from: '1690000000000', to: '1690003600000' } } as const;
    expect(filterQuery(viewFilterOf(absolute, vars, NOW))).toEqual({
      type: 'CUSTOM',
      start: 1_690_000_000_000,
      end: 1_690_003_600_000,
    });
  });
});
