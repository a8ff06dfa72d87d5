// Series ids as dense slots: found by index below MAX_INDEXED_ID, through a map beyond, each id one slot for good.
import { describe, expect, it } from 'vitest';
import { MAX_INDEXED_ID, MIN_SLOTS, Slots } from './slots.js';

describe('Slots', () => {
  it('gives each series id one slot, in the order first taken, by index and beyond it', () => {
    const slots = new Slots();
    const ids = [7, 1, MIN_SLOTS * 5, MAX_INDEXED_ID - 1, MAX_INDEXED_ID, MAX_INDEXED_ID * 3 + 5];
    ids.forEach((id, k) => expect(slots.take(id)).toBe(k));
    ids.forEach((id, k) => {
      expect(slots.get(id)).toBe(k);
      expect(slots.take(id)).toBe(k); // taken again: the same slot
      expect(slots.ids[k]).toBe(id);
    });
    expect(slots.size).toBe(ids.length);
    for (const absent of [0, 2, MIN_SLOTS * 5 + 1, MAX_INDEXED_ID + 1, MAX_INDEXED_ID * 10])
      expect(slots.get(absent)).toBe(-1);
  });

  it('grows past its first room without losing a slot', () => {
    const slots = new Slots();
    for (let id = 1; id <= MIN_SLOTS * 8; id++) slots.take(id * 3);
    for (let id = 1; id <= MIN_SLOTS * 8; id++) expect(slots.get(id * 3)).toBe(id - 1);
  });
});
