// The one live-subscription manager without a socket: shared subscriptions, the delayed release, a new subscribe
// after a reconnect, pushes routed by room, refusals reported.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveHub, RELEASE_DELAY_MS, subscriptionKey } from './hub.js';
import { fakeTransport } from './live.test-kit.js';

describe('live hub', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('subscribes once per channel and params (whatever their key order), shared by every listener', async () => {
    const t = fakeTransport();
    const hub = createLiveHub(t);
    const a: unknown[] = [];
    const b: unknown[] = [];
    hub.listen('device-data', { device_id: 1, x: 2 }, 'device.data', (p) => a.push(p));
    hub.listen('device-data', { x: 2, device_id: 1 }, 'device.data', (p) => b.push(p));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.subscribed).toHaveLength(1);
    t.fire('device.data', { v: 1 });
    expect([a, b]).toEqual([[{ v: 1 }], [{ v: 1 }]]);
  });

  it('unsubscribes only after the delay, and not at all when a listener comes back in time', async () => {
    const t = fakeTransport();
    const hub = createLiveHub(t, { releaseDelayMs: 1000 });
    const stop = hub.listen('devices', {}, 'device.status', () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(500);
    const again = hub.listen('devices', {}, 'device.status', () => undefined);
    await vi.advanceTimersByTimeAsync(2000);
    expect([t.subscribed.length, t.unsubscribed]).toEqual([1, []]);
    again();
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.unsubscribed).toEqual(['devices.1']);
    expect(hub.size()).toBe(0);
  });

  it('keeps a subscription RELEASE_DELAY_MS (5 s) after its last user by default', async () => {
    const t = fakeTransport();
    const hub = createLiveHub(t);
    hub.release(hub.open('dashboard', { dashboard_id: 7 }));
    await vi.advanceTimersByTimeAsync(RELEASE_DELAY_MS - 1);
    expect(hub.peek('dashboard', { dashboard_id: 7 })).toBeDefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(hub.peek('dashboard', { dashboard_id: 7 })).toBeUndefined();
    expect(RELEASE_DELAY_MS).toBe(5000);
  });

  it('joins every held subscription again after a reconnect', async () => {
    const t = fakeTransport();
    const hub = createLiveHub(t);
    hub.listen('devices', {}, 'device.status', () => undefined);
    hub.listen('device-data', { device_id: 2 }, 'device.data', () => undefined);
    t.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.subscribed.map((s) => s.channel)).toEqual(['devices', 'device-data', 'devices', 'device-data']);
  });

  it('hands a push naming a room only to the subscription of that room, and one without a room to every listener', async () => {
    const t = fakeTransport();
    const hub = createLiveHub(t);
    const first = hub.open('dashboard', { dashboard_id: 1 });
    const second = hub.open('dashboard', { dashboard_id: 2 });
    await vi.advanceTimersByTimeAsync(0);
    const heard: string[] = [];
    first.on('card', (p) => heard.push(`1:${p.key}`));
    second.on('card', (p) => heard.push(`2:${p.key}`));
    t.fire('card', { room: 'dashboard.2', key: 'a' });
    t.fire('card', { room: 'tidak.ada', key: 'b' });
    t.fire('card', { key: 'c' });
    expect(heard).toEqual(['2:a', '1:c', '2:c']);
  });

  it('reports a refused subscription with the server message, and leaves a room answered after its release', async () => {
    let answer: (room: string) => void = () => undefined;
    const refusing = createLiveHub(
      fakeTransport(() => Promise.reject({ response_result: -13, message: 'Anda tidak memiliki akses' })),
    );
    const sub = refusing.open('dashboard', { dashboard_id: 1 });
    const statuses: string[] = [];
    sub.onStatus(() => statuses.push(sub.status));
    await vi.advanceTimersByTimeAsync(0);
    expect([sub.status, sub.error, sub.refused, statuses]).toEqual([
      'failed',
      'Anda tidak memiliki akses',
      -13,
      ['failed'],
    ]);

    const slow = fakeTransport(() => new Promise((resolve) => (answer = resolve)));
    const hub = createLiveHub(slow, { releaseDelayMs: 10 });
    hub.release(hub.open('devices', {}));
    await vi.advanceTimersByTimeAsync(10);
    answer('devices.9');
    await vi.advanceTimersByTimeAsync(0);
    expect(slow.unsubscribed).toEqual(['devices.9']);
  });

  it('names a subscription by its channel and params whatever their key order, undefined ones left out', () => {
    const a = subscriptionKey('dashboard', {
      dashboard_id: 3,
      type: 'CUSTOM',
      start: 1,
      end: 2,
      vars: { zona: 'b', area: 'a' },
    });
    const b = subscriptionKey('dashboard', {
      vars: { area: 'a', zona: 'b' },
      end: 2,
      start: 1,
      type: 'CUSTOM',
      dashboard_id: 3,
      filter: undefined,
    });
    expect(a).toBe(b);
    expect(subscriptionKey('dashboard', { dashboard_id: 3, vars: { zona: 'a' } })).not.toBe(
      subscriptionKey('dashboard', { dashboard_id: 3, vars: { zona: 'b' } }),
    );
    expect(subscriptionKey('devices', { dashboard_id: 3 })).not.toBe(subscriptionKey('dashboard', { dashboard_id: 3 }));
    // upper case sorts before lower case (code units): the same order on every machine, whatever its locale
    expect(subscriptionKey('x', { b: 1, B: 2, a: 3 })).toBe('x\u001f{"B":2,"a":3,"b":1}');
  });
});
