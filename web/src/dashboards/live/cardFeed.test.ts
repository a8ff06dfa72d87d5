// The dashboard's card feed over the live hub, without a socket: one subscription per dashboard channel, pushes of its
// room applied once per frame, REALTIME appends merged and bounded, a refusal reported, the feed kept while held.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_LIVE, type CardData, type CardSubscribeParams } from '@sentra/contracts';
import { createLiveHub } from '../../live/hub.js';
import { fakeTransport } from '../../live/live.test-kit.js';
import { MAX_CHART_ROWS, acquireFeed, applyPush, peekFeed, releaseFeed } from './cardFeed.js';

function manualFrames() {
  const queue: (() => void)[] = [];
  return {
    request: (fn: () => void) => queue.push(fn),
    now: () => 1000,
    run: () => queue.splice(0).forEach((f) => f()),
    pending: () => queue.length,
  };
}

const params = { dashboard_id: 7 } as CardSubscribeParams;
const data = (key: string, extra: Partial<CardData> = {}): CardData => ({
  key,
  cat: 'SINGLE_VALUE_CARD',
  success: true,
  ...extra,
});

describe('card feed', () => {
  it('subscribes once to the dashboard channel and routes pushes of its room by card key', async () => {
    const t = fakeTransport();
    const frames = manualFrames();
    const feed = acquireFeed(createLiveHub(t), params, frames);
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    expect(t.subscribed).toEqual([{ channel: CARD_LIVE.channel, params }]);
    const seen: string[] = [];
    feed.listen('a', () => seen.push('a'));
    t.fire(CARD_LIVE.event, { room: 'dashboard.1', key: 'a', mode: 'full', data: data('a', { value: 1 }) });
    t.fire(CARD_LIVE.event, { room: 'other', key: 'a', mode: 'full', data: data('a', { value: 99 }) });
    expect(feed.get('a')).toBeUndefined();
    frames.run();
    expect(feed.get('a')!.data.value).toBe(1);
    expect(seen).toEqual(['a']);
  });

  it('applies a burst of pushes once per animation frame (the last value wins)', async () => {
    const t = fakeTransport();
    const frames = manualFrames();
    const feed = acquireFeed(createLiveHub(t), params, frames);
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    let renders = 0;
    feed.listen('a', () => renders++);
    for (let i = 0; i < 50; i++)
      t.fire(CARD_LIVE.event, { room: 'dashboard.1', key: 'a', mode: 'full', data: data('a', { value: i }) });
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(renders).toBe(1);
    expect(feed.get('a')!.data.value).toBe(49);
  });

  it('appends REALTIME rows to the full frame, bounded by N data, and remembers the appends', async () => {
    const t = fakeTransport();
    const frames = manualFrames();
    const feed = acquireFeed(createLiveHub(t), params, frames);
    await vi.waitFor(() => expect(feed.status).toBe('live'));
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ ts: from + i, v: from + i }));
    t.fire(CARD_LIVE.event, {
      room: 'dashboard.1',
      key: 'c',
      mode: 'full',
      data: data('c', { chart_data: rows(0, 5), window: { type: 'REALTIME', ndata: 6 } }),
    });
    frames.run();
    t.fire(CARD_LIVE.event, {
      room: 'dashboard.1',
      key: 'c',
      mode: 'append',
      data: data('c', { chart_data: rows(5, 1) }),
    });
    t.fire(CARD_LIVE.event, {
      room: 'dashboard.1',
      key: 'c',
      mode: 'append',
      data: data('c', { chart_data: rows(6, 2) }),
    });
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

  it('reports a refused subscription with the server message', async () => {
    const refused = fakeTransport(() => Promise.reject({ response_result: -13, message: 'Anda tidak memiliki akses' }));
    const feed = acquireFeed(createLiveHub(refused), params, manualFrames());
    await vi.waitFor(() => expect(feed.status).toBe('failed'));
    expect(feed.error).toBe('Anda tidak memiliki akses');
  });
});

describe('dashboard feeds', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shares one feed per dashboard channel and unsubscribes a while after the last card left', async () => {
    const t = fakeTransport();
    const hub = createLiveHub(t, { releaseDelayMs: 5000 });
    const a = acquireFeed(hub, { dashboard_id: 7, filter: 'f' } as CardSubscribeParams, manualFrames());
    const b = acquireFeed(hub, { filter: 'f', dashboard_id: 7 } as CardSubscribeParams, manualFrames());
    expect(a).toBe(b);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.subscribed).toHaveLength(1);
    releaseFeed(hub, a);
    releaseFeed(hub, b);
    await vi.advanceTimersByTimeAsync(4000);
    // a card coming back within the delay reuses the subscription and what it received
    expect(peekFeed(hub, { dashboard_id: 7, filter: 'f' } as CardSubscribeParams)).toBe(a);
    const c = acquireFeed(hub, { dashboard_id: 7, filter: 'f' } as CardSubscribeParams);
    expect(c).toBe(a);
    releaseFeed(hub, c);
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.unsubscribed).toEqual(['dashboard.1']);
    expect(hub.size()).toBe(0);
    expect(peekFeed(hub, { dashboard_id: 7, filter: 'f' } as CardSubscribeParams)).toBeUndefined();
  });

  it('keeps separate feeds for different filters or variables', () => {
    const hub = createLiveHub(fakeTransport());
    const a = acquireFeed(hub, { dashboard_id: 7 } as CardSubscribeParams);
    const b = acquireFeed(hub, { dashboard_id: 7, vars: { x: 1 }, keys: ['k'] } as CardSubscribeParams);
    expect(a).not.toBe(b);
    expect(hub.size()).toBe(2);
  });
});
