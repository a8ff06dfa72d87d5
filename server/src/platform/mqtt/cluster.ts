// Over 500 lines, kept whole: one class whose maps (the roster, who holds which client id, the asks under way, the
// interest) change together in each notice's handler; split, each part would reach into the others' maps.
// The broker's state across gateways (BUS=nats, one database): retained messages and persistent sessions are the
// deployment's, not a gateway's. The database holds them (session-store.ts writes them, as alone); core NATS carries
// the notices that keep every gateway's memory in step, under the deployment's subjects (bus/deployment.ts):
// - `mqtt.retained`: a retained message kept (or deleted) through one gateway; every other applies it to its memory
//   (its shares count it) and its broker threads (live delivery, and later subscribers get it as retained). Only the
//   gateway it came through writes it.
// - `mqtt.session.open` / `.end` / `.away`: who holds a client id now (and `.ask` / `.held`, below); a session that
//   went away with its filters, so every gateway queues what is published through it for that session into the
//   database itself.
// - `mqtt.session.take`: a gateway about to hand a client id's session to a connection asks every live gateway; each
//   ends its connection of that client id (same identity), drops its away copy, writes what it has pending and
//   answers (`mqtt.session.taken.<asker>`); the asker then reads the session and its queue from the database.
// - `mqtt.interest`: the filters this gateway's clients subscribe to (changes, and all of them to a gateway that starts
//   or whose count differs); a client's plain publish goes to the gateways whose clients' filters match it, and to no
//   other (`mqtt.publish.<gateway>`: at most once, as core NATS carries it; delivered there at QoS 0 or 1). Most device
//   telemetry has no subscriber anywhere: one trie walk per other gateway, nothing sent.
// - `mqtt.alive` every HEARTBEAT_MS: the roster of live gateways. A take waits only for those, at most TAKE_WAIT_MS (one
//   that does not answer leaves the roster until it is heard again); a client id nobody else held takes no wait at all.
//   It says how many client ids the gateway holds: a gateway that counts otherwise for it two beats running (a notice
//   lost while NATS reconnected) asks for the whole list (`mqtt.session.ask`), which comes in parts on
//   `mqtt.session.held.<asker>`; a gateway starting is sent every other gateway's list at once.
// - A gateway whose NATS connection went and came back missed what the others announced meanwhile (core NATS keeps
//   nothing for it): it greets again (`mqtt.alive` with `again`), each other gateway sends its interest and client ids,
//   writes what it has pending and answers (`mqtt.state.written.<asker>`), and the gateway then makes its retained
//   messages and away sessions agree with the database (SessionStore.reconcile). While the connection is down nobody
//   lapses here for silence: they are not silent, this gateway is deaf.
import { randomUUID } from 'node:crypto';
import type { Bus, BusSubscription } from '../bus/types.js';
import type { Logger } from '../log.js';
import type { RetainedHolder, SessionStore, StoredMessage, Subscription } from './persistence/session-store.js';
import { TopicFilters } from './topic-filters.js';

export const HEARTBEAT_MS = 2_000;
/** a gateway not heard for this long is not waited for */
export const LAPSE_MS = 3 * HEARTBEAT_MS;
/** a take waits at most this long for the gateways' answers */
export const TAKE_WAIT_MS = 2_000;
/** client ids per part of a gateway's list of what it holds (well inside NATS's 1 MB message) */
export const HELD_PART = 2_000;

/** what the cluster asks of its gateway's broker */
export interface ClusterBroker {
  /** another gateway's retained message (empty: deleted) to every broker thread: delivered and kept */
  deliverRetained(m: StoredMessage): void;
  /** another gateway's client publish, to this gateway's subscribers (not kept, not queued: its gateway did that) */
  deliver(m: StoredMessage): void;
  /** whether a connection of `clientId` is up on this gateway */
  holds(clientId: string): boolean;
  /** ends this gateway's connection of `clientId` when `identityKey` holds it; resolves once its session is gone
   * (a persistent one in the store, not announced) */
  release(clientId: string, identityKey: string): Promise<void>;
}

interface RetainedNotice {
  gw: string;
  topic: string;
  /** base64 */
  payload: string;
  qos: 0 | 1 | 2;
  properties?: Record<string, unknown>;
  expiresAt?: number;
  holder: RetainedHolder;
}
type MessageNotice = Omit<RetainedNotice, 'holder'>;
interface InterestNotice {
  gw: string;
  add?: string[];
  remove?: string[];
  /** every filter: replaces what was known */
  all?: string[];
}
interface SessionNotice {
  gw: string;
  clientId: string;
  identityKey: string;
  subscriptions?: Subscription[];
  expiresAt?: number;
}
interface TakeNotice {
  gw: string;
  req: number;
  clientId: string;
  identityKey: string;
}
interface AliveNotice {
  gw: string;
  bye?: boolean;
  /** starting: the others send what they hold */
  hello?: boolean;
  /** back after its bus connection went: the others also write what they have pending, then answer this request */
  again?: number;
  filters?: number;
  held?: number;
}
/** a part of what a gateway holds: [client id, identity key] pairs; `last` ends the list */
interface HeldNotice {
  gw: string;
  held: Array<[string, string]>;
  last: boolean;
}

export interface ClusterOptions {
  log: Logger;
  now?: () => number;
  heartbeatMs?: number;
  takeWaitMs?: number;
}

export class BrokerCluster {
  /** this gateway, for this run */
  readonly id = randomUUID();
  /** live gateways: when each was last heard */
  private readonly roster = new Map<string, number>();
  /** client ids connected through other gateways: which, and whose identity */
  private readonly holders = new Map<string, { gw: string; identityKey: string }>();
  /** how many of `holders` each other gateway holds, and by how much its last beat's count differed (when it did) */
  private readonly heldBy = new Map<string, number>();
  private readonly heldMismatch = new Map<string, number>();
  /** a list being received from each gateway, part by part */
  private readonly receiving = new Map<string, Map<string, string>>();
  /** client ids connected through this gateway, as announced (`opened`), and whose identity */
  private readonly mine = new Map<string, string>();
  /** the filters this gateway's clients subscribe to (over all its threads), and the changes not yet announced */
  private readonly interest = new Map<string, number>();
  private interestChanges = new Map<string, boolean>();
  private announcing: NodeJS.Immediate | undefined;
  /** the other gateways' interest */
  private readonly remote = new Map<string, TopicFilters>();
  private readonly asking = new Map<number, { waiting: Set<string>; done: () => void; answered?: Set<string> }>();
  private nextReq = 1;
  private readonly subs: BusSubscription[] = [];
  private readonly beat: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly heartbeatMs: number;
  private readonly takeWaitMs: number;
  private closed = false;
  readonly counters = {
    takes: 0,
    take_waits: 0,
    take_timeouts: 0,
    retained_applied: 0,
    routed: 0,
    routed_in: 0,
    held_resyncs: 0,
    resyncs: 0,
    resync_failures: 0,
    resync_retained: 0,
    resync_sessions: 0,
  };
  /** the bus connection is down: nobody is heard, so nobody lapses for silence */
  private deaf = false;
  /** the resync under way (one at a time; a reconnect during it runs another after it) */
  private resyncing: Promise<void> | undefined;
  private resyncAgain = false;
  /** a resync could not read the database, and the log said so */
  private outageSaid = false;

  constructor(
    private readonly bus: Bus,
    private readonly store: SessionStore,
    private readonly broker: ClusterBroker,
    opts: ClusterOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.takeWaitMs = opts.takeWaitMs ?? TAKE_WAIT_MS;
    const log = opts.log;
    const on = <T extends { gw: string }>(subject: string, fn: (m: T) => unknown) =>
      this.subs.push(
        bus.subscribe<T>(subject, (msg) => {
          const m = msg.data;
          if (!m || typeof m !== 'object' || m.gw === this.id || this.closed) return;
          this.heard(m.gw);
          return fn(m);
        }),
      );
    on<AliveNotice>('mqtt.alive', (m) => {
      if (m.bye) return this.lapse(m.gw);
      // a gateway starting: it hears this one now, not a heartbeat later, what its clients subscribe to and which
      // client ids this one holds
      if (m.hello) {
        this.bus.publish('mqtt.alive', { gw: this.id, filters: this.interest.size, held: this.mine.size });
        this.announceAll();
        this.sendHeld(m.gw);
      }
      // back after its connection went: what it announced meanwhile may be lost here too, and it reads the database
      // once this gateway's pending changes are in it
      if (m.again !== undefined) {
        this.bus.publish('mqtt.session.ask', { gw: this.id, of: m.gw });
        this.bus.publish('mqtt.interest.ask', { gw: this.id, of: m.gw });
        const req = m.again;
        void this.store
          .flush()
          .catch(() => undefined)
          .then(() => this.bus.publish(`mqtt.state.written.${m.gw}`, { gw: this.id, req }));
      }
      // its interest as known here is not what it says (a notice lost while NATS reconnected): all of it is asked for
      if (m.filters !== undefined && m.filters !== (this.remote.get(m.gw)?.size ?? 0))
        this.bus.publish('mqtt.interest.ask', { gw: this.id, of: m.gw });
      if (m.held !== undefined) this.checkHeld(m.gw, m.held);
    });
    on<{ gw: string; of: string }>('mqtt.session.ask', (m) => {
      if (m.of === this.id) this.sendHeld(m.gw);
    });
    on<HeldNotice>(`mqtt.session.held.${this.id}`, (m) => {
      let list = this.receiving.get(m.gw);
      if (!list) this.receiving.set(m.gw, (list = new Map()));
      for (const [clientId, identityKey] of m.held) list.set(clientId, identityKey);
      if (!m.last) return;
      this.receiving.delete(m.gw);
      for (const [clientId, h] of this.holders) if (h.gw === m.gw && !list.has(clientId)) this.dropHolder(clientId);
      // a client id held meanwhile through another gateway stays with it (its notice came after this list was made)
      for (const [clientId, identityKey] of list) {
        const h = this.holders.get(clientId);
        if (h && h.gw !== m.gw) continue;
        this.setHolder(clientId, m.gw, identityKey);
        // live there (its `open` missed here): a copy of its away session here is stale, as `open` would have said
        if (this.store.awayIdentity(clientId) === identityKey) this.store.forget(clientId);
      }
    });
    on<{ gw: string; of: string }>('mqtt.interest.ask', (m) => {
      if (m.of === this.id) this.announceAll();
    });
    on<InterestNotice>('mqtt.interest', (m) => {
      let f = this.remote.get(m.gw);
      if (!f || m.all) this.remote.set(m.gw, (f = new TopicFilters()));
      for (const x of m.all ?? m.add ?? []) f.add(x);
      for (const x of m.remove ?? []) f.remove(x);
    });
    on<MessageNotice>(`mqtt.publish.${this.id}`, (m) => {
      this.counters.routed_in++;
      this.broker.deliver({
        topic: m.topic,
        payload: Buffer.from(m.payload, 'base64'),
        qos: m.qos,
        properties: m.properties,
        expiresAt: m.expiresAt,
      });
    });
    on<RetainedNotice>('mqtt.retained', (m) => {
      const message: StoredMessage = {
        topic: m.topic,
        payload: Buffer.from(m.payload, 'base64'),
        qos: m.qos,
        properties: m.properties,
        expiresAt: m.expiresAt,
      };
      this.store.applyRetained(message, m.holder);
      this.broker.deliverRetained(message);
      this.counters.retained_applied++;
    });
    on<SessionNotice>('mqtt.session.open', (m) => {
      this.setHolder(m.clientId, m.gw, m.identityKey);
      // live there now: a copy of its away session here is stale (another identity's is not its)
      if (this.store.awayIdentity(m.clientId) === m.identityKey) this.store.forget(m.clientId);
    });
    on<SessionNotice>('mqtt.session.end', (m) => {
      if (this.holders.get(m.clientId)?.gw === m.gw) this.dropHolder(m.clientId);
    });
    on<SessionNotice>('mqtt.session.away', (m) => {
      if (this.holders.get(m.clientId)?.gw === m.gw) this.dropHolder(m.clientId);
      // connected here again meanwhile: not away
      if (m.subscriptions && m.expiresAt !== undefined && !this.broker.holds(m.clientId))
        this.store.adopt(m.clientId, m.identityKey, m.subscriptions, m.expiresAt);
    });
    on<TakeNotice>('mqtt.session.take', async (m) => {
      try {
        await this.broker.release(m.clientId, m.identityKey);
        if (this.store.awayIdentity(m.clientId) === m.identityKey) this.store.forget(m.clientId);
        // what was queued here for it (and its session, if it was connected here) is in the database before the answer
        await this.store.flush();
      } catch (err) {
        log.error(`MQTT session ${m.clientId} could not be handed to another gateway`, err);
      }
      this.letGo(m.clientId, m.identityKey);
      this.setHolder(m.clientId, m.gw, m.identityKey);
      this.bus.publish(`mqtt.session.taken.${m.gw}`, { gw: this.id, req: m.req });
    });
    const answered = (m: { gw: string; req: number }) => {
      const a = this.asking.get(m.req);
      if (!a) return;
      a.answered?.add(m.gw);
      a.waiting.delete(m.gw);
      if (a.waiting.size === 0) a.done();
    };
    on<{ gw: string; req: number }>(`mqtt.session.taken.${this.id}`, answered);
    on<{ gw: string; req: number }>(`mqtt.state.written.${this.id}`, answered);
    this.bus.publish('mqtt.alive', { gw: this.id, hello: true });
    this.beat = setInterval(() => this.alive(), this.heartbeatMs);
    this.beat.unref();
    bus.onConnection?.((up) => {
      this.deaf = !up;
      if (up) this.resync(log);
    });
  }

  /**
   * The bus connection came back: every gateway heard from sends what it holds and writes what it has pending, then
   * this gateway's retained messages and away sessions are made to agree with the database (those it changed
   * meanwhile stay as they are). A resync that cannot read the database is tried again a heartbeat later.
   */
  private resync(log: Logger) {
    if (this.closed) return;
    if (this.resyncing) return void (this.resyncAgain = true);
    this.counters.resyncs++;
    this.store.beginResync();
    const req = this.nextReq++;
    const run = async () => {
      // the gateways heard before the connection went, and those that answer the greeting meanwhile
      await this.ask(req, () => this.bus.publish('mqtt.alive', { gw: this.id, hello: true, again: req }), true);
      const live = (clientId: string, identityKey: string) =>
        this.broker.holds(clientId) || this.holderKey(clientId) === identityKey;
      const changed = await this.store.reconcile(live);
      if (this.closed) return;
      if (!changed) {
        this.counters.resync_failures++;
        // said once per outage of the database, not at every try
        if (!this.outageSaid)
          log.warn('MQTT broker state: the database could not be read after the bus reconnected; trying again shortly');
        this.outageSaid = true;
        await new Promise((r) => setTimeout(r, this.heartbeatMs).unref());
        this.resyncAgain = true;
        return;
      }
      this.outageSaid = false;
      for (const m of changed.retained) this.broker.deliverRetained(m);
      this.counters.resync_retained += changed.retained.length;
      this.counters.resync_sessions += changed.adopted + changed.forgotten;
      if (changed.retained.length + changed.adopted + changed.forgotten > 0)
        log.info(
          `MQTT broker state mended after the bus reconnected: ${changed.retained.length} retained message(s), ${changed.adopted} away session(s) copied, ${changed.forgotten} dropped`,
        );
    };
    this.resyncing = run()
      .catch((err: unknown) => log.error('MQTT broker state: resync after the bus reconnected failed', err))
      .finally(() => {
        this.resyncing = undefined;
        if (this.resyncAgain) {
          this.resyncAgain = false;
          this.resync(log);
        }
      });
  }

  /** publishes a request `send` makes and waits for the answers (`req`) of every live gateway, at most the take wait
   * (the silent ones leave the roster); a gateway heard while waiting is waited for too */
  private ask(req: number, send: () => void, joinable = false): Promise<void> {
    const waiting = new Set(this.roster.keys());
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.counters.take_timeouts++;
        for (const gw of waiting) this.lapse(gw);
        done();
      }, this.takeWaitMs);
      const done = () => {
        clearTimeout(timer);
        this.asking.delete(req);
        resolve();
      };
      this.asking.set(req, { waiting, done, ...(joinable && { answered: new Set<string>() }) });
      send();
      if (waiting.size === 0) done();
    });
  }

  private alive() {
    this.bus.publish('mqtt.alive', { gw: this.id, filters: this.interest.size, held: this.mine.size });
    if (this.deaf) return;
    const lapsed = this.now() - (this.heartbeatMs * LAPSE_MS) / HEARTBEAT_MS;
    for (const [gw, at] of this.roster) if (at < lapsed) this.lapse(gw);
  }

  private heard(gw: string) {
    this.roster.set(gw, this.now());
    // a resync waits for every gateway that answers its greeting, not only those it knew
    for (const a of this.asking.values()) if (a.answered && !a.answered.has(gw)) a.waiting.add(gw);
  }

  /** a gateway gone (or silent): not waited for, and the client ids it held are free */
  private lapse(gw: string) {
    this.remote.delete(gw);
    this.receiving.delete(gw);
    this.heldMismatch.delete(gw);
    if (!this.roster.delete(gw)) return;
    for (const [clientId, h] of this.holders) if (h.gw === gw) this.dropHolder(clientId);
  }

  private setHolder(clientId: string, gw: string, identityKey: string) {
    this.dropHolder(clientId);
    this.holders.set(clientId, { gw, identityKey });
    this.heldBy.set(gw, (this.heldBy.get(gw) ?? 0) + 1);
  }

  private dropHolder(clientId: string) {
    const h = this.holders.get(clientId);
    if (!h) return;
    this.holders.delete(clientId);
    const n = (this.heldBy.get(h.gw) ?? 1) - 1;
    if (n > 0) this.heldBy.set(h.gw, n);
    else this.heldBy.delete(h.gw);
  }

  /** `gw` says it holds `held` client ids: counted otherwise here by the same difference two beats running, its whole
   * list is asked for (a notice in flight makes the counts differ for a moment, not by the same two beats running) */
  private checkHeld(gw: string, held: number) {
    const off = held - (this.heldBy.get(gw) ?? 0);
    if (off === 0 || this.receiving.has(gw)) return void this.heldMismatch.delete(gw);
    if (this.heldMismatch.get(gw) !== off) return void this.heldMismatch.set(gw, off);
    this.heldMismatch.delete(gw);
    this.counters.held_resyncs++;
    this.bus.publish('mqtt.session.ask', { gw: this.id, of: gw });
  }

  /** `clientId` is no longer held here as `identityKey` (another identity's connection here keeps it) */
  private letGo(clientId: string, identityKey: string) {
    if (this.mine.get(clientId) === identityKey) this.mine.delete(clientId);
  }

  /** this gateway's client ids, in parts, to `to` */
  private sendHeld(to: string) {
    const all = [...this.mine];
    for (let i = 0; i === 0 || i < all.length; i += HELD_PART)
      this.bus.publish(`mqtt.session.held.${to}`, {
        gw: this.id,
        held: all.slice(i, i + HELD_PART),
        last: i + HELD_PART >= all.length,
      } satisfies HeldNotice);
  }

  /** counters for the broker's metrics */
  metrics() {
    const c = this.counters;
    let filters = 0;
    for (const f of this.remote.values()) filters += f.size;
    return {
      cluster_takes: c.takes,
      cluster_take_waits: c.take_waits,
      cluster_take_timeouts: c.take_timeouts,
      cluster_retained_applied: c.retained_applied,
      cluster_routed: c.routed,
      cluster_routed_in: c.routed_in,
      cluster_gateways: this.roster.size,
      cluster_held_elsewhere: this.holders.size,
      cluster_held_resyncs: c.held_resyncs,
      cluster_resyncs: c.resyncs,
      cluster_resync_failures: c.resync_failures,
      cluster_resync_retained: c.resync_retained,
      cluster_resync_sessions: c.resync_sessions,
      cluster_remote_filters: filters,
    };
  }

  /** the gateways heard from lately */
  get live(): string[] {
    return [...this.roster.keys()];
  }

  /** the identity holding `clientId` through another live gateway (a client id is never taken by another identity) */
  holderKey(clientId: string): string | undefined {
    const h = this.holders.get(clientId);
    return h && this.roster.has(h.gw) ? h.identityKey : undefined;
  }

  /** `identityKey`'s connection of `clientId` through another gateway is ending (a change every gateway applies): the
   * client id is free here now, not once that gateway's `end` notice arrives */
  endingElsewhere(clientId: string, identityKey: string): void {
    if (this.holders.get(clientId)?.identityKey === identityKey) this.dropHolder(clientId);
  }

  /** whether a connection of `clientId` must take its session from the deployment first: another live gateway holds
   * it, or it is away (the others may have queued for it). Else (the common case) nothing is asked */
  needsTake(clientId: string): boolean {
    return this.store.isAway(clientId) || this.holderKey(clientId) !== undefined;
  }

  /**
   * Asks every live gateway to let go of `clientId` (end its connection, drop its away copy, write what is pending);
   * resolves when all answered or after the take wait (the silent ones leave the roster).
   */
  take(clientId: string, identityKey: string): Promise<void> {
    this.counters.takes++;
    if (this.roster.size === 0) return Promise.resolve();
    this.counters.take_waits++;
    const req = this.nextReq++;
    return this.ask(req, () =>
      this.bus.publish('mqtt.session.take', { gw: this.id, req, clientId, identityKey } satisfies TakeNotice),
    );
  }

  /** a filter first subscribed on one of this gateway's threads, or no longer subscribed on one */
  filter(filter: string, added: boolean): void {
    const n = (this.interest.get(filter) ?? 0) + (added ? 1 : -1);
    if (n > 0) this.interest.set(filter, n);
    else this.interest.delete(filter);
    // announced only when the gateway as a whole starts or stops holding it, once per turn
    if (n !== (added ? 1 : 0)) return;
    if (this.interestChanges.get(filter) === !added) this.interestChanges.delete(filter);
    else this.interestChanges.set(filter, added);
    this.announcing ??= setImmediate(() => {
      this.announcing = undefined;
      const changes = [...this.interestChanges];
      this.interestChanges = new Map();
      if (changes.length === 0 || this.closed) return;
      this.bus.publish('mqtt.interest', {
        gw: this.id,
        add: changes.filter(([, a]) => a).map(([f]) => f),
        remove: changes.filter(([, a]) => !a).map(([f]) => f),
      } satisfies InterestNotice);
    });
  }

  private announceAll() {
    if (this.announcing) clearImmediate(this.announcing);
    this.announcing = undefined;
    this.interestChanges.clear();
    this.bus.publish('mqtt.interest', { gw: this.id, all: [...this.interest.keys()] } satisfies InterestNotice);
  }

  /** a client's plain publish here: to the other gateways whose clients subscribe to its topic */
  route(
    topic: string,
    payload: Buffer,
    qos: 0 | 1 | 2,
    properties?: Record<string, unknown>,
    expiresAt?: number,
  ): void {
    let notice: MessageNotice | undefined;
    for (const [gw, filters] of this.remote) {
      if (!filters.matches(topic)) continue;
      notice ??= {
        gw: this.id,
        topic,
        payload: payload.toString('base64'),
        qos,
        ...(properties && { properties }),
        ...(expiresAt !== undefined && { expiresAt }),
      };
      this.counters.routed++;
      this.bus.publish(`mqtt.publish.${gw}`, notice);
    }
  }

  /** a retained message kept here (empty: deleted), as the store holds it */
  retained(m: StoredMessage, holder: RetainedHolder): void {
    this.bus.publish('mqtt.retained', {
      gw: this.id,
      topic: m.topic,
      payload: Buffer.from(m.payload).toString('base64'),
      qos: m.qos,
      ...(m.properties && { properties: m.properties }),
      ...(m.expiresAt !== undefined && { expiresAt: m.expiresAt }),
      holder,
    } satisfies RetainedNotice);
  }

  /** a connection of `clientId` accepted here */
  opened(clientId: string, identityKey: string): void {
    this.dropHolder(clientId);
    this.mine.set(clientId, identityKey);
    this.bus.publish('mqtt.session.open', { gw: this.id, clientId, identityKey } satisfies SessionNotice);
  }

  /** a connection of `clientId` ended here, its session with it */
  ended(clientId: string, identityKey: string): void {
    this.letGo(clientId, identityKey);
    this.bus.publish('mqtt.session.end', { gw: this.id, clientId, identityKey } satisfies SessionNotice);
  }

  /** a persistent session went away here (written by this gateway's store) */
  away(clientId: string, identityKey: string, subscriptions: Subscription[], expiresAt: number): void {
    this.letGo(clientId, identityKey);
    this.bus.publish('mqtt.session.away', {
      gw: this.id,
      clientId,
      identityKey,
      subscriptions,
      expiresAt,
    } satisfies SessionNotice);
  }

  /** stops answering; the others stop waiting for this gateway */
  close(): void {
    if (this.closed) return;
    this.bus.publish('mqtt.alive', { gw: this.id, bye: true });
    this.closed = true;
    clearInterval(this.beat);
    if (this.announcing) clearImmediate(this.announcing);
    for (const s of this.subs) s.unsubscribe();
    for (const a of this.asking.values()) a.done();
  }
}
