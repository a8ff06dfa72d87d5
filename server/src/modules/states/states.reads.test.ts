// The states' read side on both engines: a device's current state by its application only, and the values a key took
// in a window (the one in effect at its start, then each change). The card engine reads states through these.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createStateReads, type StateReads } from './states.reads.js';
import { deviceStateHistory, deviceStates } from './states.table.js';

forEachEngine('state reads', (open) => {
  let opened: OpenedStore;
  let reads: StateReads;
  beforeEach(async () => {
    opened = await open();
    reads = createStateReads(opened.store);
    const { db } = opened.store;
    await db.insert(deviceStates).values([
      { deviceId: 7, appId: 1, key: 'mode', value: '"auto"', initialTs: 300, latestTs: 350 },
      { deviceId: 7, appId: 1, key: 'cfg', value: '{"a":1}', initialTs: 10, latestTs: 10 },
      { deviceId: 7, appId: 1, key: 'off', value: null, initialTs: 20, latestTs: 20 },
      { deviceId: 8, appId: 2, key: 'mode', value: '"manual"', initialTs: 5, latestTs: 5 },
    ]);
    await db.insert(deviceStateHistory).values([
      { deviceId: 7, key: 'mode', initialTs: 100, value: '"manual"', latestTs: 150 },
      { deviceId: 7, key: 'mode', initialTs: 200, value: 'not json', latestTs: 250 },
      { deviceId: 7, key: 'mode', initialTs: 300, value: '"auto"', latestTs: 350 },
      { deviceId: 7, key: 'other', initialTs: 120, value: '1', latestTs: 120 },
      { deviceId: 8, key: 'mode', initialTs: 5, value: '"manual"', latestTs: 5 },
    ]);
  });
  afterEach(() => opened?.close());

  it("answers a device's current state by its application only, its JSON value parsed", async () => {
    expect(await reads.current(1, 7, 'mode')).toEqual({ value: 'auto', since: 300, ts: 350 });
    expect(await reads.current(1, 7, 'cfg')).toEqual({ value: { a: 1 }, since: 10, ts: 10 });
    expect(await reads.current(1, 7, 'off')).toEqual({ value: null, since: 20, ts: 20 });
    expect(await reads.current(2, 7, 'mode')).toBeNull();
    expect(await reads.current(1, 7, 'nope')).toBeNull();
  });

  it('answers the values a key took in a window: the one in effect at its start, then each change, oldest first', async () => {
    expect(await reads.history(1, 7, 'mode', 150, 400)).toEqual([
      { ts: 150, value: 'manual' },
      { ts: 200, value: 'not json' },
      { ts: 300, value: 'auto' },
    ]);
    // [start, end): a change at `end` is not in it; one at `start` follows the value in effect before it
    expect(await reads.history(1, 7, 'mode', 200, 300)).toEqual([
      { ts: 200, value: 'manual' },
      { ts: 200, value: 'not json' },
    ]);
    expect(await reads.history(1, 7, 'mode', 0, 100)).toEqual([]);
    expect(await reads.history(2, 7, 'mode', 0, 1_000)).toEqual([]);
  });
});
