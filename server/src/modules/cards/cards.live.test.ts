// The live index without sockets: a fake socket.io platform and engine. Only cards reading a touched key are
// recomputed, at most once per 100 ms each, and a room nobody watches is forgotten with its index entries.
import { describe, expect, it } from 'vitest';
import { CARD_LIVE, type CardPush } from '@sentra/contracts';
import type { Realtime, RealtimeChannel } from '../../platform/realtime/types.js';
import { createLogger } from '../../platform/log.js';
import { eventually } from '../../platform/testing/until.js';
import { createCardsLive } from './cards.live.js';
import type { CardEngine } from './cards.module.js';

function setup({
  cards = ['a', 'b'],
  costMs = 0,
  onPush,
  reread = false,
}: { cards?: string[]; costMs?: number; onPush?: () => void; reread?: boolean } = {}) {
  const pushes: CardPush[] = [];
  let channel: RealtimeChannel | undefined;
  let emptied: ((room: string) => void) | undefined;
  const realtime = {
    channel: (_name: string, def: RealtimeChannel) => void (channel = def),
    emit: (_room: string, _event: string, payload: unknown) => {
      pushes.push(payload as CardPush);
      onPush?.();
    },
    onRoomEmpty: (fn: (room: string) => void) => ((emptied = fn), () => undefined),
  } as unknown as Realtime;
  let value = 0;
  const computed: string[] = [];
  const engine = {
    source: {
      dashboard: async () => ({
        id: 7,
        appId: 1,
        conf: { dashboard: Object.fromEntries(cards.map((k) => [k, {}])) },
        broken: new Set(),
      }),
    },
    evaluateStored: (_app: number, _tz: string, _id: number, key: string) => {
      computed.push(key);
      for (const until = performance.now() + costMs; performance.now() < until;);
      const result = {
        data: { key, cat: 'SINGLE_VALUE_CARD', success: true, value: ++value },
        deps: new Set([key === 'a' ? 'd:1|pm|meter|power' : 'dev:2']),
      };
      // the dashboard read again first (views.ts): the answer comes later
      return reread ? tick(100).then(() => result) : result;
    },
  } as unknown as CardEngine;
  const live = createCardsLive({ realtime, engine, log: createLogger('error') });
  const caller = {
    kind: 'tenant' as const,
    tenantId: 1,
    app: { id: 1, tenantId: 1, domain: 'x', name: 'x', timezone: 'Asia/Jakarta' },
  };
  return {
    live,
    pushes,
    computed,
    join: () => channel!.join(caller, { dashboard_id: 7 }) as Promise<string>,
    empty: (room: string) => emptied!(room),
  };
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('card live index', () => {
  it('sends every card once after subscribe, then recomputes only the cards reading a touched key', async () => {
    const t = setup();
    const room = await t.join();
    await eventually(() =>
      expect(t.pushes.map((p) => [p.key, p.mode, p.room])).toEqual([
        ['a', 'full', room],
        ['b', 'full', room],
      ]),
    );
    await tick(110);
    t.live.pointsCommitted(['d:1|pm|meter|power', 'd:9|pm|meter|power']);
    await eventually(() => expect(t.computed).toEqual(['a', 'b', 'a']));
    t.live.deviceChanged(1, 2);
    await eventually(() => expect(t.computed).toEqual(['a', 'b', 'a', 'b']));
  });

  it(`coalesces a burst into at most one update per card per ${CARD_LIVE.coalesceMs} ms`, async () => {
    // when card a was sent: measured, so a starved machine (touches further apart) changes the count, not the rule
    const sentAt: number[] = [];
    const t = setup({ onPush: () => t.pushes.at(-1)!.key === 'a' && sentAt.push(Date.now()) });
    await t.join();
    await eventually(() => expect(t.pushes).toHaveLength(2));
    const before = t.computed.length;
    for (let i = 0; i < 20; i++) {
      t.live.pointsCommitted(['d:1|pm|meter|power']);
      await tick(5);
    }
    // the last touch is answered too, with the newest value
    await eventually(() => expect(t.pushes.at(-1)!.data.value).toBe(t.computed.length));
    await tick(CARD_LIVE.coalesceMs + 20);
    const updates = t.computed.slice(before);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThan(20);
    // Date.now and the timers' clock may differ by a millisecond
    const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(CARD_LIVE.coalesceMs - 2);
    expect(t.pushes.at(-1)!.data.value).toBe(t.computed.length);
  });

  it("evaluates a dashboard's first frames in slices, with the event loop's other work served between them", async () => {
    // 8 cards of 5 ms each: without slices the 40 ms would run in one turn of the loop, a timer waiting behind all of it
    let pushedWhenTimerRan = -1;
    const t = setup({
      cards: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      costMs: 5,
      onPush: () => t.pushes.length === 1 && setTimeout(() => (pushedWhenTimerRan = t.pushes.length)),
    });
    await t.join();
    await eventually(() => expect(t.pushes).toHaveLength(8));
    expect(pushedWhenTimerRan).toBeGreaterThan(0);
    expect(pushedWhenTimerRan).toBeLessThan(8);
  });

  it('sends a card whose dashboard is read again once the read is done, and nothing to a room left meanwhile', async () => {
    const t = setup({ reread: true });
    const room = await t.join();
    await eventually(() =>
      expect(t.pushes.map((p) => [p.key, p.mode, p.data.value])).toEqual([
        ['a', 'full', 1],
        ['b', 'full', 2],
      ]),
    );
    await tick(110);
    t.live.pointsCommitted(['d:1|pm|meter|power']);
    await eventually(() => expect(t.computed).toEqual(['a', 'b', 'a']));
    t.empty(room);
    await tick(150);
    expect(t.pushes).toHaveLength(2);
  });

  it('computes every watched card again, in full, when anything may have changed unheard (the bus reconnected)', async () => {
    const t = setup();
    await t.join();
    await eventually(() => expect(t.pushes).toHaveLength(2));
    t.live.refreshAll();
    // at once, not after the coalescing period: each card's full frame
    await eventually(() =>
      expect(t.pushes.slice(2).map((p) => [p.key, p.mode])).toEqual([
        ['a', 'full'],
        ['b', 'full'],
      ]),
    );
  });

  it('forgets a room and its index entries when its last viewer leaves', async () => {
    const t = setup();
    const room = await t.join();
    await eventually(() => expect(t.live.stats()).toMatchObject({ rooms: 1, cards: 2, index_keys: 2 }));
    t.empty(room);
    expect(t.live.stats()).toMatchObject({ rooms: 0, cards: 0, index_keys: 0 });
    const n = t.computed.length;
    t.live.pointsCommitted(['d:1|pm|meter|power']);
    await tick(5);
    expect(t.computed.length).toBe(n);
  });
});
