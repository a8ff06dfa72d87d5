// The live data of one dashboard channel (docs/conventions.md "Live data like Grafana Live"): the cards' state over one
// held subscription of the live hub (web/src/live/hub.ts: shared by every card of the dashboard and filter, left a few
// seconds after its last card went). Pushes are buffered per card (a full frame replaces, REALTIME appends are merged,
// bounded by the chart's N data) and applied once per animation frame. No React here.
import { CARD_LIVE, type CardData, type CardPush, type CardSubscribeParams } from '@sentra/contracts';
import type { LiveHub, LiveStatus, LiveSubscription } from '../../live/hub.js';

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

export type FeedStatus = LiveStatus;

export interface FeedScheduler {
  request(fn: () => void): unknown;
  now(): number;
}

/** requestAnimationFrame where there is one (a hidden tab pauses it: updates wait and merge), else a 16 ms timer. */
export const frameScheduler: FeedScheduler = {
  request: (fn) =>
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => fn()) : setTimeout(fn, 16),
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
  private scheduled = false;

  constructor(
    readonly sub: LiveSubscription,
    private scheduler: FeedScheduler = frameScheduler,
  ) {
    // the hub hands over only the pushes of this subscription's room
    sub.on(CARD_LIVE.event, (payload) => {
      const p = payload as CardPush | null;
      if (!p || typeof p.key !== 'string' || !p.data) return;
      this.receive(p.key, p.mode === 'append' ? 'append' : 'full', p.data);
    });
  }

  get params(): CardSubscribeParams {
    return this.sub.params as CardSubscribeParams;
  }

  get status(): FeedStatus {
    return this.sub.status;
  }

  get error(): string | undefined {
    return this.sub.error;
  }

  /** A push for one card; applied at the next animation frame together with every other push of that frame. */
  receive(key: string, mode: CardPush['mode'], data: CardData): void {
    this.pending.set(key, mergePending(this.pending.get(key), { mode, data }));
    if (this.scheduled) return;
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
    return this.sub.onStatus(fn);
  }
}

const feeds = new WeakMap<LiveSubscription, CardFeed>();

/** The card state of a held dashboard subscription: one per subscription, gone with it. */
function cardFeedOf(sub: LiveSubscription, scheduler: FeedScheduler): CardFeed {
  let feed = feeds.get(sub);
  if (!feed) feeds.set(sub, (feed = new CardFeed(sub, scheduler)));
  return feed;
}

/** Holds the hub's subscription of a dashboard channel and answers its cards' feed; `releaseFeed` when done. */
export function acquireFeed(
  hub: LiveHub,
  params: CardSubscribeParams,
  scheduler: FeedScheduler = frameScheduler,
): CardFeed {
  return cardFeedOf(hub.open(CARD_LIVE.channel, params), scheduler);
}

export function releaseFeed(hub: LiveHub, feed: CardFeed): void {
  hub.release(feed.sub);
}

/** The feed of these parameters if its subscription is held (a card rendering for the first time reads what it has). */
export function peekFeed(hub: LiveHub, params: CardSubscribeParams): CardFeed | undefined {
  const sub = hub.peek(CARD_LIVE.channel, params);
  return sub && cardFeedOf(sub, frameScheduler);
}
