// A LiveTransport without a socket for the hub's and the card feeds' tests: subscribes answer `<channel>.<n>` (or
// what `answer` says), pushes and reconnects are fired by hand.
import type { LiveTransport } from './hub.js';

export function fakeTransport(answer?: (channel: string, params: unknown) => Promise<string>) {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const reconnects = new Set<() => void>();
  const t = {
    subscribed: [] as { channel: string; params: unknown }[],
    unsubscribed: [] as string[],
    subscribe(channel: string, params: unknown): Promise<string> {
      t.subscribed.push({ channel, params });
      return answer ? answer(channel, params) : Promise.resolve(`${channel}.${t.subscribed.length}`);
    },
    unsubscribe: (room: string) => void t.unsubscribed.push(room),
    on(event: string, fn: (p: unknown) => void) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(fn);
      return () => void handlers.get(event)!.delete(fn);
    },
    onReconnect: (fn: () => void) => (reconnects.add(fn), () => void reconnects.delete(fn)),
    fire: (event: string, payload: unknown) => handlers.get(event)?.forEach((h) => h(payload)),
    reconnect: () => reconnects.forEach((f) => f()),
  } satisfies LiveTransport & Record<string, unknown>;
  return t;
}
