import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveHub, type LiveSocket } from './hub.js';

function fakeSocket() {
  const handlers = new Map<string, Set<(p: any) => void>>();
  const sent: [string, any][] = [];
  const socket: LiveSocket & { fire(event: string, p: unknown): void; sent: typeof sent; connected: boolean } = {
    connected: true,
    sent,
    emit(event: string, body: any, ack?: (a: any) => void) {
      sent.push([event, body]);
      if (event === 'subscribe') ack?.({ response_result: 0, room: `${body.channel}.${body.params.device_id ?? 'all'}` });
    },
    on(event: string, fn: (p: any) => void) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(fn);
    },
    off(event: string, fn: (p: any) => void) {
      handlers.get(event)?.delete(fn);
    },
    fire(event: string, p: unknown) {
      handlers.get(event)?.forEach((h) => h(p));
    },
  } as any;
  return socket;
}

describe('live hub', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('subscribes once per channel and params, shared by every listener', () => {
    const s = fakeSocket();
    const hub = createLiveHub(s);
    const a: unknown[] = [];
    const b: unknown[] = [];
    hub.listen('device-data', { device_id: 1 }, 'device.data', (p) => a.push(p));
    hub.listen('device-data', { device_id: 1 }, 'device.data', (p) => b.push(p));
    expect(s.sent.filter(([e]) => e === 'subscribe')).toHaveLength(1);
    s.fire('device.data', { v: 1 });
    expect([a, b]).toEqual([[{ v: 1 }], [{ v: 1 }]]);
  });

  it('unsubscribes only after the delay, and not at all when a listener comes back in time', () => {
    const s = fakeSocket();
    const hub = createLiveHub(s, { releaseDelayMs: 1000 });
    const stop = hub.listen('devices', {}, 'device.status', () => undefined);
    stop();
    vi.advanceTimersByTime(500);
    const again = hub.listen('devices', {}, 'device.status', () => undefined);
    vi.advanceTimersByTime(2000);
    expect(s.sent.map(([e]) => e)).toEqual(['subscribe']);
    again();
    vi.advanceTimersByTime(1000);
    expect(s.sent.at(-1)).toEqual(['unsubscribe', { room: 'devices.all' }]);
    expect(hub.size()).toBe(0);
  });

  it('joins every held subscription again after a reconnect', () => {
    const s = fakeSocket();
    const hub = createLiveHub(s);
    hub.listen('devices', {}, 'device.status', () => undefined);
    hub.listen('device-data', { device_id: 2 }, 'device.data', () => undefined);
    hub.resubscribe();
    expect(s.sent.filter(([e]) => e === 'subscribe')).toHaveLength(4);
  });
});
