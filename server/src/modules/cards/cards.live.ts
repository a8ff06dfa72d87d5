// Live push of card data over socket.io (no polling). A viewer subscribes to a dashboard with its filter; viewers with
// the same dashboard, filter and variables share a room, and each card of a room is evaluated once per change for all
// of them. Every evaluation records the keys it read (cardQuery.ts `depKey`); the index key → cards is what a
// committed batch of points or a presence change looks up, so only the affected cards are recomputed. Updates are
// coalesced (at most one per card per 100 ms) and evaluated in slices of 8 ms, with I/O served between slices; a
// REALTIME chart gets the rows after the last it was sent. When the last viewer of a room leaves, the room and its
// index entries go: dashboards nobody watches cost nothing.
import crypto from 'node:crypto';
import { CARD_LIVE, CardSubscribeParams, T, type CardData, type CardPush } from '@sentra/contracts';
import { invalid } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/log.js';
import type { Realtime } from '../../platform/realtime/types.js';
import type { CardEngine } from './cards.module.js';
import type { CardResult } from './cardData.js';
import { depKey } from './cardQuery.js';

interface Room {
  name: string;
  appId: number;
  dashboardId: number;
  tz: string;
  params: CardSubscribeParams;
  keys?: Set<string>;
  cards: Map<string, LiveCard>;
}

interface LiveCard {
  room: Room;
  key: string;
  deps: Set<string>;
  lastSentAt: number;
  dirty: boolean;
  /** the next update must be a full frame (a viewer joined) */
  full: boolean;
  /** REALTIME charts: time of the newest row sent */
  lastRowTs?: number;
}

export interface LiveStats {
  rooms: number;
  cards: number;
  index_keys: number;
  computed: number;
  pushed: number;
  /** time spent evaluating and emitting */
  busy_ms: number;
}

/** longest the card evaluations of one turn of the event loop run before I/O gets its turn */
const FLUSH_SLICE_MS = 8;

export function createCardsLive(opts: {
  realtime: Realtime;
  engine: CardEngine;
  log: Logger;
  coalesceMs?: number;
  now?: () => number;
}) {
  const { realtime, engine, log } = opts;
  const coalesceMs = opts.coalesceMs ?? CARD_LIVE.coalesceMs;
  const now = opts.now ?? Date.now;
  const rooms = new Map<string, Room>();
  const index = new Map<string, Set<LiveCard>>();
  const dirty = new Set<LiveCard>();
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let closed = false;
  /** a flush is evaluating (asynchronously): the next is scheduled when it ends */
  let flushing = false;
  const stats = { computed: 0, pushed: 0, busy_ms: 0 };

  function roomName(appId: number, p: CardSubscribeParams): string {
    const { dashboard_id, keys, ...filter } = p;
    const sig = JSON.stringify([filter, keys ? [...keys].sort() : null]);
    return `cards.${appId}.${dashboard_id}.${crypto.createHash('sha1').update(sig).digest('hex').slice(0, 16)}`;
  }

  function unindex(card: LiveCard) {
    for (const k of card.deps) {
      const set = index.get(k);
      if (!set) continue;
      set.delete(card);
      if (set.size === 0) index.delete(k);
    }
    card.deps = new Set();
  }

  function reindex(card: LiveCard, deps: Set<string>) {
    for (const k of card.deps)
      if (!deps.has(k)) {
        const set = index.get(k);
        set?.delete(card);
        if (set && set.size === 0) index.delete(k);
      }
    for (const k of deps)
      if (!card.deps.has(k)) {
        let set = index.get(k);
        if (!set) index.set(k, (set = new Set()));
        set.add(card);
      }
    card.deps = deps;
  }

  function schedule() {
    if (closed || immediate || flushing) return;
    let due = Infinity;
    const t = now();
    for (const c of dirty) {
      const at = c.lastSentAt + coalesceMs;
      if (at <= t || c.full) {
        immediate = setImmediate(flush);
        return;
      }
      if (at < due) due = at;
    }
    if (due === Infinity) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = undefined;
        flush();
      },
      Math.max(1, due - t),
    );
  }

  function mark(card: LiveCard, full = false) {
    if (full) card.full = true;
    if (card.dirty) return;
    card.dirty = true;
    dirty.add(card);
  }

  /** Cards reading any of these keys are recomputed (coalesced). */
  function touch(keys: Iterable<string>) {
    if (index.size === 0) return;
    let any = false;
    for (const k of keys) {
      const set = index.get(k);
      if (!set) continue;
      for (const card of set) (mark(card), (any = true));
    }
    if (any) schedule();
  }

  function flush() {
    immediate = undefined;
    if (timer) (clearTimeout(timer), (timer = undefined));
    flushing = true;
    void evaluateDirty()
      .catch((err) => log.error('card live update failed', err))
      .finally(() => {
        flushing = false;
        schedule();
      });
  }

  /**
   * The dirty cards one after the other (on SQLite an evaluation's reads answer at once, so this runs within the turn
   * of the event loop; on PostgreSQL the turn ends at each read and I/O is served meanwhile).
   */
  async function evaluateDirty() {
    const t = now();
    const until = performance.now() + FLUSH_SLICE_MS;
    for (const card of [...dirty]) {
      // the rest after a turn of the loop (schedule in flush): a dashboard's first frames are many cards at once, and
      // the same viewer's page is asking for its card views' scripts meanwhile
      if (performance.now() > until) break;
      if (!card.full && card.lastSentAt + coalesceMs > t) continue;
      dirty.delete(card);
      card.dirty = false;
      if (!rooms.has(card.room.name)) continue;
      const t0 = performance.now();
      await push(card);
      stats.busy_ms += performance.now() - t0;
    }
  }

  async function push(card: LiveCard) {
    const room = card.room;
    const full = card.full;
    card.full = false;
    try {
      const result = await engine.evaluateStored(room.appId, room.tz, room.dashboardId, card.key, room.params, now());
      if (rooms.get(room.name) === room) sent(card, result, full);
    } catch (err) {
      log.error('card live update failed', err);
    }
  }

  function sent(card: LiveCard, result: CardResult | null, full: boolean) {
    const room = card.room;
    stats.computed++;
    if (!result) {
      // the dashboard or the card is gone: stop watching it
      unindex(card);
      room.cards.delete(card.key);
      return;
    }
    reindex(card, result.deps);
    let data: CardData = result.data;
    let mode: CardPush['mode'] = 'full';
    if (result.window?.type === 'REALTIME' && Array.isArray(data.chart_data)) {
      const rows = data.chart_data as { ts: number }[];
      const newest = rows.length ? rows[rows.length - 1]!.ts : undefined;
      if (!full && card.lastRowTs !== undefined) {
        const after = rows.filter((r) => r.ts > card.lastRowTs!);
        if (after.length === 0 && data.success) return;
        data = { ...data, chart_data: after };
        mode = 'append';
      }
      if (newest !== undefined) card.lastRowTs = newest;
    }
    card.lastSentAt = now();
    stats.pushed++;
    const payload: CardPush = { room: room.name, dashboard_id: room.dashboardId, key: card.key, mode, data };
    realtime.emit(room.name, CARD_LIVE.event, payload);
  }

  realtime.channel<unknown>(CARD_LIVE.channel, {
    async join(caller, raw) {
      const parsed = CardSubscribeParams.safeParse(raw);
      if (!parsed.success)
        throw invalid(
          T.common.invalidInput,
          parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        );
      const params = parsed.data;
      const view = await engine.source.dashboard(caller, params.dashboard_id);
      const app = caller.app!;
      const name = roomName(app.id, params);
      let room = rooms.get(name);
      if (!room) {
        room = {
          name,
          appId: app.id,
          dashboardId: view.id,
          tz: app.timezone,
          params,
          keys: params.keys ? new Set(params.keys) : undefined,
          cards: new Map(),
        };
        rooms.set(name, room);
      }
      const keys = Object.keys(view.conf.dashboard ?? {}).filter((k) => !room!.keys || room!.keys.has(k));
      for (const key of keys) {
        let card = room.cards.get(key);
        if (!card)
          room.cards.set(key, (card = { room, key, deps: new Set(), lastSentAt: 0, dirty: false, full: true }));
        mark(card, true);
      }
      // the socket joins the room once join() resolves: send the first frame after that
      setImmediate(schedule);
      return name;
    },
  });

  const offEmpty = realtime.onRoomEmpty((name) => {
    const room = rooms.get(name);
    if (!room) return;
    rooms.delete(name);
    for (const card of room.cards.values()) {
      unindex(card);
      dirty.delete(card);
    }
  });

  return {
    /** points were committed: the series' param keys, for this device and for any device of the application */
    pointsCommitted(keys: Iterable<string>) {
      touch(keys);
    },
    /** a device went online/offline, was added, removed or edited */
    deviceChanged(appId: number | undefined, deviceId: number) {
      const keys = [depKey.device(deviceId)];
      if (appId !== undefined) keys.push(depKey.app(appId));
      touch(keys);
    },
    appChanged(appId: number) {
      touch([depKey.app(appId)]);
    },
    /** anything may have changed unheard (the bus reconnected): every watched card is computed again, in full */
    refreshAll() {
      for (const room of rooms.values()) for (const card of room.cards.values()) mark(card, true);
      schedule();
    },
    /** true when some watched card reads this key (cheap pre-check for the commit listener) */
    watches: (key: string) => index.has(key),
    get watching() {
      return index.size > 0;
    },
    stats(): LiveStats {
      let cards = 0;
      for (const r of rooms.values()) cards += r.cards.size;
      return { rooms: rooms.size, cards, index_keys: index.size, ...stats };
    },
    close() {
      closed = true;
      offEmpty();
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      rooms.clear();
      index.clear();
      dirty.clear();
    },
  };
}

export type CardsLive = ReturnType<typeof createCardsLive>;
