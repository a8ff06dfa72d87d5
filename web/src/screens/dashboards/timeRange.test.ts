// A dashboard's range as Grafana writes it: `now` with steps and a rounding, or an instant; from before to, at most
// 400 days; what the gateway is asked for it; Grafana's zoom out.
import { describe, expect, it } from 'vitest';
import {
  addressText,
  fieldText,
  instantText,
  parseTimeExpr,
  rangeQuery,
  resolveRange,
  zoomedOut,
} from './timeRange.js';

// Thursday 14 March 2024, 10:30:15 local time
const now = new Date(2024, 2, 14, 10, 30, 15).getTime();
const local = (y: number, m: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  new Date(y, m - 1, d, h, mi, s, ms).getTime();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('an end of a range', () => {
  it('reads now with steps: now-7d, now-5m, now+1h, now-1d-12h', () => {
    expect(parseTimeExpr('now', now)).toBe(now);
    expect(parseTimeExpr('now-5m', now)).toBe(now - 5 * 60_000);
    expect(parseTimeExpr('now-7d', now)).toBe(local(2024, 3, 7, 10, 30, 15));
    expect(parseTimeExpr('now+1h', now)).toBe(now + HOUR);
    expect(parseTimeExpr(' now-1d-12h ', now)).toBe(local(2024, 3, 12, 22, 30, 15));
    expect(parseTimeExpr('now-1M', now)).toBe(local(2024, 2, 14, 10, 30, 15));
    expect(parseTimeExpr('now-1y', now)).toBe(local(2023, 3, 14, 10, 30, 15));
  });

  it('rounds down for from and up for to: now/d, now-1d/d, now/w (Monday), now/M', () => {
    expect(parseTimeExpr('now/d', now)).toBe(local(2024, 3, 14));
    expect(parseTimeExpr('now/d', now, true)).toBe(local(2024, 3, 15) - 1);
    expect(parseTimeExpr('now-1d/d', now)).toBe(local(2024, 3, 13));
    expect(parseTimeExpr('now-1d/d', now, true)).toBe(local(2024, 3, 14) - 1);
    expect(parseTimeExpr('now/w', now)).toBe(local(2024, 3, 11));
    expect(parseTimeExpr('now/w', local(2024, 3, 17, 8))).toBe(local(2024, 3, 11));
    expect(parseTimeExpr('now/M', now)).toBe(local(2024, 3, 1));
    expect(parseTimeExpr('now/y', now)).toBe(local(2024, 1, 1));
    expect(parseTimeExpr('now/h', now)).toBe(local(2024, 3, 14, 10));
  });

  it('reads instants: epoch ms, a local date with or without time, an ISO date with its zone', () => {
    expect(parseTimeExpr('1710387015000', now)).toBe(1710387015000);
    expect(parseTimeExpr('2024-03-10', now)).toBe(local(2024, 3, 10));
    expect(parseTimeExpr('2024-03-10 08:15', now)).toBe(local(2024, 3, 10, 8, 15));
    expect(parseTimeExpr('2024-03-10T08:15:30.5', now)).toBe(local(2024, 3, 10, 8, 15, 30, 500));
    expect(parseTimeExpr('2024-03-10T01:00:00Z', now)).toBe(Date.UTC(2024, 2, 10, 1));
  });

  it('refuses what it cannot read, dates that do not exist and instants out of range', () => {
    for (const bad of [
      '',
      'kemarin',
      'now-',
      'now-7',
      'now-7x',
      'now/q',
      '2024-02-31',
      '2024-13-01',
      '12',
      '99999999999999',
    ])
      expect(parseTimeExpr(bad, now), bad).toBeUndefined();
  });
});

describe('a range', () => {
  it('resolves both ends at now', () => {
    expect(resolveRange({ from: 'now-7d', to: 'now' }, now)).toEqual({ start: now - 7 * DAY, end: now });
    expect(resolveRange({ from: 'now-1d/d', to: 'now-1d/d' }, now)).toEqual({
      start: local(2024, 3, 13),
      end: local(2024, 3, 14) - 1,
    });
  });

  it('says what is wrong: an end not read, from not before to, longer than 400 days', () => {
    expect(resolveRange({ from: 'x', to: 'now' }, now)).toEqual({ problem: 'from' });
    expect(resolveRange({ from: 'now-1h', to: 'nanti' }, now)).toEqual({ problem: 'to' });
    expect(resolveRange({ from: 'now', to: 'now-1h' }, now)).toEqual({ problem: 'order' });
    expect(resolveRange({ from: 'now', to: 'now' }, now)).toEqual({ problem: 'order' });
    expect(resolveRange({ from: 'now-401d', to: 'now' }, now)).toEqual({ problem: 'tooLong' });
    expect(resolveRange({ from: 'now-400d', to: 'now' }, now)).not.toHaveProperty('problem');
  });

  it('asks the gateway for a span ending now, a start up to now, or two instants', () => {
    expect(rangeQuery({ from: 'now-7d', to: 'now' }, { start: now - 7 * DAY, end: now })).toEqual({ span: 7 * DAY });
    expect(rangeQuery({ from: 'now/d', to: 'now' }, { start: 5, end: now })).toEqual({ start: 5 });
    expect(rangeQuery({ from: '1000', to: '2000' }, { start: 1000, end: 2000 })).toEqual({ start: 1000, end: 2000 });
    expect(rangeQuery({ from: 'now-1d/d', to: 'now-1d/d' }, { start: 1, end: 2 })).toEqual({ start: 1, end: 2 });
  });
});

describe('zoom out', () => {
  it('doubles the range around its middle', () => {
    expect(zoomedOut(1000 * HOUR, 1002 * HOUR, now)).toEqual({ start: 999 * HOUR, end: 1003 * HOUR });
  });
  it('does not reach past now when the range ended before', () => {
    expect(zoomedOut(now - 2 * HOUR, now, now)).toEqual({ start: now - 4 * HOUR, end: now });
  });
  it('stays within 400 days', () => {
    const z = zoomedOut(now - 300 * DAY, now, now);
    expect(z.end - z.start).toBe(400 * DAY);
  });
});

describe('the fields and the address', () => {
  it('show an instant as a local date the parser reads back, relative text as written', () => {
    const t = local(2024, 3, 10, 8, 5, 9);
    expect(instantText(t)).toBe('2024-03-10 08:05:09');
    expect(parseTimeExpr(instantText(t), now)).toBe(t);
    expect(fieldText(String(t))).toBe('2024-03-10 08:05:09');
    expect(fieldText('now-7d')).toBe('now-7d');
  });
  it('carry instants as epoch ms, relative text as written', () => {
    expect(addressText('2024-03-10 08:05:09', now, false)).toBe(String(local(2024, 3, 10, 8, 5, 9)));
    expect(addressText('now-7d', now, false)).toBe('now-7d');
  });
});
