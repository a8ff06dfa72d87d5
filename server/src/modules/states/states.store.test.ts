// The state store's reads (spec 03 section 2.6): the list's key order (the one the web's live merge keeps) and a
// state's history by time, newest first like "Nilai Terakhir", read page by page when a range holds more than a page.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { compareStateKeys } from '@sentra/contracts';
import { findUp } from '../../platform/db/sqlite.js';
import { createStatesStore, type StateChange } from './states.store.js';

function store(opts: Parameters<typeof createStatesStore>[1] = {}) {
  const sqlite = new Database(':memory:');
  migrate(drizzle(sqlite), { migrationsFolder: findUp('drizzle', import.meta.url) });
  return createStatesStore(sqlite, opts);
}

describe('states store', () => {
  it('lists the states in the shared key order (upper case before lower case, as the live updates keep it)', () => {
    const s = store();
    s.apply(
      1,
      7,
      ['mode', 'Mode', '_x', 'b', 'Zone', 'a10', 'a2'].map((key, i) => ({ key, value: '1', ts: i + 1 })),
    );
    const keys = s.list(1, 7).map((r) => r.key);
    expect(keys).toEqual(['Mode', 'Zone', '_x', 'a10', 'a2', 'b', 'mode']);
    expect(keys).toEqual([...keys].sort(compareStateKeys));
  });

  it("refuses a device's new keys past its bound, keeps updating the keys it has, and makes room when one is removed", () => {
    const s = store({ maxKeysPerDevice: 3 });
    const refused: StateChange[] = [];
    const applied = s.apply(
      1,
      7,
      ['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, value: '1', ts: 10 })),
      refused,
    );
    expect(applied.map((c) => c.key)).toEqual(['a', 'b', 'c']);
    expect(refused.map((c) => c.key)).toEqual(['d', 'e']);
    // the keys it holds still change; another device has its own bound
    expect(
      s
        .apply(
          1,
          7,
          [
            { key: 'a', value: '2', ts: 20 },
            { key: 'f', value: '1', ts: 20 },
          ],
          refused,
        )
        .map((c) => c.key),
    ).toEqual(['a']);
    expect(s.apply(1, 8, [{ key: 'f', value: '1', ts: 20 }]).map((c) => c.key)).toEqual(['f']);
    expect(s.list(1, 7).map((r) => [r.key, r.value])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 1],
    ]);
    expect(s.remove(1, 7, 'b')).toBe(true);
    expect(
      s
        .apply(
          1,
          7,
          [
            { key: 'g', value: '1', ts: 30 },
            { key: 'h', value: '1', ts: 30 },
          ],
          refused,
        )
        .map((c) => c.key),
    ).toEqual(['g']);
    expect(refused.map((c) => c.key)).toEqual(['d', 'e', 'f', 'h']);
  });

  it('answers a time range newest first, with the period already going at its start as the oldest', () => {
    const s = store();
    s.apply(1, 7, [
      { key: 'mode', value: '"auto"', ts: 100 },
      { key: 'mode', value: '"auto"', ts: 150 },
      { key: 'mode', value: '"manual"', ts: 200 },
      { key: 'mode', value: '"off"', ts: 300 },
    ]);
    const r = s.periodic(1, 7, 'mode', 120, 250);
    expect(r.rows.map((x) => [x.value, x.initial_ts])).toEqual([
      ['manual', 200],
      ['auto', 100],
    ]);
    expect(r.truncated).toBe(false);
  });

  it('keeps the newest of a range longer than a page, says so, and the next page (end before the oldest) reads on to the start', () => {
    const s = store();
    s.apply(
      1,
      7,
      Array.from({ length: 12 }, (_, i) => ({ key: 'n', value: String(i), ts: 1000 + i * 10 })),
    );
    const first = s.periodic(1, 7, 'n', 0, 5000, 5);
    expect(first.truncated).toBe(true);
    expect(first.rows.map((x) => x.value)).toEqual([11, 10, 9, 8, 7]);
    const all = [...first.rows];
    let page = first;
    while (page.truncated) {
      page = s.periodic(1, 7, 'n', 0, all.at(-1)!.initial_ts - 1, 5);
      all.push(...page.rows);
    }
    expect(all.map((x) => x.value)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });
});
