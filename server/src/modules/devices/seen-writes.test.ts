// The gathered last_online_ts moves: written a chunk at a time, each chunk in a turn of its own; a failed chunk is kept
// for the next flush. (The store's writing without waiting for SQLite's lock: store.test.ts "writes on SQLite".)
import { describe, expect, it } from 'vitest';
import { createSeenWrites, type MoveLastSeen } from './seen-writes.js';

type Call = { moves: (readonly [number, number])[]; turn: number };

/** a move that records its calls and the turn of the event loop each came in */
function recorder() {
  const calls: Call[] = [];
  let turn = 0;
  const tick = setInterval(() => turn++, 0);
  const move: MoveLastSeen = async (moves) => void calls.push({ moves: [...moves], turn });
  return { calls, move, stop: () => clearInterval(tick) };
}

describe('the last-seen writes', () => {
  it('writes the newest move of each device, a chunk a statement, in turns of the event loop of their own', async () => {
    const r = recorder();
    const seen = createSeenWrites(r.move, 100);
    for (let id = 1; id <= 250; id++) seen.add(id, 1000);
    seen.add(7, 2000);
    await seen.flush();
    r.stop();
    expect(r.calls.map((c) => c.moves.length)).toEqual([100, 100, 50]);
    expect(r.calls.flatMap((c) => c.moves)).toContainEqual([7, 2000]);
    expect(r.calls.flatMap((c) => c.moves)).not.toContainEqual([7, 1000]);
    // a setImmediate between chunks: other callbacks of the loop run between them
    expect(new Set(r.calls.map((c) => c.turn)).size).toBeGreaterThan(1);
    expect(seen.pending()).toBe(0);
  });

  it('keeps a failed chunk for the next flush unless the device moved again, and drops a device gone offline', async () => {
    let fail = true;
    const written: (readonly [number, number])[] = [];
    const seen = createSeenWrites(async (moves) => {
      if (fail) throw new Error('storage unreachable');
      written.push(...moves);
    }, 10);
    seen.add(1, 100);
    seen.add(2, 100);
    seen.add(3, 100);
    await expect(seen.flush()).rejects.toThrow('storage unreachable');
    expect(seen.pending()).toBe(3);
    seen.add(2, 200);
    seen.drop(3);
    fail = false;
    await seen.flush();
    expect(written.sort((a, b) => a[0] - b[0])).toEqual([
      [1, 100],
      [2, 200],
    ]);
  });

  it('joins a flush under way, and writes what was added meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const written: number[] = [];
    const seen = createSeenWrites(async (moves) => {
      await gate;
      written.push(...moves.map(([id]) => id));
    }, 10);
    seen.add(1, 1);
    const first = seen.flush();
    seen.add(2, 1);
    const second = seen.flush();
    expect(second).toBe(first);
    release();
    await second;
    expect(written).toEqual([1, 2]);
  });
});
