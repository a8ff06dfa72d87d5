import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { describe, expect, it } from 'vitest';
import { findUp } from '../../../platform/db/sqlite.js';
import { createPointReads, EARLIEST, LATEST } from './point-reads.js';
import { createRecentPoints, mergeByTs } from './recent.js';

const p = (seriesId: number, ts: number, num: number | null = ts, text: string | null = null) => ({
  seriesId,
  ts,
  num,
  text,
});

describe('recent points', () => {
  it('reuses the generation compacted last for the round after next, its room kept (nothing allocated per series)', () => {
    const r = createRecentPoints();
    for (let ts = 1; ts <= 3000; ts++) r.add(p(1 + (ts % 7), ts));
    const first = r.active;
    const room = first.capacity;
    expect(room).toBeGreaterThanOrEqual(3000);
    expect(r.freeze()).toBe(first);
    const second = r.active;
    expect(second).not.toBe(first);
    for (const id of first.seriesIds()) first.release(id);
    r.compacted();
    r.add(p(1, 5000));
    expect(r.freeze()).toBe(second);
    expect([r.active, first.round, first.points, first.capacity, first.seriesIds().length]).toEqual([
      first,
      3,
      0,
      room,
      0,
    ]);
    expect(r.inRange(1, EARLIEST, LATEST).map((x) => x[0])).toEqual([5000]);
    r.add(p(1, 5001));
    r.add(p(2, 4000));
    expect(r.inRange(1, 4999, LATEST).map((x) => x[0])).toEqual([5000, 5001]);
    expect(Array.from(first.seriesIds())).toEqual([1, 2]);
    expect([r.has(1, 5001), r.has(1, 3000), r.has(2, 4000), r.size]).toEqual([true, false, true, 3]);
  });

  it('keeps each series in time order whatever the arrival order, across a frozen and an active generation', () => {
    const r = createRecentPoints();
    for (const ts of [10, 30, 20]) r.add(p(1, ts));
    r.add(p(2, 5));
    expect(r.freeze().round).toBe(1);
    for (const ts of [25, 40]) r.add(p(1, ts));
    expect(r.active.round).toBe(2);
    expect(r.inRange(1, EARLIEST, LATEST).map((x) => x[0])).toEqual([10, 20, 25, 30, 40]);
    expect(r.inRange(1, 20, 30).map((x) => x[0])).toEqual([20, 25, 30]);
    expect(r.inRange(1, 31, 39)).toEqual([]);
    expect([r.has(1, 20), r.has(1, 25), r.has(1, 21), r.has(2, 5), r.has(3, 5)]).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    expect(r.size).toBe(6);
    r.frozen!.release(1);
    expect(r.inRange(1, EARLIEST, LATEST).map((x) => x[0])).toEqual([25, 40]);
    expect(() => r.freeze()).toThrow();
    r.compacted();
    expect(r.size).toBe(2);
  });

  it('hands a chunk of series over as batch columns, texts and nulls kept in place', () => {
    const r = createRecentPoints();
    r.add(p(4, 20, null, 'b'));
    r.add(p(4, 10, 1.5));
    r.add(p(4, 15, null));
    r.add(p(9, 1, 7));
    expect(r.inRange(4, EARLIEST, LATEST)).toEqual([
      [10, 1.5, null],
      [15, null, null],
      [20, null, 'b'],
    ]);
    const c = r.active.columns(Float64Array.from([4, 5, 9]));
    expect([Array.from(c.series), Array.from(c.ts), Array.from(c.hasNum), Array.from(c.textAt), c.texts]).toEqual([
      [4, 4, 4, 9],
      [10, 15, 20, 1],
      [1, 0, 0, 1],
      [2],
      ['b'],
    ]);
    expect([c.num[0], c.num[3]]).toEqual([1.5, 7]);
  });

  it('merges two time-ordered lists keeping a shared timestamp once', () => {
    const rows = (...ts: number[]) => ts.map((t): [number, number, null] => [t, t, null]);
    expect(mergeByTs(rows(1, 3, 5), rows(2, 3, 6)).map((x) => x[0])).toEqual([1, 2, 3, 5, 6]);
    expect(mergeByTs(rows(6, 3, 1), rows(5, 3, 2), -1).map((x) => x[0])).toEqual([6, 5, 3, 2, 1]);
    expect(mergeByTs(rows(1, 3, 5), rows(2, 3, 6), 1, 3).map((x) => x[0])).toEqual([1, 2, 3]);
  });
});

describe('point reads', () => {
  it('merge the table and the points held, limits and bounds included, a point in both once', () => {
    const sqlite = new Database(':memory:');
    migrate(drizzle(sqlite), { migrationsFolder: findUp('drizzle', import.meta.url) });
    const insert = sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num, text) VALUES (?, ?, ?, ?)');
    for (const ts of [1, 2, 4, 6]) insert.run(7, ts, ts, null);
    const recent = createRecentPoints();
    // 6 is in both: compacted, and its release not yet heard
    for (const ts of [3, 6, 8]) recent.add(p(7, ts));
    recent.add(p(7, 9, null, 'x'));
    const reads = createPointReads(sqlite, recent);
    expect(reads.oldest(7, EARLIEST, LATEST, 100).map((r) => r[0])).toEqual([1, 2, 3, 4, 6, 8, 9]);
    expect(reads.oldest(7, 2, 6, 3).map((r) => r[0])).toEqual([2, 3, 4]);
    expect(reads.newest(7, EARLIEST, LATEST, 4).map((r) => r[0])).toEqual([9, 8, 6, 4]);
    expect(reads.newest(7, EARLIEST, 5, 2).map((r) => r[0])).toEqual([4, 3]);
    expect(reads.last(7)).toEqual([9, null, 'x']);
    expect(reads.last(8)).toBeNull();
    expect(reads.oldest(7, 5, 4, 10)).toEqual([]);
  });
});
