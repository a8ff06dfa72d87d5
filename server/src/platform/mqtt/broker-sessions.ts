// The event loop's table of MQTT sessions, one per accepted connection on any broker thread: whose identity it is,
// which thread serves it, what it subscribed to, and who holds each client id. MQTT lets a new CONNECT with the same
// client id take the session over (MQTT-3.1.4-2); here that stays a right of the same identity, never a way for one
// device to kick another (AuthorityRelay asks `holderKey`). A session that ends is kept a while, because its will
// message is published after its departure is reported (`Broker.ended`).
import { performance } from 'node:perf_hooks';
import type { SessionId } from './broker-wire.js';
import type { TopicFilters } from './topic-filters.js';
import type { BrokerAuthority, MqttIdentity } from './types.js';

export interface Session<T> {
  identity: MqttIdentity;
  authority: BrokerAuthority;
  clientId: string;
  thread: T;
  /** its granted subscriptions (dropped from its thread's filters when it goes) */
  filters: string[];
  /** `connected` was emitted, so `disconnected` must follow */
  announced: boolean;
  /** seconds its session outlives the connection (0: a clean session) */
  keep: number;
  /** the QoS granted to each of its subscriptions (kept with its session when it goes away) */
  qos: Map<string, number>;
  /** when the connection went (its will message may still follow), or when it was accepted, for the sweep */
  since: number;
  gone: boolean;
  /** the event loop told its thread to close it: its client id is free to another identity already */
  kicked?: boolean;
  /** the announced session of the same identity it took the client id from, ended before this one was ready: its
   * `disconnected` waits for this one's `connected` (or its end), so a take-over never shows the device offline */
  succeeds?: { identity: MqttIdentity; clientId: string };
}

/** a gone session is kept this long: a will message is published after the disconnect is reported */
export const GONE_KEPT_MS = 10_000;
/** an accepted session that never became ready (the socket dropped before CONNACK) is forgotten after this */
export const UNREADY_KEPT_MS = 60_000;

export interface SessionEvents<T> {
  connected(identity: MqttIdentity, clientId: string): void;
  disconnected(identity: MqttIdentity, clientId: string): void;
  /** a persistent session (keep > 0) ended and nobody took its client id over: keep it for its client's return */
  away(session: Session<T>): void;
}

export class BrokerSessions<T extends { filters: TopicFilters }> {
  private readonly sessions = new Map<SessionId, Session<T>>();
  private nextSid = 1;
  /** client id → the session holding it */
  private readonly holders = new Map<string, SessionId>();
  /** identities whose connection ended: what they publish now is their will */
  private readonly ended = new WeakSet<MqttIdentity>();

  constructor(private readonly events: SessionEvents<T>) {}

  get(sid: SessionId): Session<T> | undefined {
    return this.sessions.get(sid);
  }

  /** the identity key of the session holding `clientId`, if any (a session being kicked holds it no longer) */
  holderKey(clientId: string): string | undefined {
    const holder = this.holders.get(clientId);
    const session = holder === undefined ? undefined : this.sessions.get(holder);
    return session?.kicked ? undefined : session?.identity.key;
  }

  /**
   * A connection accepted on `thread`: its session, which holds `clientId` from now on (its CONNACK may go out before
   * `ready` comes back). `older`: the session that held the id and is still up (taken over: on another thread it must
   * be kicked; within a thread aedes does it).
   */
  open(
    who: { identity: MqttIdentity; authority: BrokerAuthority },
    clientId: string,
    thread: T,
    keep: number,
  ): { sid: SessionId; older?: { sid: SessionId; session: Session<T> } } {
    const sid = this.nextSid++;
    this.sessions.set(sid, {
      ...who,
      clientId,
      thread,
      filters: [],
      qos: new Map(),
      keep,
      announced: false,
      since: performance.now(),
      gone: false,
    });
    // an authority that hands out the same identity object again: connected anew, it has not ended
    this.ended.delete(who.identity);
    const before = this.holders.get(clientId);
    const older = before === undefined ? undefined : this.sessions.get(before);
    this.holders.set(clientId, sid);
    return { sid, ...(older && !older.gone && { older: { sid: before!, session: older } }) };
  }

  /** the session holding `clientId` and still up, if any */
  holder(clientId: string): { sid: SessionId; session: Session<T> } | undefined {
    const sid = this.holders.get(clientId);
    const session = sid === undefined ? undefined : this.sessions.get(sid);
    return session && !session.gone ? { sid: sid!, session } : undefined;
  }

  /** its thread has it ready (CONNACK sent): announced */
  ready(sid: SessionId, clientId: string): void {
    const session = this.sessions.get(sid);
    if (!session || session.gone) return;
    session.announced = true;
    this.events.connected(session.identity, clientId);
    this.departed(session);
  }

  /** its subscriptions granted (`qos` in order) or removed */
  subscribed(sid: SessionId, filters: string[], qos?: number[]): void {
    const session = this.sessions.get(sid);
    if (!session || session.gone) return;
    for (const [i, f] of filters.entries()) {
      session.filters.push(f);
      session.thread.filters.add(f);
      session.qos.set(f, qos?.[i] ?? 0);
    }
  }
  unsubscribed(sid: SessionId, filters: string[]): void {
    const session = this.sessions.get(sid);
    if (!session || session.gone) return;
    for (const f of filters) {
      session.qos.delete(f);
      const at = session.filters.indexOf(f);
      if (at < 0) continue;
      session.filters.splice(at, 1);
      session.thread.filters.remove(f);
    }
  }

  /** the session is over on its thread (`replaced`: its client id was taken over): its departure is reported */
  end(sid: SessionId, replaced: boolean): void {
    const session = this.sessions.get(sid);
    if (!session || session.gone) return;
    session.gone = true;
    this.ended.add(session.identity);
    session.since = performance.now();
    for (const f of session.filters) session.thread.filters.remove(f);
    const holds = this.holders.get(session.clientId) === sid;
    if (session.keep > 0 && holds) this.events.away(session);
    session.filters = [];
    if (!replaced && holds) this.holders.delete(session.clientId);
    this.departed(session);
    if (!session.announced) return;
    // taken over by the same identity's connection that is not ready yet (its CONNACK may be out already): that one
    // says the device is connected first, then this one's departure follows
    const successor = holds ? undefined : this.holder(session.clientId)?.session;
    if (successor && !successor.announced && successor.identity.key === session.identity.key)
      successor.succeeds = { identity: session.identity, clientId: session.clientId };
    else this.events.disconnected(session.identity, session.clientId);
  }

  /** the departure a session's take-over held back, now that the session is announced or over */
  private departed(session: Session<T>): void {
    const before = session.succeeds;
    if (!before) return;
    session.succeeds = undefined;
    this.events.disconnected(before.identity, before.clientId);
  }

  /** every session of a thread that went (its connections went with it) */
  endAllOf(thread: T): void {
    for (const [sid, s] of this.sessions) if (s.thread === thread) this.end(sid, false);
  }

  /**
   * The sessions still up whose identity `match` hits (not yet announced ones too), by thread, to be closed there. They
   * are marked kicked: their client ids are free from now on, so the client the kick was for (a gateway registered
   * while it was connected unclaimed) can sign in with its new identity before its thread reports the old one gone.
   */
  kick(match: (identity: MqttIdentity) => boolean, failed: (err: unknown) => void): Map<T, SessionId[]> {
    const hits = new Map<T, SessionId[]>();
    for (const [sid, session] of this.sessions) {
      if (session.gone) continue;
      let hit = false;
      try {
        hit = match(session.identity);
      } catch (err) {
        failed(err);
      }
      if (!hit) continue;
      session.kicked = true;
      const sids = hits.get(session.thread);
      if (sids) sids.push(sid);
      else hits.set(session.thread, [sid]);
    }
    return hits;
  }

  /** identities connected now */
  connected(): MqttIdentity[] {
    const out: MqttIdentity[] = [];
    for (const s of this.sessions.values()) if (s.announced && !s.gone) out.push(s.identity);
    return out;
  }

  /** whether this identity's connection has ended (what it publishes now is its will) */
  hasEnded(identity: MqttIdentity): boolean {
    return this.ended.has(identity);
  }

  /** drops sessions whose will can no longer come, and accepted ones that never became ready */
  sweep(now = performance.now()): void {
    for (const [sid, s] of this.sessions) {
      if ((s.gone && now - s.since > GONE_KEPT_MS) || (!s.announced && !s.gone && now - s.since > UNREADY_KEPT_MS)) {
        this.departed(s);
        this.sessions.delete(sid);
      }
    }
  }
}
