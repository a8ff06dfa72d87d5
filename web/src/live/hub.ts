// The console's one live-subscription manager (docs/conventions.md "Live data like Grafana Live"): one server
// subscription per channel and params however many components use it, joined again after a reconnect, and left only
// RELEASE_DELAY_MS after its last user went, so a component remounting (a page change, a dialog, a quick way back to a
// dashboard) does not make the server leave the room and compute its first frames again. Every live screen goes through
// it: the device list and data pages (`useLive.ts`) and the dashboard's card feeds (`dashboards/live/`).
// Framework-free: `socket.ts` gives it the shared socket.io connection as a LiveTransport, tests a fake.

/** What the hub needs of a socket. */
export interface LiveTransport {
  /** resolves with the room; rejects with the server's envelope (`{response_result, message}`) */
  subscribe(channel: string, params: unknown): Promise<string>;
  unsubscribe(room: string): void;
  on(event: string, fn: (payload: unknown) => void): () => void;
  /** after a reconnect the server has forgotten our rooms: subscribe again (it then sends full frames) */
  onReconnect(fn: () => void): () => void;
}

export type LiveStatus = 'connecting' | 'live' | 'failed';

type Listener = (payload: any) => void;

/** One held server subscription. Users `open` it and `release` it; listeners only hear it while it is held. */
export interface LiveSubscription {
  readonly channel: string;
  readonly params: unknown;
  readonly status: LiveStatus;
  /** the server's message when it refused the subscription (no access, unknown device) */
  readonly error?: string;
  /** the server's code when it refused the subscription */
  readonly refused?: number;
  /** `event` pushes of this subscription: a push naming its `room` is heard only by the subscription of that room */
  on(event: string, listener: Listener): () => void;
  onStatus(listener: () => void): () => void;
}

/**
 * How long a subscription outlives its last user. 5 s, not less: the dashboard's card frames live as long as the
 * subscription, so a quick way back to a dashboard (a device page, a dialog) draws at once without a new subscribe;
 * a held room costs the gateway nothing it does not already do for any viewer.
 */
export const RELEASE_DELAY_MS = 5000;

interface Held {
  sub: Sub;
  users: number;
  releaseTimer?: ReturnType<typeof setTimeout>;
}

class Sub implements LiveSubscription {
  status: LiveStatus = 'connecting';
  error?: string;
  refused?: number;
  room?: string;
  closed = false;
  readonly listeners = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<() => void>();

  constructor(
    readonly key: string,
    readonly channel: string,
    readonly params: unknown,
    private readonly ensureEvent: (event: string) => void,
  ) {}

  on(event: string, listener: Listener): () => void {
    this.ensureEvent(event);
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set!.delete(listener);
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => void this.statusListeners.delete(listener);
  }

  setStatus(status: LiveStatus) {
    this.status = status;
    this.statusListeners.forEach((l) => l());
  }

  hears(payload: unknown): boolean {
    const room = (payload as { room?: unknown } | null)?.room;
    return typeof room !== 'string' || room === this.room;
  }
}

/** A subscription's name: its channel and params, object keys in code-unit order, undefined values left out. */
export function subscriptionKey(channel: string, params: unknown): string {
  // code-unit order, not localeCompare: its first call builds an ICU collator, 20-40 ms on the path from a
  // dashboard's record to its channel's subscribe
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, x]) => [k, sorted(x)]),
        )
      : v;
  return `${channel}\u001f${JSON.stringify(sorted(params ?? {}))}`;
}

export function createLiveHub(transport: LiveTransport, opts: { releaseDelayMs?: number } = {}) {
  const delay = opts.releaseDelayMs ?? RELEASE_DELAY_MS;
  const held = new Map<string, Held>();
  const events = new Set<string>();

  async function join(sub: Sub) {
    try {
      const room = await transport.subscribe(sub.channel, sub.params);
      // released while the answer travelled
      if (sub.closed) return transport.unsubscribe(room);
      sub.room = room;
      sub.error = sub.refused = undefined;
      sub.setStatus('live');
    } catch (err) {
      const answer = err as { message?: string; response_result?: number } | null;
      sub.error = answer?.message;
      sub.refused = answer?.response_result ?? -99;
      if (!sub.closed) sub.setStatus('failed');
    }
  }

  /** one transport listener per event name, handing each push to the subscriptions that hear it */
  function ensureEvent(event: string) {
    if (events.has(event)) return;
    events.add(event);
    transport.on(event, (payload) => {
      for (const { sub } of held.values()) {
        const set = sub.listeners.get(event);
        if (set?.size && sub.hears(payload)) set.forEach((l) => l(payload));
      }
    });
  }

  transport.onReconnect(() => {
    for (const { sub } of held.values()) {
      sub.room = undefined;
      void join(sub);
    }
  });

  function open(channel: string, params: unknown): LiveSubscription {
    const key = subscriptionKey(channel, params);
    let h = held.get(key);
    if (!h) {
      h = { sub: new Sub(key, channel, params, ensureEvent), users: 0 };
      held.set(key, h);
      void join(h.sub);
    }
    if (h.releaseTimer) (clearTimeout(h.releaseTimer), (h.releaseTimer = undefined));
    h.users++;
    return h.sub;
  }

  function release(sub: LiveSubscription): void {
    const h = held.get((sub as Sub).key);
    if (!h || h.sub !== sub) return;
    h.users = Math.max(0, h.users - 1);
    if (h.users > 0 || h.releaseTimer) return;
    h.releaseTimer = setTimeout(() => {
      if (h.users > 0) return;
      held.delete(h.sub.key);
      h.sub.closed = true;
      if (h.sub.room) transport.unsubscribe(h.sub.room);
      h.sub.listeners.clear();
    }, delay);
  }

  return {
    /** holds the subscription of `channel` with `params` (joining it if nobody holds it); `release` it when done */
    open,
    release,
    /** the subscription of these params if one is held (a card rendering for the first time reads what it has) */
    peek: (channel: string, params: unknown): LiveSubscription | undefined =>
      held.get(subscriptionKey(channel, params))?.sub,
    /** listens to `event` of `channel` with `params` while held; answers the function that stops (and releases) */
    listen(channel: string, params: unknown, event: string, listener: Listener): () => void {
      const sub = open(channel, params);
      const off = sub.on(event, listener);
      return () => {
        off();
        release(sub);
      };
    },
    /** subscriptions held (for tests) */
    size: () => held.size,
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
