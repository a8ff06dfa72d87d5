// The broker's state that outlives a connection and a restart (issue 27): retained messages, persistent sessions whose
// clients are away, and the QoS 1 messages queued for them. It lives on the event loop, which sees every message of
// every broker thread and answers every CONNECT: one owner, so a session and the retained messages are the same
// whichever thread a client lands on. A session's client returns → the session (its subscriptions and queued messages)
// is handed to that thread with the CONNECT's answer and leaves the store; it goes away → the thread's record of it
// (its subscriptions) comes back here. Held in memory, its changes written in one transaction at most every
// FLUSH_MS (never a write per message on the event loop), read once at start. Where they are written is the
// persistence's (persistence.ts: SQLite or PostgreSQL); everything here stays synchronous, except taking a session from
// the database when several gateways share it (takeStored, cluster.ts).
// Over 500 lines, kept whole: one class whose maps change together in each call (a retained message, its holder's
// shares and the change to write; an away session, its filters, its queue and its bounds), so that every change is
// recorded for the persistence in the order it was made; what stands alone is apart (persistence.ts and its two
// engines, topic-filters.ts).
import { TopicFilters } from '../topic-filters.js';
import type {
  BrokerStateChange,
  BrokerStatePersistence,
  BrokerStateSnapshot,
  QueuedRow,
  RetainedRow,
} from './persistence.js';
import { sqliteBrokerState, type SqliteDatabase } from './sqlite-persistence.js';

/** queued messages per away session at most (the oldest are dropped and counted beyond it) */
export const MAX_QUEUED_MESSAGES = 1000;
/** queued bytes (payloads and MQTT 5 properties) per away session at most (the oldest are dropped and counted beyond it) */
export const MAX_QUEUED_BYTES = 1024 * 1024;
/** QoS 2 ids awaiting release an away session keeps (a broker thread keeps as many per connection) */
export const MAX_AWAITING_RELEASE = 1000;
/** away sessions one identity may hold (the one away longest ends first): client ids are the client's to choose */
export const MAX_SESSIONS_PER_IDENTITY = 10;
/** retained messages kept at most on the platform, and their bytes (topics and payloads) */
export const MAX_RETAINED = 100_000;
export const MAX_RETAINED_BYTES = 64 * 1024 * 1024;

/** how many retained messages (topics) and bytes one holder may keep */
export interface RetainedQuota {
  count: number;
  bytes: number;
}
/**
 * The shares of the retained store: per device (an identity), per tenant, and the platform's. Past three quarters of
 * the platform's, a tenant holding more than its fair part (the platform's over the tenants holding any) gets no more,
 * so that tenants below it still find room: one tenant's flood never evicts or blocks another's retained message.
 */
export interface RetainedLimits {
  device: RetainedQuota;
  tenant: RetainedQuota;
  platform: RetainedQuota;
}
export const DEFAULT_RETAINED_LIMITS: RetainedLimits = {
  device: { count: 100, bytes: 1024 * 1024 },
  tenant: { count: 10_000, bytes: 16 * 1024 * 1024 },
  platform: { count: MAX_RETAINED, bytes: MAX_RETAINED_BYTES },
};
/** the holder of the gateway's own retained publishes: within the platform's share only */
export const GATEWAY_HOLDER = { device: 'gateway', tenant: 'gateway' } as const;
/** whose retained message it is: the publishing identity and its tenant */
export interface RetainedHolder {
  device: string;
  tenant: string;
}
/** why a retained message was not kept */
export type RetainedRefusal = 'device' | 'tenant' | 'platform' | 'fair_share';

interface RetainedEntry {
  /** the topic's message (the one before, while an admitted one is on its way) */
  message?: StoredMessage;
  holder: RetainedHolder;
  /** what it counts against its holder's shares: the admitted message's from its admission on */
  bytes: number;
  /** admitted, its message not arrived yet */
  pending?: boolean;
}
class Usage {
  count = 0;
  bytes = 0;
}
/** what a retained message counts against its holders' shares: its topic and its payload */
const retainedBytes = (topic: string, payloadBytes: number) => Buffer.byteLength(topic) + payloadBytes;
/** write-behind period */
const FLUSH_MS = 200;
/** a failed flush is tried again after this, doubling up to RETRY_MAX_MS while the storage stays down */
const RETRY_MAX_MS = 5_000;

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
  /** QoS 2 packet ids received and not yet released (MQTT-4.3.3): a copy re-sent after the return is not stored again */
  awaiting?: number[];
}

interface AwaySession {
  identityKey: string;
  subscriptions: Subscription[];
  expiresAt: number;
  queued: StoredMessage[];
  bytes: number;
  /** rows of its queued messages are stored (a take or a drop must delete them) */
  stored: boolean;
  /** QoS 2 ids awaiting their PUBREL when its client went (kept in memory: across a restart they are not) */
  awaiting?: number[];
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
const queuedRow = (clientId: string, q: StoredMessage): QueuedRow => ({
  clientId,
  topic: q.topic,
  payload: q.payload,
  qos: q.qos,
  properties: json(q.properties),
  expiresAt: q.expiresAt ?? null,
});

export interface SessionStoreOptions {
  now?: () => number;
  /** hears of a flush that could not be written, once per outage (see the constructor) */
  failed?: (err: unknown) => void;
  limits?: RetainedLimits;
}
const parse = (s: string | null) => (s === null ? undefined : (JSON.parse(s) as Record<string, unknown>));
/** a stored row (retained or queued) as the message it holds */
const messageOf = (r: Pick<RetainedRow, 'topic' | 'payload' | 'qos' | 'properties' | 'expiresAt'>): StoredMessage => ({
  topic: r.topic,
  payload: r.payload,
  qos: r.qos as 0 | 1 | 2,
  properties: parse(r.properties),
  expiresAt: r.expiresAt ?? undefined,
});
/** whose share a stored retained message counts against (kept before holders were recorded: one of its own) */
const holderOfRow = (r: RetainedRow): RetainedHolder => ({
  device: r.holder ?? 'unknown',
  tenant: r.tenant ?? 'unknown',
});
/** the same retained message: payload, QoS, expiry and properties */
const sameMessage = (a: StoredMessage, b: StoredMessage) =>
  a.qos === b.qos &&
  a.expiresAt === b.expiresAt &&
  a.payload.equals(b.payload) &&
  JSON.stringify(a.properties ?? null) === JSON.stringify(b.properties ?? null);

export class SessionStore {
  private retained = new Map<string, RetainedEntry>();
  private retainedTotal = new Usage();
  private retainedByDevice = new Map<string, Usage>();
  private retainedByTenant = new Map<string, Usage>();
  private away = new Map<string, AwaySession>();
  /** every filter of every away session: most messages match none, and are passed by in one walk */
  private awayFilters = new TopicFilters();
  /** pending changes, in order (a failed flush's first) */
  private ops: BrokerStateChange[] = [];
  private flushing: NodeJS.Timeout | undefined;
  /** the flush being written */
  private writing: Promise<void> | undefined;
  /** the last flush failed: the next failure is the same outage, not reported again */
  private failing = false;
  /** a resync under way (`beginResync`): what changed here since (`r:` a retained topic, `s:` a client id's session),
   * newer here than the database read after it */
  private touched: Set<string> | undefined;
  private retryMs = FLUSH_MS;
  private closed = false;
  private readonly persistence: BrokerStatePersistence;
  readonly counters = {
    queued_dropped: 0,
    retained_refused: 0,
    retained_refused_device: 0,
    retained_refused_tenant: 0,
    retained_refused_platform: 0,
    retained_refused_fair_share: 0,
    retained_expired: 0,
    sessions_expired: 0,
    store_write_failures: 0,
  };
  /**
   * The store over what `persistence` holds: `loaded` (what `SessionStore.open` read), or read at once (SQLite, whose
   * persistence reads synchronously; a better-sqlite3 database is taken as SQLite's persistence).
   * `failed` hears that changes could not be written (a full disk, a storage fault, PostgreSQL down), once per outage:
   * the changes stay in memory and are written by a later flush (tried again every few seconds), so nothing is lost
   * while the gateway runs; the broker goes on (each failed flush is counted as `store_write_failures`).
   */
  constructor(
    persistence: BrokerStatePersistence | SqliteDatabase,
    private readonly now: () => number = Date.now,
    private readonly failed: (err: unknown) => void = () => {},
    private readonly limits: RetainedLimits = DEFAULT_RETAINED_LIMITS,
    loaded?: BrokerStateSnapshot,
  ) {
    this.persistence = 'write' in persistence ? persistence : sqliteBrokerState(persistence);
    const snapshot = loaded ?? this.persistence.loadSync?.();
    if (!snapshot) throw new Error('this persistence loads asynchronously: use await SessionStore.open(persistence)');
    this.load(snapshot);
  }

  /** the store over what `persistence` holds, read first (await it before the broker listens) */
  static async open(persistence: BrokerStatePersistence, opts: SessionStoreOptions = {}): Promise<SessionStore> {
    const loaded = await persistence.load();
    return new SessionStore(persistence, opts.now, opts.failed, opts.limits, loaded);
  }

  private load(loaded: BrokerStateSnapshot) {
    const now = this.now();
    for (const r of loaded.retained) {
      if (r.expiresAt !== null && r.expiresAt <= now) continue;
      const bytes = retainedBytes(r.topic, r.payload.length);
      this.account(r.topic, { message: messageOf(r), holder: holderOfRow(r), bytes });
    }
    for (const r of loaded.sessions) {
      this.addAway(r.clientId, {
        identityKey: r.identityKey,
        subscriptions: JSON.parse(r.subscriptions) as Subscription[],
        expiresAt: r.expiresAt,
        queued: [],
        bytes: 0,
        stored: true,
      });
    }
    for (const r of loaded.queued) {
      const s = this.away.get(r.clientId);
      if (!s) continue;
      s.queued.push(messageOf(r));
      s.bytes += bytesOf(s.queued[s.queued.length - 1]!);
    }
    this.expire();
  }

  private write(op: BrokerStateChange) {
    this.ops.push(op);
    if (!this.failing) this.flushing ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /**
   * Writes what is pending, in one transaction (on SQLite at once, before it returns); resolves when it is stored or
   * its write failed (then the changes wait for the next flush). One flush is written at a time: one asked for while
   * another is under way follows it.
   */
  flush(): Promise<void> {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = undefined;
    if (this.writing) return this.writing.then(() => this.flush());
    if (this.ops.length === 0) return Promise.resolve();
    const ops = this.ops;
    this.ops = [];
    const writing = this.persistence
      .write(ops)
      .then(
        () => {
          this.failing = false;
          this.retryMs = FLUSH_MS;
        },
        (err: unknown) => {
          // kept, first: the next flush writes them with what came since, in order
          this.ops = this.ops.length === 0 ? ops : ops.concat(this.ops);
          this.counters.store_write_failures++;
          if (!this.failing) this.failed(err);
          this.failing = true;
          if (this.closed) return;
          this.flushing = setTimeout(() => void this.flush(), this.retryMs);
          this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        },
      )
      .finally(() => {
        this.writing = undefined;
      });
    this.writing = writing;
    return writing;
  }

  /** changes not yet stored (metrics: above zero for long, the storage is failing) */
  get pendingWrites(): number {
    return this.ops.length;
  }

  /** the retained messages (loaded at start, for every broker thread), expired ones left out */
  retainedMessages(): StoredMessage[] {
    const now = this.now();
    const out: StoredMessage[] = [];
    for (const e of this.retained.values())
      if (e.message && (e.message.expiresAt === undefined || e.message.expiresAt > now)) out.push(e.message);
    return out;
  }

  /** a holder's use of the retained store (tests, metrics) */
  retainedUse(holder: Partial<RetainedHolder> = {}): { count: number; bytes: number } {
    const u =
      holder.device !== undefined
        ? this.retainedByDevice.get(holder.device)
        : holder.tenant !== undefined
          ? this.retainedByTenant.get(holder.tenant)
          : this.retainedTotal;
    return { count: u?.count ?? 0, bytes: u?.bytes ?? 0 };
  }

  /**
   * Before a retained message with a payload is kept anywhere (the broker thread asks before aedes stores it): whether
   * it fits its device's, its tenant's and the platform's shares (docs/decisions/broker.md). Admitted, its bytes count
   * from now on (its message follows through `retain`); refused, it is counted and `why` says which share.
   */
  admitRetained(holder: RetainedHolder, topic: string, payloadBytes: number): RetainedRefusal | null {
    const bytes = retainedBytes(topic, payloadBytes);
    const before = this.retained.get(topic);
    const refusal = this.refusal(holder, before, bytes);
    if (refusal) {
      this.counters.retained_refused++;
      this.counters[`retained_refused_${refusal}`]++;
      return refusal;
    }
    if (before) this.unaccount(topic, before);
    this.account(topic, { message: before?.message, holder, bytes, pending: true });
    return null;
  }

  private refusal(holder: RetainedHolder, before: RetainedEntry | undefined, bytes: number): RetainedRefusal | null {
    const same = (u: 'device' | 'tenant') => before !== undefined && before.holder[u] === holder[u];
    const grows = (u: Usage | undefined, q: RetainedQuota, replaces: boolean) => {
      const count = (u?.count ?? 0) + (replaces ? 0 : 1);
      const used = (u?.bytes ?? 0) + bytes - (replaces ? before!.bytes : 0);
      return count > q.count || used > q.bytes;
    };
    if (holder.device !== GATEWAY_HOLDER.device) {
      if (grows(this.retainedByDevice.get(holder.device), this.limits.device, same('device'))) return 'device';
      if (grows(this.retainedByTenant.get(holder.tenant), this.limits.tenant, same('tenant'))) return 'tenant';
    }
    const total = this.limits.platform;
    const count = this.retainedTotal.count + (before ? 0 : 1);
    const used = this.retainedTotal.bytes + bytes - (before?.bytes ?? 0);
    if (count > total.count || used > total.bytes) return 'platform';
    // past three quarters of the platform's share: a tenant over its fair part grows no more, so the last quarter is
    // left to the tenants under theirs
    if (holder.tenant !== GATEWAY_HOLDER.tenant && (count * 4 > total.count * 3 || used * 4 > total.bytes * 3)) {
      const t = this.retainedByTenant.get(holder.tenant);
      const tenants = this.retainedByTenant.size + (t ? 0 : 1);
      const tCount = (t?.count ?? 0) + (same('tenant') ? 0 : 1);
      const tBytes = (t?.bytes ?? 0) + bytes - (same('tenant') ? before!.bytes : 0);
      const grew = tCount > (t?.count ?? 0) || tBytes > (t?.bytes ?? 0);
      if (grew && (tCount > total.count / tenants || tBytes > total.bytes / tenants)) return 'fair_share';
    }
    return null;
  }

  private use(map: Map<string, Usage>, key: string): Usage {
    let u = map.get(key);
    if (!u) map.set(key, (u = new Usage()));
    return u;
  }

  private account(topic: string, e: RetainedEntry) {
    this.touched?.add(`r:${topic}`);
    this.retained.set(topic, e);
    for (const u of [
      this.retainedTotal,
      this.use(this.retainedByDevice, e.holder.device),
      this.use(this.retainedByTenant, e.holder.tenant),
    ]) {
      u.count++;
      u.bytes += e.bytes;
    }
  }

  private unaccount(topic: string, e: RetainedEntry) {
    this.touched?.add(`r:${topic}`);
    this.retained.delete(topic);
    this.retainedTotal.count--;
    this.retainedTotal.bytes -= e.bytes;
    for (const [map, key] of [
      [this.retainedByDevice, e.holder.device],
      [this.retainedByTenant, e.holder.tenant],
    ] as const) {
      const u = map.get(key)!;
      u.count--;
      u.bytes -= e.bytes;
      if (u.count === 0) map.delete(key);
    }
  }

  /**
   * A retained publish that reached the broker (an empty payload deletes the topic's): kept with the holder it was
   * admitted for. One not admitted before (`holder` given: the gateway's own publishes) is admitted here. False when it
   * is not kept.
   */
  retain(m: StoredMessage, holder?: RetainedHolder): boolean {
    const before = this.retained.get(m.topic);
    if (m.payload.length === 0) {
      if (!before) return true;
      this.unaccount(m.topic, before);
      this.write({ op: 'delRetained', topic: m.topic });
      return true;
    }
    const kept: StoredMessage = {
      topic: m.topic,
      payload: Buffer.from(m.payload),
      qos: m.qos,
      properties: m.properties,
      expiresAt: m.expiresAt,
    };
    const bytes = retainedBytes(m.topic, m.payload.length);
    let entry = before;
    // admitted for this message (its bytes counted since), or a message nobody admitted: admitted now
    if (!entry?.pending || (holder !== undefined && entry.holder.device !== holder.device)) {
      if (this.admitRetained(holder ?? GATEWAY_HOLDER, m.topic, m.payload.length) !== null) return false;
      entry = this.retained.get(m.topic)!;
    }
    if (entry.bytes !== bytes) {
      this.unaccount(m.topic, entry);
      this.account(m.topic, (entry = { ...entry, bytes }));
    }
    entry.pending = false;
    entry.message = kept;
    const h = entry.holder;
    this.write({
      op: 'putRetained',
      row: {
        topic: kept.topic,
        payload: kept.payload,
        qos: kept.qos,
        properties: json(kept.properties),
        expiresAt: kept.expiresAt ?? null,
        holder: h.device,
        tenant: h.tenant,
      },
    });
    return true;
  }

  private addAway(clientId: string, s: AwaySession) {
    this.touched?.add(`s:${clientId}`);
    this.away.set(clientId, s);
    for (const sub of s.subscriptions) this.awayFilters.add(sub.topic);
  }

  private removeAway(clientId: string): AwaySession | undefined {
    const s = this.away.get(clientId);
    if (!s) return undefined;
    this.touched?.add(`s:${clientId}`);
    this.away.delete(clientId);
    for (const sub of s.subscriptions) this.awayFilters.remove(sub.topic);
    if (s.stored) this.write({ op: 'endSession', clientId });
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
    this.write({
      op: 'putSession',
      row: { clientId, identityKey, subscriptions: JSON.stringify(subscriptions), expiresAt },
    });
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
      ...(s.awaiting && { awaiting: s.awaiting }),
    };
  }

  // --- several gateways on one database (cluster.ts): the database holds the sessions, every gateway a copy of each
  // away session's filters (to queue what is published through it), the taker reads the session back from the database

  /** whether `clientId` is an away session here (its own, or a copy of another gateway's) */
  isAway(clientId: string): boolean {
    return this.away.has(clientId);
  }

  /** whose the away session of `clientId` is */
  awayIdentity(clientId: string): string | undefined {
    return this.away.get(clientId)?.identityKey;
  }

  /** whose share the retained message of `topic` counts against, once kept */
  retainedHolder(topic: string): RetainedHolder | undefined {
    const e = this.retained.get(topic);
    return e && !e.pending ? e.holder : undefined;
  }

  /**
   * Another gateway's client went away with a persistent session (it wrote the session): a copy here, not written, so
   * that what is published through this gateway is queued for it (into the database) too. One this gateway holds of
   * another identity, still valid, is kept (as `keep` does).
   */
  adopt(clientId: string, identityKey: string, subscriptions: Subscription[], expiresAt: number): void {
    const stored = this.away.get(clientId);
    if (stored && stored.identityKey !== identityKey && stored.expiresAt > this.now()) return;
    this.forget(clientId);
    this.addAway(clientId, { identityKey, subscriptions, expiresAt, queued: [], bytes: 0, stored: true });
  }

  /** an away session taken by another gateway: dropped here without a write (the taker reads and ends its rows);
   * the changes already made for it (its queued messages) are still written by the next flush */
  forget(clientId: string): void {
    const s = this.away.get(clientId);
    if (!s) return;
    this.touched?.add(`s:${clientId}`);
    this.away.delete(clientId);
    for (const sub of s.subscriptions) this.awayFilters.remove(sub.topic);
  }

  /**
   * `take` from the database: every other gateway dropped its copy and wrote what it queued (cluster.ts), so the
   * stored session and its queue, in order, are the session's (this gateway's pending writes first). The rows end
   * (written with the next flush). Another identity's session is neither taken nor ended.
   */
  async takeStored(clientId: string, identityKey: string, discard: boolean): Promise<ResumedSession | undefined> {
    const local = this.away.get(clientId);
    if (local && local.identityKey !== identityKey) return undefined;
    await this.flush();
    const read = await this.persistence.loadSession(clientId);
    const row = read.session;
    // another session of this client id here meanwhile (it came back here, or adopted anew): its own
    if (this.away.get(clientId) !== local) return undefined;
    if (!row || row.identityKey !== identityKey) {
      // the database has none of its own: what this gateway knew (its own start's load) is the answer
      return local ? this.take(clientId, identityKey, discard) : undefined;
    }
    this.forget(clientId);
    this.write({ op: 'endSession', clientId });
    const now = this.now();
    if (discard || row.expiresAt <= now) return undefined;
    return {
      subscriptions: JSON.parse(row.subscriptions) as Subscription[],
      queued: read.queued.filter((r) => r.expiresAt === null || r.expiresAt > now).map(messageOf),
      ...(local?.awaiting && { awaiting: local.awaiting }),
    };
  }

  /**
   * A retained change another gateway made (it was admitted there and written there): this gateway's memory follows,
   * so its shares count it (an empty payload deletes the topic's). Never written from here.
   */
  applyRetained(m: StoredMessage, holder: RetainedHolder): void {
    const before = this.retained.get(m.topic);
    if (before) this.unaccount(m.topic, before);
    if (m.payload.length === 0) return;
    const message: StoredMessage = { ...m, payload: Buffer.from(m.payload) };
    this.account(m.topic, { message, holder, bytes: retainedBytes(m.topic, m.payload.length) });
  }

  /**
   * The notices of the other gateways' changes may have been lost (this gateway's bus connection went and came back):
   * from now on what changes here is noted, newer than the database read `reconcile` makes once every gateway has
   * written what it had pending.
   */
  beginResync(): void {
    this.touched = new Set();
  }

  /**
   * This gateway's copies made to agree with the database (after `beginResync`, once every other gateway wrote what it
   * had pending; this one's pending changes are written first): a retained message changed or deleted elsewhere is
   * changed here (answered, for the broker threads; a deletion with an empty payload), an away session another gateway
   * kept is copied unless `live` (its client connected somewhere: its taker ends the row), and a copy whose session
   * ended elsewhere is dropped. What changed here since `beginResync` is left as it is. Undefined (nothing changed)
   * when the database could not be written or read: the caller tries again later.
   */
  async reconcile(
    live: (clientId: string, identityKey: string) => boolean,
  ): Promise<{ retained: StoredMessage[]; adopted: number; forgotten: number } | undefined> {
    this.touched ??= new Set();
    let read: BrokerStateSnapshot;
    try {
      await this.flush();
      if (this.ops.length > 0) throw new Error('pending changes not written');
      read = await this.persistence.load(false);
    } catch {
      this.touched = undefined;
      return undefined;
    }
    const touched = this.touched;
    this.touched = undefined;
    const now = this.now();
    const retained: StoredMessage[] = [];
    const stored = new Set<string>();
    for (const r of read.retained) {
      if (r.expiresAt !== null && r.expiresAt <= now) continue;
      stored.add(r.topic);
      const here = this.retained.get(r.topic);
      // an admission here under way: its message follows, newer
      if (touched.has(`r:${r.topic}`) || here?.pending) continue;
      const m = messageOf(r);
      if (here?.message && sameMessage(here.message, m)) continue;
      this.applyRetained(m, holderOfRow(r));
      retained.push(m);
    }
    for (const [topic, e] of [...this.retained]) {
      if (stored.has(topic) || touched.has(`r:${topic}`) || e.pending || !e.message) continue;
      const deleted: StoredMessage = { topic, payload: Buffer.alloc(0), qos: 0 };
      this.applyRetained(deleted, e.holder);
      retained.push(deleted);
    }
    let adopted = 0;
    let forgotten = 0;
    const sessions = new Set<string>();
    for (const r of read.sessions) {
      sessions.add(r.clientId);
      if (r.expiresAt <= now || touched.has(`s:${r.clientId}`)) continue;
      if (this.away.get(r.clientId)?.identityKey === r.identityKey || live(r.clientId, r.identityKey)) continue;
      this.adopt(r.clientId, r.identityKey, JSON.parse(r.subscriptions) as Subscription[], r.expiresAt);
      if (this.away.get(r.clientId)?.identityKey === r.identityKey) adopted++;
    }
    for (const clientId of [...this.away.keys()]) {
      if (sessions.has(clientId) || touched.has(`s:${clientId}`)) continue;
      this.forget(clientId);
      forgotten++;
    }
    return { retained, adopted, forgotten };
  }

  /** the QoS 2 ids an away session's client left awaiting their PUBREL (at most MAX_AWAITING_RELEASE, the newest) */
  awaitRelease(clientId: string, ids: number[]): void {
    const s = this.away.get(clientId);
    if (s && ids.length > 0) s.awaiting = ids.slice(-MAX_AWAITING_RELEASE);
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
        this.write({ op: 'dropOldest', clientId, count: drop });
      }
      this.write({ op: 'putQueued', row: queuedRow(clientId, q) });
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
    // rare (a disconnect with messages unacknowledged): the session's rows are written again in their new order
    this.write({ op: 'clearQueued', clientId });
    for (const q of s.queued) this.write({ op: 'putQueued', row: queuedRow(clientId, q) });
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
      this.write({ op: 'unqueue', clientId, topic, payload: m!.payload });
      return true;
    }
    return false;
  }

  /**
   * Away sessions whose time passed end, and retained messages whose MQTT 5 expiry passed go (checked by the broker
   * every minute); answers the topics of those retained messages (the broker threads drop their copies).
   */
  expire(): string[] {
    const now = this.now();
    for (const [clientId, s] of [...this.away]) {
      if (s.expiresAt > now) continue;
      this.removeAway(clientId);
      this.counters.sessions_expired++;
    }
    const gone: string[] = [];
    for (const [topic, e] of this.retained) {
      const at = e.message?.expiresAt;
      if (e.pending || at === undefined || at > now) continue;
      this.unaccount(topic, e);
      this.write({ op: 'delRetained', topic });
      this.counters.retained_expired++;
      gone.push(topic);
    }
    return gone;
  }

  /** away sessions and their queued messages (metrics) */
  get size(): { sessions: number; queued: number; retained: number } {
    let queued = 0;
    for (const s of this.away.values()) queued += s.queued.length;
    return { sessions: this.away.size, queued, retained: this.retained.size };
  }

  /** writes what is pending (resolves when it is stored, or its write failed: reported through `failed`) */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = undefined;
  }
}
