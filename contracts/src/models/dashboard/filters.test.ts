import { describe, expect, it } from 'vitest';
import { T } from '../../text/id.js';
import { CardFilter, FilterVariable, cardFilterList, fixedCardFilter, initialViewFilter } from './filters.js';
import { rejection } from './testing.js';

const v = T.dashboards.variables;
const filter = (fields: Record<string, unknown>) => ({ _varType: 'filter', id: 'f', name: 'Filter', ...fields });

describe('filter variables', () => {
  it(`rejects an empty label: "${v.labelRequired}"`, () => {
    expect(rejection(FilterVariable, filter({ name: ' ', type: 'REALTIME', ndata: 5 }))).toEqual([
      { path: 'name', message: v.labelRequired },
    ]);
  });
  it.each([0, 121, 2.5, undefined])(`rejects REALTIME N Data %s: "${v.ndata}"`, (ndata) => {
    expect(rejection(FilterVariable, filter({ type: 'REALTIME', ndata }))).toEqual([
      { path: 'ndata', message: v.ndata },
    ]);
  });
  it.each([1, 120])('accepts REALTIME N Data %i', (ndata) => {
    expect(FilterVariable.safeParse(filter({ type: 'REALTIME', ndata })).success).toBe(true);
  });
  it('rejects a periodic range the catalogue does not list', () => {
    expect(rejection(FilterVariable, filter({ type: 'PERIODIC', range: 'LAST_DECADE' }))).toEqual([
      { path: 'range', message: v.optionNotOffered },
    ]);
  });
  it('needs one of the range parameters of LAST_MINUTE (15, 30) and LAST_HOUR (1, 3, 6, 12)', () => {
    expect(rejection(FilterVariable, filter({ type: 'PERIODIC', range: 'LAST_HOUR', range_param: 2 }))[0].path).toBe(
      'range_param',
    );
    expect(rejection(FilterVariable, filter({ type: 'PERIODIC', range: 'LAST_MINUTE' }))[0].path).toBe('range_param');
    expect(FilterVariable.safeParse(filter({ type: 'PERIODIC', range: 'LAST_MINUTE', range_param: 30 })).success).toBe(
      true,
    );
  });
  it('allows minutes 1, 5, 10, 15 in the last hour, and 20, 30 only in the last 3, 6 or 12 hours', () => {
    const lastHours = (range_param: number) =>
      filter({ type: 'PERIODIC', range: 'LAST_HOUR', range_param, period: 'minute', interval: 20 });
    expect(rejection(FilterVariable, lastHours(1))).toEqual([{ path: 'interval', message: v.optionNotOffered }]);
    expect(FilterVariable.safeParse(lastHours(6)).success).toBe(true);
  });
  it.each([
    ['THIS_YEAR', 'month', 2, true],
    ['THIS_YEAR', 'week', 2, false],
    ['LAST_MONTH', 'day', 1, true],
    ['LAST_MONTH', 'hour', 1, false],
    ['THIS_WEEK', 'hour', 12, true],
    ['LAST_DAY', 'minute', 60, true],
    ['TODAY', 'hour', 12, false],
    ['LAST_MINUTE', 'second', 20, true],
  ] as const)('periodic %s with %s %i is allowed: %s', (range, period, interval, allowed) => {
    const range_param = range === 'LAST_MINUTE' ? 15 : undefined;
    expect(FilterVariable.safeParse(filter({ type: 'PERIODIC', range, range_param, period, interval })).success).toBe(
      allowed,
    );
  });
  it('removes a period of auto from the stored filter', () => {
    expect(FilterVariable.parse(filter({ type: 'CUSTOM', period: 'auto' }))).toEqual(filter({ type: 'CUSTOM' }));
  });
  it('allows custom intervals month 1-2, hour 1-12, minute 5-30', () => {
    expect(FilterVariable.safeParse(filter({ type: 'CUSTOM', period: 'minute', interval: 5 })).success).toBe(true);
    expect(rejection(FilterVariable, filter({ type: 'CUSTOM', period: 'minute', interval: 1 }))[0].path).toBe(
      'interval',
    );
    expect(rejection(FilterVariable, filter({ type: 'CUSTOM', period: 'second', interval: 10 }))[0].path).toBe(
      'period',
    );
  });
});

describe('card filters', () => {
  it('checks a card filter by the type its fields imply', () => {
    expect(rejection(CardFilter, { name: 'Live', ndata: 500 })).toEqual([{ path: 'ndata', message: v.ndata }]);
    expect(CardFilter.safeParse({ name: 'Minggu ini', range: 'THIS_WEEK', period: 'day', interval: 1 }).success).toBe(
      true,
    );
  });
  it("lists 'default' first, then the others by id", () => {
    expect(cardFilterList({ live: { ndata: 5 }, default: { range: 'TODAY' } }).map((f) => f.key)).toEqual([
      'default',
      'live',
    ]);
  });
  it("adds a 'custom' filter when the card has none", () => {
    expect(cardFilterList(undefined)).toEqual([{ key: 'custom', filter: {} }]);
  });
  it('fixes a card to its first filter only when that one is flagged `fixed` and has a window', () => {
    expect(fixedCardFilter({ default: { range: 'TODAY', fixed: true } })).toEqual({ range: 'TODAY', fixed: true });
    expect(fixedCardFilter({ default: { range: 'TODAY' } })).toBeUndefined();
    expect(fixedCardFilter({ default: { name: 'Kosong', fixed: true } })).toBeUndefined();
    expect(fixedCardFilter({ default: { range: 'TODAY' }, live: { ndata: 5, fixed: true } })).toBeUndefined();
    expect(rejection(CardFilter, { range: 'TODAY', fixed: 'ya' })).toHaveLength(1);
  });
});

describe('the dashboard view filter', () => {
  const live = { _varType: 'filter', id: 'live', name: 'Live', type: 'REALTIME', ndata: 5 } as const;
  const today = { _varType: 'filter', id: 'today', name: 'Hari ini', type: 'PERIODIC', range: 'TODAY' } as const;
  it('defaults to the first periodic filter', () => {
    expect(initialViewFilter([live, today])?.id).toBe('today');
  });
  it('lets a filter flagged default win', () => {
    expect(initialViewFilter([today, { ...live, is_default: true }])?.id).toBe('live');
  });
  it('uses a start/end range when there is no periodic filter', () => {
    expect(initialViewFilter([live])).toBeUndefined();
  });
});
