// The broker's state that outlives a connection and a restart (issue 27): retained messages, persistent sessions whose
// clients are away, and the QoS 1 messages queued for them. It lives on the event loop, which sees every message of
// every broker thread and answers every CONNECT: one owner, so a session and the retained messages are the same
// whichever thread a client lands on. A session's client returns → the session (its subscriptions and queued messages)
// is handed to that thread with the CONNECT's answer and leaves the store; it goes away → the thread's record of it
// (its subscriptions) comes back here. Held in memory, written to SQLite in one transaction at most every
// FLUSH_MS (never a write per message on the event loop), read once at start.
import type Database from 'better-sqlite3';
import { TopicFilters } from '../topic-filters.js';

/** queued messages per away session at most (the oldest are dropped and counted beyond it) */
export const MAX_QUEUED_MESSAGES = 1000;
/** queued bytes (payloads and MQTT 5 properties) per away session at most (the oldest are dropped and counted beyond it) */
export const MAX_QUEUED_BYTES = 1024 * 1024;
/** away sessions one identity may hold (the one away longest ends first): client ids are the client's to choose */
export const MAX_SESSIONS_PER_IDENTITY = 10;
/** retained messages kept at most, and their bytes (a message beyond either is not kept across restarts; counted) */
export const MAX_RETAINED = 100_000;
export const MAX_RETAINED_BYTES = 64 * 1024 * 1024;
/** write-behind period */
const FLUSH_MS = 200;

export interface StoredMessage {
  topic: string;
  payload: Buffer;
  qos: 0 | 1 | 2;
  properties?: Record<string, unknown>;
  /** ms since the epoch; undefined: never */
  expiresAt?: number;
}
export interface Subscription {
  topic: string;
  qos: number;
}
/** a session handed back to its returning client */
export interface ResumedSession {
  subscriptions: Subscription[];
  queued: StoredMessage[];
}

interface AwaySession {
  identityKey: string;
  subscriptions: Subscription[];
  expiresAt: number;
  queued: StoredMessage[];
  bytes: number;
  /** rows of its queued messages are in SQLite (a take or a drop must delete them) */
  stored: boolean;
}

/** whether MQTT topic filter `filter` matches `topic` ('+' one level, '#' the rest) */
export function filterMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return i > 0 || !topic.startsWith('$');
    if (i >= t.length) return false;
    if (f[i] === '+') {
      if (i === 0 && topic.startsWith('$')) return false;
      continue;
    }
    if (f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/** what a queued message counts against its session's MAX_QUEUED_BYTES: its payload and its MQTT 5 properties */
const bytesOf = (m: StoredMessage) =>
  m.payload.length + (m.properties === undefined ? 0 : JSON.stringify(m.properties).length);
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
const parse = (s: string | null) => (s === null ? undefined : (JSON.parse(s) as Record<string, unknown>));

export class SessionStore {
  private retained = new Map<string, StoredMessage>();
  private retainedBytes = 0;
  private away = new Map<string, AwaySession>();
  /** every filter of every away session: most messages match none, and are passed by in one walk */
  private awayFilters = new TopicFilters();
  /** pending writes, in order */
  private ops: Array<() => void> = [];
  private flushing: NodeJS.Timeout | undefined;
  readonly counters = { queued_dropped: 0, retained_refused: 0, sessions_expired: 0, store_write_failures: 0 };
  private readonly sql;

  /** `failed` hears of a batch that could not be written (a full disk, a storage fault): its changes stay in memory
   * and are lost at the next restart; the broker goes on (counted as `store_write_failures`) */
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
    private readonly failed: (err: unknown) => void = () => {},
  ) {
    this.sql = {
      putRetained: db.prepare(
        'INSERT OR REPLACE INTO mqtt_retained (topic, payload, qos, properties, expires_at) VALUES (?, ?, ?, ?, ?)',
      ),
      delRetained: db.prepare('DELETE FROM mqtt_retained WHERE topic = ?'),
      putSession: db.prepare(
        'INSERT OR REPLACE INTO mqtt_sessions (client_id, identity_key, subscriptions, expires_at) VALUES (?, ?, ?, ?)',
      ),
      delSession: db.prepare('DELETE FROM mqtt_sessions WHERE client_id = ?'),
      putQueued: db.prepare(
        'INSERT INTO mqtt_queued (client_id, topic, payload, qos, properties, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      delQueuedOf: db.prepare('DELETE FROM mqtt_queued WHERE client_id = ?'),
      delOldestQueued: db.prepare(
        'DELETE FROM mqtt_queued WHERE id IN (SELECT id FROM mqtt_queued WHERE client_id = ? ORDER BY id LIMIT ?)',
      ),
      delQueuedMessage: db.prepare(
        'DELETE FROM mqtt_queued WHERE id = (SELECT id FROM mqtt_queued WHERE client_id = ? AND topic = ? AND payload = ? ORDER BY id LIMIT 1)',
      ),
    };
    this.load();
  }

  private load() {
    const now = this.now();
    type Row = { topic: string; payload: Buffer; qos: number; properties: string | null; expires_at: number | null };
    for (const r of this.db
      .prepare('SELECT topic, payload, qos, properties, expires_at FROM mqtt_retained')
      .all() as Row[]) {
      if (r.expires_at !== null && r.expires_at <= now) continue;
      const m: StoredMessage = {
        topic: r.topic,
        payload: r.payload,
        qos: r.qos as 0 | 1 | 2,
        properties: parse(r.properties),
        expiresAt: r.expires_at ?? undefined,
      };
      this.retained.set(r.topic, m);
      this.retainedBytes += bytesOf(m);
    }
    type SessionRow = { client_id: string; identity_key: string; subscriptions: string; expires_at: number };
    for (const r of this.db
      .prepare('SELECT client_id, identity_key, subscriptions, expires_at FROM mqtt_sessions')
      .all() as SessionRow[]) {
      this.addAway(r.client_id, {
        identityKey: r.identity_key,
        subscriptions: JSON.parse(r.subscriptions) as Subscription[],
        expiresAt: r.expires_at,
        queued: [],
        bytes: 0,
        stored: true,
      });
    }
    for (const r of this.db
      .prepare('SELECT client_id, topic, payload, qos, properties, expires_at FROM mqtt_queued ORDER BY id')
      .all() as Array<Row & { client_id: string }>) {
      const s = this.away.get(r.client_id);
      if (!s) continue;
      s.queued.push({
        topic: r.topic,
        payload: r.payload,
        qos: r.qos as 0 | 1 | 2,
        properties: parse(r.properties),
        expiresAt: r.expires_at ?? undefined,
      });
      s.bytes += bytesOf(s.queued[s.queued.length - 1]!);
    }
    this.expire();
  }

  private write(op: () => void) {
    this.ops.push(op);
    this.flushing ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** writes what is pending, in one transaction */
  flush(): void {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = undefined;
    if (this.ops.length === 0) return;
    const ops = this.ops;
    this.ops = [];
    try {
      this.db.transaction(() => ops.forEach((op) => op()))();
    } catch (err) {
      this.counters.store_write_failures++;
      this.failed(err);
    }
  }

  /** the retained messages (loaded at start, for every broker thread), expired ones left out */
  retainedMessages(): StoredMessage[] {
    const now = this.now();
    return [...this.retained.values()].filter((m) => m.expiresAt === undefined || m.expiresAt > now);
  }

  /** a retained publish: kept (an empty payload deletes the topic's) */
  retain(m: StoredMessage): void {
    const before = this.retained.get(m.topic);
    if (m.payload.length === 0) {
      if (!before) return;
      this.retained.delete(m.topic);
      this.retainedBytes -= bytesOf(before);
      this.write(() => this.sql.delRetained.run(m.topic));
      return;
    }
    const kept: StoredMessage = {
      topic: m.topic,
      payload: Buffer.from(m.payload),
      qos: m.qos,
      properties: m.properties,
      expiresAt: m.expiresAt,
    };
    const bytes = this.retainedBytes - (before ? bytesOf(before) : 0) + bytesOf(kept);
    if ((!before && this.retained.size >= MAX_RETAINED) || bytes > MAX_RETAINED_BYTES) {
      this.counters.retained_refused++;
      return;
    }
    this.retainedBytes = bytes;
    this.retained.set(m.topic, kept);
    this.write(() =>
      this.sql.putRetained.run(kept.topic, kept.payload, kept.qos, json(kept.properties), kept.expiresAt ?? null),
    );
  }

  private addAway(clientId: string, s: AwaySession) {
    this.away.set(clientId, s);
    for (const sub of s.subscriptions) this.awayFilters.add(sub.topic);
  }

  private removeAway(clientId: string): AwaySession | undefined {
    const s = this.away.get(clientId);
    if (!s) return undefined;
    this.away.delete(clientId);
    for (const sub of s.subscriptions) this.awayFilters.remove(sub.topic);
    if (s.stored) {
      this.write(() => {
        this.sql.delSession.run(clientId);
        this.sql.delQueuedOf.run(clientId);
      });
    }
    return s;
  }

  /** a persistent session's client went away: its subscriptions are kept until `expiresAt` (ms since the epoch) */
  keep(clientId: string, identityKey: string, subscriptions: Subscription[], expiresAt: number): void {
    // a stored session is its owner's: another identity that used the same client id meanwhile does not replace it
    const stored = this.away.get(clientId);
    if (stored && stored.identityKey !== identityKey && stored.expiresAt > this.now()) return;
    this.removeAway(clientId);
    // an identity's sessions are bounded: the one away longest ends first
    const own = [...this.away.entries()].filter(([, s]) => s.identityKey === identityKey);
    for (const [id] of own.slice(0, Math.max(0, own.length - MAX_SESSIONS_PER_IDENTITY + 1))) this.removeAway(id);
    const s: AwaySession = { identityKey, subscriptions, expiresAt, queued: [], bytes: 0, stored: true };
    this.addAway(clientId, s);
    this.write(() => this.sql.putSession.run(clientId, identityKey, JSON.stringify(subscriptions), expiresAt));
  }

  /**
   * The client of an away session connects again as `identityKey`: its session (subscriptions, queued messages not
   * expired) leaves the store for the connection; `discard` (a clean session, MQTT 5 Clean Start) ends it instead.
   * Another identity using the client id neither gets nor ends it.
   */
  take(clientId: string, identityKey: string, discard: boolean): ResumedSession | undefined {
    const s = this.away.get(clientId);
    if (!s || s.identityKey !== identityKey) return undefined;
    this.removeAway(clientId);
    if (discard || s.expiresAt <= this.now()) return undefined;
    const now = this.now();
    return {
      subscriptions: s.subscriptions,
      queued: s.queued.filter((m) => m.expiresAt === undefined || m.expiresAt > now),
    };
  }

  /** whether any away session subscribes to anything (else no message needs looking at) */
  get anyAway(): boolean {
    return this.awayFilters.size > 0;
  }

  /** whether an away session of `identityKey` subscribes to `topic` (a message there would wait for it) */
  awaits(topic: string, identityKey?: string): boolean {
    if (this.awayFilters.size === 0 || !this.awayFilters.matches(topic)) return false;
    for (const s of this.away.values())
      if (
        (identityKey === undefined || s.identityKey === identityKey) &&
        s.subscriptions.some((sub) => sub.qos > 0 && filterMatches(sub.topic, topic))
      )
        return true;
    return false;
  }

  /**
   * A message published while sessions are away: queued for each away session subscribed to it with QoS 1 or 2, at
   * the lower of the two QoS (a QoS 0 message is not queued, as MQTT allows). Bounded per session.
   */
  enqueue(m: StoredMessage): void {
    if (m.qos === 0 || this.awayFilters.size === 0 || !this.awayFilters.matches(m.topic)) return;
    for (const [clientId, s] of this.away) {
      let qos = 0;
      for (const sub of s.subscriptions) if (sub.qos > qos && filterMatches(sub.topic, m.topic)) qos = sub.qos;
      if (qos === 0) continue;
      const q: StoredMessage = {
        topic: m.topic,
        payload: Buffer.from(m.payload),
        qos: Math.min(qos, m.qos) as 1 | 2,
        properties: m.properties,
        expiresAt: m.expiresAt,
      };
      s.queued.push(q);
      s.bytes += bytesOf(q);
      let drop = 0;
      while (s.queued.length - drop > MAX_QUEUED_MESSAGES || (s.bytes > MAX_QUEUED_BYTES && s.queued.length - drop > 1))
        s.bytes -= bytesOf(s.queued[drop++]!);
      if (drop > 0) {
        s.queued.splice(0, drop);
        this.counters.queued_dropped += drop;
        this.write(() => this.sql.delOldestQueued.run(clientId, drop));
      }
      this.write(() =>
        this.sql.putQueued.run(clientId, q.topic, q.payload, q.qos, json(q.properties), q.expiresAt ?? null),
      );
    }
  }

  /** messages that were in flight to a session's client when it went away: queued again, first (bounded as ever) */
  requeue(clientId: string, messages: StoredMessage[]): void {
    const s = this.away.get(clientId);
    if (!s || messages.length === 0) return;
    s.queued = [...messages.map((m) => ({ ...m, payload: Buffer.from(m.payload) })), ...s.queued];
    s.bytes = s.queued.reduce((n, m) => n + bytesOf(m), 0);
    while (s.queued.length > MAX_QUEUED_MESSAGES || (s.bytes > MAX_QUEUED_BYTES && s.queued.length > 1)) {
      s.bytes -= bytesOf(s.queued.shift()!);
      this.counters.queued_dropped++;
    }
    const queued = s.queued;
    // rare (a disconnect with messages unacknowledged): the session's rows are written again in their new order
    this.write(() => {
      this.sql.delQueuedOf.run(clientId);
      for (const q of queued)
        this.sql.putQueued.run(clientId, q.topic, q.payload, q.qos, json(q.properties), q.expiresAt ?? null);
    });
  }

  /** a queued message nobody wants any more (a command whose time-out passed): the first copy for an away session of
   * `identityKey` on `topic` with this payload goes */
  unqueue(topic: string, payload: Buffer, identityKey?: string): boolean {
    for (const [clientId, s] of this.away) {
      if (identityKey !== undefined && s.identityKey !== identityKey) continue;
      const at = s.queued.findIndex((m) => m.topic === topic && m.payload.equals(payload));
      if (at < 0) continue;
      const [m] = s.queued.splice(at, 1);
      s.bytes -= bytesOf(m!);
      this.write(() => this.sql.delQueuedMessage.run(clientId, topic, m!.payload));
      return true;
    }
    return false;
  }

  /** away sessions whose time passed end (checked by the broker every minute) */
  expire(): void {
    const now = this.now();
    for (const [clientId, s] of [...this.away]) {
      if (s.expiresAt > now) continue;
      this.removeAway(clientId);
      this.counters.sessions_expired++;
    }
  }

  /** away sessions and their queued messages (metrics) */
  get size(): { sessions: number; queued: number; retained: number } {
    let queued = 0;
    for (const s of this.away.values()) queued += s.queued.length;
    return { sessions: this.away.size, queued, retained: this.retained.size };
  }

  close(): void {
    this.flush();
  }
}
