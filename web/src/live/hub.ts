// Shared live subscriptions over one socket (STYLE.md "Live data like Grafana Live"): one server subscription per
// channel and params however many components listen, re-subscribed after a reconnect, and released only after a
// delay, so a component remounting (a page change, a dialog) does not make the server leave and rejoin the room.
// Framework-free: `socket.ts` gives it a socket.io connection, tests a fake.

export interface LiveSocket {
  emit(event: 'subscribe', body: { channel: string; params: unknown }, ack: (answer: { response_result: number; room?: string }) => void): void;
  emit(event: 'unsubscribe', body: { room: string }): void;
  on(event: string, fn: (payload: any) => void): void;
  off(event: string, fn: (payload: any) => void): void;
  readonly connected: boolean;
}

type Listener = (payload: any) => void;

interface Subscription {
  key: string;
  channel: string;
  params: unknown;
  room?: string;
  /** event name → listeners */
  listeners: Map<string, Set<Listener>>;
  releaseTimer?: ReturnType<typeof setTimeout>;
  /** the server refused the subscription (no access, unknown device) */
  refused?: number;
}

export const RELEASE_DELAY_MS = 3000;

export function createLiveHub(socket: LiveSocket, opts: { releaseDelayMs?: number } = {}) {
  const delay = opts.releaseDelayMs ?? RELEASE_DELAY_MS;
  const subs = new Map<string, Subscription>();
  const byEvent = new Map<string, (payload: any) => void>();

  function join(sub: Subscription) {
    if (!socket.connected) return;
    socket.emit('subscribe', { channel: sub.channel, params: sub.params }, (answer) => {
      if (answer?.response_result === 0 && answer.room) sub.room = answer.room;
      else sub.refused = answer?.response_result ?? -99;
      // released while the answer travelled
      if (!subs.has(sub.key) && sub.room) socket.emit('unsubscribe', { room: sub.room });
    });
  }

  /** one socket listener per event name, dispatching by the payload's room-defining fields is not possible: every
   * subscription listening to the event receives it and filters by its own params (cheap: few subscriptions) */
  function ensureEvent(event: string) {
    if (byEvent.has(event)) return;
    const fn = (payload: unknown) => {
      for (const sub of subs.values()) sub.listeners.get(event)?.forEach((l) => l(payload));
    };
    byEvent.set(event, fn);
    socket.on(event, fn);
  }

  return {
    /** listens to `event` of `channel` with `params`; answers the function that stops listening */
    listen(channel: string, params: unknown, event: string, listener: Listener): () => void {
      const key = `${channel}\u001f${JSON.stringify(params ?? {})}`;
      let sub = subs.get(key);
      if (!sub) {
        sub = { key, channel, params, listeners: new Map() };
        subs.set(key, sub);
        join(sub);
      }
      if (sub.releaseTimer) clearTimeout(sub.releaseTimer), (sub.releaseTimer = undefined);
      ensureEvent(event);
      let set = sub.listeners.get(event);
      if (!set) sub.listeners.set(event, (set = new Set()));
      set.add(listener);
      const own = sub;
      return () => {
        own.listeners.get(event)?.delete(listener);
        if ([...own.listeners.values()].some((s) => s.size > 0)) return;
        own.releaseTimer = setTimeout(() => {
          subs.delete(own.key);
          if (own.room && socket.connected) socket.emit('unsubscribe', { room: own.room });
        }, delay);
      };
    },
    /** after a (re)connect every subscription joins again (rooms do not survive a new socket) */
    resubscribe() {
      for (const sub of subs.values()) {
        sub.room = undefined;
        sub.refused = undefined;
        join(sub);
      }
    },
    /** subscriptions held (for tests) */
    size: () => subs.size,
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
