import { describe, expect, it } from 'vitest';
import { createRecentPoints } from '../read/recent.js';
import {
  COMPACT_KEEP_UP,
  COMPACT_TICK_MS,
  COMPACT_YIELD_POINTS,
  CompactionSchedule,
  type CompactionOptions,
} from './compaction.js';

/** `series` series of `per` points each, held in the active generation */
function held(series: number, per: number) {
  const recent = createRecentPoints();
  for (let s = series; s >= 1; s--)
    for (let t = 1; t <= per; t++) recent.add({ seriesId: s, ts: t, num: t, text: null });
  return recent;
}

function schedule(recent: ReturnType<typeof createRecentPoints>, extra: Partial<CompactionOptions> = {}) {
  const state = { clock: 0, queued: 0, hurry: false };
  const c = new CompactionSchedule(recent, {
    now: () => state.clock,
    everyMs: 1000,
    chunkPoints: 2,
    maxChunkPoints: 4,
    queuedPoints: () => state.queued,
    hurry: () => state.hurry,
    ...extra,
  });
  return { c, state };
}

describe('the compaction schedule', () => {
  it('starts a round once its period passed, and spreads the round evenly over 60 % of it in whole series', () => {
    const recent = held(4, 2);
    const { c, state } = schedule(recent);
    expect(c.freezeDue()).toBe(false);
    expect(c.idleDelay(-1)).toBe(1000); // until the round is due
    state.clock = 1000;
    c.freezeIfDue();
    expect(c.rounds).toBe(1);
    expect(recent.frozen?.points).toBe(8);
    expect(c.due()).toBe(0); // the round just started
    expect(c.idleDelay(-1)).toBe(COMPACT_TICK_MS);
    state.clock = 1150; // a quarter of the 600 ms spread: 2 of 8 points
    expect(c.due()).toBe(2);
    const first = c.nextChunk(c.due());
    expect(Array.from(first.columns.series)).toEqual([1, 1]);
    expect(first).toMatchObject({ from: 0, to: 1, last: false, points: 2 });
    c.chunkStored(first);
    expect(c.compactedPoints).toBe(2);
    state.clock = 1700; // past the spread: the rest, at most the largest chunk
    expect(c.due()).toBe(4);
    const second = c.nextChunk(c.due());
    expect(Array.from(second.columns.series)).toEqual([2, 2, 3, 3]);
    c.chunkStored(second);
    expect(c.worthAChunk(c.due())).toBe(true); // 2 points left end the round
    const last = c.nextChunk(c.due());
    expect(last.last).toBe(true);
    c.chunkStored(last);
    expect(recent.frozen).toBeNull();
    expect(recent.size).toBe(0);
    expect(c.compactedPoints).toBe(8);
  });

  it('sends a failed chunk again and yields to queued points while the round has time to spare', () => {
    const recent = held(3, 2);
    const { c, state } = schedule(recent);
    state.clock = 1000;
    c.freezeIfDue();
    state.clock = 2000;
    const chunk = c.nextChunk(c.due());
    c.chunkFailed(chunk);
    expect(c.nextChunk(4)).toMatchObject({ from: chunk.from, to: chunk.to });
    const { c: c2, state: s2 } = schedule(held(3, 2));
    s2.clock = 1000;
    c2.freezeIfDue();
    s2.queued = COMPACT_YIELD_POINTS + 1;
    s2.clock = 1800; // 80 % of the period: points go first
    expect(c2.due()).toBe(0);
    // a batch taking some of them leaves no more than the bound waiting: it takes a chunk
    expect(c2.due(1)).toBe(4);
    s2.clock = 1950; // past 90 %: the round no longer yields
    expect(c2.due()).toBe(4);
  });

  it('keeps pace with what a batch appends: a chunk may take more than the cap when its batch is larger', () => {
    // 40 series of 10 points; memory past its bound (catching up): the cap (4) unless the batch appends more
    const recent = held(40, 10);
    const { c, state } = schedule(recent, { maxRecentPoints: 100 });
    c.freezeIfDue();
    for (let s = 1; s <= 20; s++) recent.add({ seriesId: 1000 + s, ts: 1, num: 1, text: null }); // the next round's
    state.clock = 10;
    expect(c.due()).toBe(4);
    expect(c.due(2)).toBe(4);
    expect(c.due(100)).toBe(Math.ceil(100 * COMPACT_KEEP_UP));
    // on schedule (within memory) the round's pace still rules: a quarter of the spread, a quarter of the round
    const { c: paced, state: s2 } = schedule(held(40, 10));
    s2.clock = 1000;
    paced.freezeIfDue();
    s2.clock = 1150;
    expect(paced.due(1000)).toBe(100);
    expect(paced.due(10)).toBe(Math.ceil(10 * COMPACT_KEEP_UP)); // 4 cap, 13 kept pace, 100 due: 13
  });

  it('compacts everything held at once when hurried (drain or close), and starts a round early when memory is full', () => {
    const recent = held(5, 2);
    const { c, state } = schedule(recent, { maxRecentPoints: 100 });
    state.hurry = true;
    expect(c.freezeDue()).toBe(true);
    c.freezeIfDue();
    expect(c.due()).toBe(10);
    const { c: full } = schedule(held(5, 2), { maxRecentPoints: 10 });
    expect(full.freezeDue()).toBe(true);
  });
});
