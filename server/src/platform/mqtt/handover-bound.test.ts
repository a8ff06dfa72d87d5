import { describe, expect, it } from 'vitest';
import { HandoverBound } from './handover-bound.js';

function bound(maxMessages = 10, maxBytes = 1_000) {
  const changes: boolean[] = [];
  return { b: new HandoverBound((behind) => changes.push(behind), maxMessages, maxBytes), changes };
}

describe('what a broker thread handed over and the event loop has not taken', () => {
  it('stops reading once the untaken messages reach the bound, and reads again below half of it', () => {
    const { b, changes } = bound();
    b.handed(4, 40);
    b.handed(5, 50);
    expect(changes).toEqual([]);
    b.handed(1, 10);
    expect(changes).toEqual([true]);
    expect(b.isBehind).toBe(true);
    b.handed(3, 30); // more arrives while stopping (what was already read): no second call
    expect(changes).toEqual([true]);
    b.taken(1); // 9 left
    expect(changes).toEqual([true]);
    b.taken(1); // 4 left: below half
    expect(changes).toEqual([true, false]);
    expect(b.messages).toBe(4);
    expect(b.isBehind).toBe(false);
  });

  it('counts bytes too: a few large messages stop reading as many small ones do', () => {
    const { b, changes } = bound(1_000, 1_000);
    b.handed(2, 600);
    b.handed(1, 400);
    expect(changes).toEqual([true]);
    b.taken(1);
    expect(changes).toEqual([true, false]);
    expect(b.bytes).toBe(400);
  });

  it('takes runs oldest first and ignores takes beyond what was handed', () => {
    const { b } = bound(100, 100_000);
    for (let k = 1; k <= 3000; k++) b.handed(1, k);
    b.taken(2000);
    expect(b.messages).toBe(1000);
    expect(b.bytes).toBe(((2001 + 3000) * 1000) / 2);
    b.taken(5000);
    expect(b.messages).toBe(0);
    expect(b.bytes).toBe(0);
  });
});
