// The live data of one dashboard channel (STYLE.md "Live data like Grafana Live"): one subscription per dashboard
// and filter, shared by every card of it; pushes are buffered per card (a full frame replaces, REALTIME appends are
// merged, bounded by the chart's N data), applied once per animation frame, and the subscription is dropped a few
// seconds after its last card left (a re-render or a quick navigation back reuses it). No React here.
import { CARD_LIVE, type CardData, type CardPush, type CardSubscribeParams } from '@sentra/contracts';

/** What the feed needs of a socket: the shared connection (`liveSocket.ts`) or a test double. */
export interface LiveTransport {
  /** resolves with the room; rejects with the server's envelope (`{response_result, message}`) */
  subscribe(channel: string, params: unknown): Promise<string>;
  unsubscribe(room: string): void;
  on(event: string, fn: (payload: unknown) => void): () => void;
  /** after a reconnect the server has forgotten our rooms: subscribe again (it then sends full frames) */
  onReconnect(fn: () => void): () => void;
}

export type ChartRow = Record<string, unknown>;

export interface CardState {
  data: CardData;
  /** increases with every full frame: a chart redraws from scratch */
  frame: number;
  /** increases with every append */
  seq: number;
  /** the latest appends (bounded), so a chart can extend its traces instead of redrawing */
  appends: { seq: number; rows: ChartRow[] }[];
  receivedAt: number;
}

export type FeedStatus = 'connecting' | 'live' | 'failed';

export interface FeedScheduler {
  request(fn: () => void): unknown;
  now(): number;
}

/** requestAnimationFrame where there is one (a hidden tab pauses it: updates wait and merge), else a 16 ms timer. */
export const frameScheduler: FeedScheduler = {
  request: (fn) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => fn()) : setTimeout(fn, 16)),
  now: () => Date.now(),
};

/** Rows a REALTIME chart keeps when the window does not say N (and the hard bound of any chart's buffer). */
export const MAX_CHART_ROWS = 5000;
/** Appends remembered for charts that missed frames; older ones force a full redraw. */
export const MAX_APPENDS = 32;

interface Pending {
  mode: CardPush['mode'];
  data: CardData;
}

function rowsOf(d: CardData | undefined): ChartRow[] {
  return Array.isArray(d?.chart_data) ? (d!.chart_data as ChartRow[]) : [];
}

function bounded(rows: ChartRow[], ndata: number | undefined): ChartRow[] {
  const keep = Math.min(MAX_CHART_ROWS, ndata && ndata > 0 ? ndata : MAX_CHART_ROWS);
  return rows.length > keep ? rows.slice(rows.length - keep) : rows;
}

/** Two pushes of one card within a frame, as one. */
export function mergePending(prev: Pending | undefined, next: Pending): Pending {
  if (!prev || next.mode === 'full') return next;
  const rows = [...rowsOf(prev.data), ...rowsOf(next.data)];
  const ndata = next.data.window?.ndata ?? prev.data.window?.ndata;
  return { mode: prev.mode, data: { ...prev.data, ...next.data, chart_data: bounded(rows, ndata) } };
}

/** A pending push applied to a card's state. */
export function applyPush(prev: CardState | undefined, p: Pending, at: number): CardState {
  if (p.mode === 'full' || !prev) {
    return { data: p.data, frame: (prev?.frame ?? 0) + 1, seq: prev?.seq ?? 0, appends: [], receivedAt: at };
  }
  const rows = rowsOf(p.data);
  const ndata = p.data.window?.ndata ?? prev.data.window?.ndata;
  const seq = prev.seq + 1;
  const appends = [...prev.appends, { seq, rows }];
  if (appends.length > MAX_APPENDS) appends.splice(0, appends.length - MAX_APPENDS);
  return {
    data: { ...prev.data, ...p.data, chart_data: bounded([...rowsOf(prev.data), ...rows], ndata) },
    frame: prev.frame,
    seq,
    appends,
    receivedAt: at,
  };
}

export class CardFeed {
  private states = new Map<string, CardState>();
  private pending = new Map<string, Pending>();
  private listeners = new Map<string, Set<() => void>>();
  private statusListeners = new Set<() => void>();
  private scheduled = false;
  private room?: string;
  private offs: (() => void)[] = [];
  private closed = false;
  status: FeedStatus = 'connecting';
  error?: string;

  constructor(
    private transport: LiveTransport,
    readonly params: CardSubscribeParams,
    private scheduler: FeedScheduler = frameScheduler,
  ) {}

  start(): void {
    this.offs.push(
      this.transport.on(CARD_LIVE.event, (payload) => {
        const p = payload as CardPush | null;
        if (!p || p.room !== this.room || typeof p.key !== 'string' || !p.data) return;
        this.receive(p.key, p.mode === 'append' ? 'append' : 'full', p.data);
      }),
      this.transport.onReconnect(() => void this.join()),
    );
    void this.join();
  }

  private async join(): Promise<void> {
    if (this.closed) return;
    try {
      const room = await this.transport.subscribe(CARD_LIVE.channel, this.params);
      if (this.closed) return this.transport.unsubscribe(room);
      this.room = room;
      this.setStatus('live');
    } catch (err) {
      this.error = (err as { message?: string } | null)?.message;
      this.setStatus('failed');
    }
  }

  private setStatus(s: FeedStatus) {
    this.status = s;
    this.statusListeners.forEach((l) => l());
  }

  /** A push for one card; applied at the next animation frame together with every other push of that frame. */
  receive(key: string, mode: CardPush['mode'], data: CardData): void {
    this.pending.set(key, mergePending(this.pending.get(key), { mode, data }));
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    this.scheduler.request(() => this.flush());
  }

  /** Applies every buffered push and tells the cards that changed (normally called by the frame scheduler). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const at = this.scheduler.now();
    const changed = [...this.pending];
    this.pending.clear();
    for (const [key, p] of changed) this.states.set(key, applyPush(this.states.get(key), p, at));
    for (const [key] of changed) this.listeners.get(key)?.forEach((l) => l());
  }

  get(key: string): CardState | undefined {
    return this.states.get(key);
  }

  listen(key: string, fn: () => void): () => void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(fn);
    return () => void set!.delete(fn);
  }

  listenStatus(fn: () => void): () => void {
    this.statusListeners.add(fn);
    return () => void this.statusListeners.delete(fn);
  }

  close(): void {
    this.closed = true;
    this.offs.forEach((off) => off());
    if (this.room) this.transport.unsubscribe(this.room);
    this.room = undefined;
    this.listeners.clear();
    this.statusListeners.clear();
  }
}

/** How long a subscription outlives its last card. */
export const RELEASE_DELAY_MS = 5000;

/** Feeds shared by signature (dashboard + filter + variables + keys), released after a delay. */
export class FeedHub {
  private feeds = new Map<string, { feed: CardFeed; refs: number; timer?: ReturnType<typeof setTimeout> }>();

  constructor(
    private transport: () => LiveTransport,
    private scheduler: FeedScheduler = frameScheduler,
    private releaseDelayMs = RELEASE_DELAY_MS,
  ) {}

  static signature(p: CardSubscribeParams): string {
    // keys in code-unit order: a canonical order is all a key needs (localeCompare's first call builds an ICU
    // collator, 20-40 ms on the path from a dashboard's record to its channel's subscribe)
    const sorted = (v: unknown): unknown =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sorted(x)])) : v;
    return JSON.stringify(sorted(p));
  }

  acquire(params: CardSubscribeParams): CardFeed {
    const sig = FeedHub.signature(params);
    let entry = this.feeds.get(sig);
    if (!entry) {
      const feed = new CardFeed(this.transport(), params, this.scheduler);
      entry = { feed, refs: 0 };
      this.feeds.set(sig, entry);
      feed.start();
    }
    if (entry.timer) clearTimeout(entry.timer), (entry.timer = undefined);
    entry.refs++;
    return entry.feed;
  }

  /** The feed of these parameters if one is open (a card rendering for the first time reads what it holds). */
  peek(params: CardSubscribeParams): CardFeed | undefined {
    return this.feeds.get(FeedHub.signature(params))?.feed;
  }

  release(feed: CardFeed): void {
    const sig = FeedHub.signature(feed.params);
    const entry = this.feeds.get(sig);
    if (!entry || entry.feed !== feed) return;
    entry.refs = Math.max(0, entry.refs - 1);
    if (entry.refs > 0 || entry.timer) return;
    entry.timer = setTimeout(() => {
      if (entry.refs > 0) return;
      this.feeds.delete(sig);
      feed.close();
    }, this.releaseDelayMs);
  }

  get size(): number {
    return this.feeds.size;
  }
}
