// "Daftar Kondisi" live updates: a report changes a row in place; rows never move, because the list keeps the
// server's key order (one comparator for both).
import { describe, expect, it } from 'vitest';
import { compareStateKeys, type StateRow } from '@sentra/contracts';
import { mergeStates } from './mergeStates.js';

const row = (key: string, value: unknown, ts: number): StateRow => ({
  key,
  value,
  is_null: value === null,
  initial_ts: ts,
  latest_ts: ts,
});

describe('mergeStates', () => {
  it('keeps the rows in the order the server listed them when a live report arrives', () => {
    // the server's order (states.store list): upper case before lower case, '_' between them
    const listed = ['Mode', 'Zone', '_x', 'a10', 'a2', 'b', 'mode'].map((k) => row(k, 1, 100));
    expect(listed.map((r) => r.key)).toEqual([...listed.map((r) => r.key)].sort(compareStateKeys));
    const merged = mergeStates(listed, [{ states: [{ key: 'b', value: 2, is_null: false, ts: 200 }] } as never]);
    expect(merged.map((r) => r.key)).toEqual(listed.map((r) => r.key));
    expect(merged.find((r) => r.key === 'b')).toMatchObject({ value: 2, initial_ts: 200, latest_ts: 200 });
  });
  it('puts a new key where the server would list it, and a repeated value only moves latest time', () => {
    const merged = mergeStates(
      [row('Mode', 'on', 100), row('b', 1, 100)],
      [
        {
          states: [
            { key: 'Zeta', value: 1, is_null: false, ts: 150 },
            { key: 'b', value: 1, is_null: false, ts: 160 },
          ],
        } as never,
      ],
    );
    expect(merged.map((r) => r.key)).toEqual(['Mode', 'Zeta', 'b']);
    expect(merged[2]).toMatchObject({ initial_ts: 100, latest_ts: 160 });
  });
});
