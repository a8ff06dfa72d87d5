// The live feed without a socket: one subscription per dashboard channel, pushes applied once per frame, REALTIME
// appends merged and bounded, a delayed unsubscribe, a new subscribe after a reconnect.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_LIVE, type CardData, type CardSubscribeParams } from '@sentra/contracts';
import { CardFeed, FeedHub, MAX_CHART_ROWS, applyPush, type LiveTransport } from './cardFeed.js';

function fakeTransport() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const reconnects = new Set<() => void>();
  const t = {
    subscribed: [] as unknown[],
    unsubscribed: [] as string[],
    subscribe: vi.fn(async (_channel: string, params: unknown) => {
      t.subscribed.push(params);
      return `room${t.subscribed.length}`;
    }),
    unsubscribe: (room: string) => void t.unsubscribed.push(room),
    on: (event: string, fn: (p: unknown) => void) => {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(fn);
      return () => void handlers.get(event)!.delete(fn);
    },
    onReconnect: (fn: () => void) => (reconnects.add(fn), () => void reconnects.delete(fn)),
    emit: (payload: unknown) => handlers.get(CARD_LIVE.event)?.forEach((h) => h(payload)),
    reconnect: () => reconnects.forEach((f) => f()),
  };
  return t;
}

function manualFrames() {
  const queue: (() => void)[] = [];
  return { request: (fn: () => void) => queue.push(fn), now: () => 1000, run: () => queue.splice(0).forEach((f) => f()), pending: () => queue.length };
}

const params = { dashboard_id: 7 } as CardSubscribeParams;
const data = (key: string, extra: Partial<CardData> = {}): CardData => ({ key, cat: 'SINGLE_VALUE_CARD', success: true, ...extra });

describe('card feed', () => {
  it('subscribes once to the dashboard channel and routes pushes of its room by card key', async () => {
    const t = fakeTransport();
    const frames = manualFrames();
    const feed = new CardFeed(t as LiveTransport, params, frames);
    feed.start();
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    expect(t.subscribe).toHaveBeenCalledWith(CARD_LIVE.channel, params);
    const seen: string[] = [];
    feed.listen('a', () => seen.push('a'));
    t.emit({ room: 'room1', key: 'a', mode: 'full', data: data('a', { value: 1 }) });
    t.emit({ room: 'other', key: 'a', mode: 'full', data: data('a', { value: 99 }) });
    expect(feed.get('a')).toBeUndefined();
    frames.run();
    expect(feed.get('a')!.data.value).toBe(1);
    expect(seen).toEqual(['a']);
  });

  it('applies a burst of pushes once per animation frame (the last value wins)', async () => {
    const t = fakeTransport();
    const frames = manualFrames();
    const feed = new CardFeed(t as LiveTransport, params, frames);
    feed.start();
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    let renders = 0;
    feed.listen('a', () => renders++);
    for (let i = 0; i < 50; i++) t.emit({ room: 'room1', key: 'a', mode: 'full', data: data('a', { value: i }) });
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(renders).toBe(1);
    expect(feed.get('a')!.data.value).toBe(49);
  });

  it('appends REALTIME rows to the full frame, bounded by N data, and remembers the appends', async () => {
    const t = fakeTransport();
    const frames = manualFrames();
    const feed = new CardFeed(t as LiveTransport, params, frames);
    feed.start();
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ ts: from + i, v: from + i }));
    t.emit({ room: 'room1', key: 'c', mode: 'full', data: data('c', { chart_data: rows(0, 5), window: { type: 'REALTIME', ndata: 6 } }) });
    frames.run();
    t.emit({ room: 'room1', key: 'c', mode: 'append', data: data('c', { chart_data: rows(5, 1) }) });
    t.emit({ room: 'room1', key: 'c', mode: 'append', data: data('c', { chart_data: rows(6, 2) }) });
    frames.run();
    const s = feed.get('c')!;
    expect((s.data.chart_data as { ts: number }[]).map((r) => r.ts)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(s.frame).toBe(1);
    expect(s.seq).toBe(1);
    expect(s.appends.at(-1)!.rows.map((r) => r.ts)).toEqual([5, 6, 7]);
  });

  it('bounds a chart without N data to MAX_CHART_ROWS', () => {
    const first = applyPush(undefined, { mode: 'full', data: data('c', { chart_data: [] }) }, 0);
    const rows = Array.from({ length: MAX_CHART_ROWS + 10 }, (_, i) => ({ ts: i }));
    const next = applyPush(first, { mode: 'append', data: data('c', { chart_data: rows }) }, 1);
    expect((next.data.chart_data as unknown[]).length).toBe(MAX_CHART_ROWS);
  });

  it('subscribes again after a reconnect, and reports a refused subscription', async () => {
    const t = fakeTransport();
    const feed = new CardFeed(t as LiveTransport, params, manualFrames());
    feed.start();
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    t.reconnect();
    await vi.waitFor(() => expect(t.subscribed).toHaveLength(2));
    const refused = { ...fakeTransport(), subscribe: async () => Promise.reject({ response_result: -13, message: 'Anda tidak memiliki akses' }) };
    const f2 = new CardFeed(refused as unknown as LiveTransport, params, manualFrames());
    f2.start();
    await vi.waitFor(() => expect(f2.status).toBe('failed'));
    expect(f2.error).toBe('Anda tidak memiliki akses');
  });
});

describe('feed hub', () => {
  it('names a channel by its parameters whatever their key order, undefined ones left out', () => {
    const a = FeedHub.signature({ dashboard_id: 3, type: 'CUSTOM', start: 1, end: 2, vars: { zona: 'b', area: 'a' } } as unknown as CardSubscribeParams);
    const b = FeedHub.signature({ vars: { area: 'a', zona: 'b' }, end: 2, start: 1, type: 'CUSTOM', dashboard_id: 3, filter: undefined } as unknown as CardSubscribeParams);
    expect(a).toBe(b);
    expect(FeedHub.signature({ dashboard_id: 3, vars: { zona: 'a', area: 'a' } } as unknown as CardSubscribeParams)).not.toBe(FeedHub.signature({ dashboard_id: 3, vars: { zona: 'b', area: 'a' } } as unknown as CardSubscribeParams));
    // upper case sorts before lower case (code units): the order is the same on every machine, whatever its locale
    expect(FeedHub.signature({ b: 1, B: 2, a: 3 } as unknown as CardSubscribeParams)).toBe('{"B":2,"a":3,"b":1}');
  });

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shares one feed per dashboard channel and unsubscribes a while after the last card left', async () => {
    const t = fakeTransport();
    const hub = new FeedHub(() => t as LiveTransport, manualFrames(), 5000);
    const a = hub.acquire({ dashboard_id: 7, filter: 'f' } as CardSubscribeParams);
    const b = hub.acquire({ filter: 'f', dashboard_id: 7 } as CardSubscribeParams);
    expect(a).toBe(b);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.subscribed).toHaveLength(1);
    hub.release(a);
    hub.release(b);
    await vi.advanceTimersByTimeAsync(4000);
    // a card coming back within the delay reuses the subscription
    const c = hub.acquire({ dashboard_id: 7, filter: 'f' } as CardSubscribeParams);
    expect(c).toBe(a);
    hub.release(c);
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.unsubscribed).toEqual(['room1']);
    expect(hub.size).toBe(0);
  });

  it('keeps separate feeds for different filters or variables', () => {
    const t = fakeTransport();
    const hub = new FeedHub(() => t as LiveTransport, manualFrames());
    const a = hub.acquire({ dashboard_id: 7 } as CardSubscribeParams);
    const b = hub.acquire({ dashboard_id: 7, vars: { x: 1 }, keys: ['k'] } as CardSubscribeParams);
    expect(a).not.toBe(b);
    expect(hub.size).toBe(2);
  });
});
