// The embedded MQTT broker (aedes): devices connect over TCP (MQTT_PORT) or WebSocket (/mqtt on the HTTP port).
// aedes runs on threads of its own (broker.worker.ts; MQTT_THREADS, one by default), each listening on its own
// descriptor of the one TCP socket so the kernel spreads the connections: parsing, sessions, PUBACKs and socket
// writes take 20–30 µs of CPU a message, which at fleet rates would fill the event loop. The event loop keeps
// everything about identities: every client is authenticated by a domain authority, every topic authorised by the
// authority that knew it (a session's allowed publish topics are remembered by its thread), and what sessions publish
// arrives here in packed runs, in order, as `message` events of their identities. Between threads it plays the
// broker: the gateway's publishes go to every thread, a client's publish to the threads whose sessions subscribed
// (retained ones to all), and a client id taken over on another thread closes the older connection.
import fs from 'node:fs';
import type http from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { nativeFd } from '../native-fd.js';
import { workerEntry } from '../worker-entry.js';
import {
  asBuffer,
  unpackMessages,
  type LoopCommand,
  type SessionId,
  type ThreadEvent,
  type ThreadMessage,
} from './broker-wire.js';
import { AuthorityRelay } from './authority-relay.js';
import { BrokerMetrics, type BrokerCounters } from './broker-metrics.js';
import { GatewayPublishes } from './gateway-publishes.js';
import { AckLedger } from './held-acks.js';
import { DEFAULT_MAX_OUTBOUND_BYTES } from './limits.js';
import { TopicFilters } from './topic-filters.js';
import type { ConnectThrottle } from '../mqtt-connect-throttle.js';
import {
  DEFAULT_BROKER_THREADS,
  type Broker,
  type BrokerAuthority,
  type BrokerEvents,
  type MqttIdentity,
} from './types.js';
import { WebSocketRelay } from './websocket-relay.js';
import type { SessionStore, StoredMessage } from './persistence/session-store.js';
import type { WireMessage } from './broker-wire.js';

export interface EmbeddedBroker extends Broker {
  /** starts the broker threads' TCP listener; resolves with the bound port */
  listen(): Promise<number>;
  /** serves MQTT over WebSocket at `path` on the gateway's HTTP server */
  attachWebSocket(server: http.Server, path?: string): void;
  /** each broker thread's event-loop utilisation since `since` (as performance.eventLoopUtilization), in thread order */
  threadUtilization(since?: EventLoopUtilization[]): EventLoopUtilization[];
  /** how many broker threads serve the TCP listener */
  readonly threads: number;
  /** counters since start (broker-metrics.ts) */
  metrics(): BrokerCounters;
  /** stops accepting, disconnects every client, stops aedes and its threads; idempotent */
  close(): Promise<void>;
}

export interface BrokerOptions {
  host: string;
  port: number;
  log: Logger;
  /** the threads report aedes' client and connection errors (debug lines) */
  debug?: boolean;
  /** broker threads (default 1; more need the native dup helper, else 1) */
  threads?: number;
  /** CONNECT failures counted per client address; a blocked address is refused unchecked (mqtt-connect-throttle.ts) */
  throttle?: ConnectThrottle;
  /** a connection (TCP or WebSocket) holding more than this unwritten is closed (MQTT_MAX_OUTBOUND_BYTES, default 4 MiB) */
  maxOutboundBytes?: number;
  /** retained messages and persistent sessions kept across restarts (without: kept in memory by each thread only) */
  store?: SessionStore;
}

interface Thread {
  index: number;
  worker: Worker;
  /** subscriptions of this thread's sessions, for publishes of sessions on other threads */
  filters: TopicFilters;
  /** its held acknowledgements (QoS 1 and 2), released once what they acknowledge is stored */
  acks: AckLedger;
  /** runs of packed messages taken since the thread was last told (its handover bound, handover-bound.ts) */
  took: number;
  /** MQTT 5 properties of the first message of the thread's next packed run */
  nextProperties?: V5Properties;
}
type V5Properties = { properties?: Record<string, unknown>; expiresAt?: number };

interface Session {
  identity: MqttIdentity;
  authority: BrokerAuthority;
  clientId: string;
  thread: Thread;
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
}

/** a gone session is kept this long: a will message is published after the disconnect is reported */
const GONE_KEPT_MS = 10_000;
/** an accepted session that never became ready (the socket dropped before CONNACK) is forgotten after this */
const UNREADY_KEPT_MS = 60_000;
export { DROPPED_BY_KEY_LIMIT } from './broker-metrics.js';

export function createBroker(opts: BrokerOptions): EmbeddedBroker {
  const { log } = opts;
  const native = nativeFd();
  const count = native ? Math.max(1, opts.threads ?? DEFAULT_BROKER_THREADS) : 1;
  const sessions = new Map<SessionId, Session>();
  let nextSid = 1;
  /** client id → the session holding it: MQTT lets a new CONNECT with the same id take the session over, which must
   * stay a right of the same identity, never a way for one device to kick another */
  const holders = new Map<string, SessionId>();
  const relay = new AuthorityRelay(
    log,
    (clientId) => {
      const holder = holders.get(clientId);
      return holder === undefined ? undefined : sessions.get(holder)?.identity.key;
    },
    opts.throttle,
  );
  const listeners: { [E in keyof BrokerEvents]: Set<BrokerEvents[E]> } = {
    connected: new Set(),
    disconnected: new Set(),
    message: new Set(),
  };
  /** the gateway's publishes: the threads that have not answered yet */
  const publishes = new GatewayPublishes();
  let readPaused = false;
  let boundPort = 0;
  /** the event loop's own descriptor of the listening socket: each (re)started thread listens on a duplicate */
  let listenFd = -1;
  let closing: Promise<void> | undefined;
  const maxOutbound = opts.maxOutboundBytes ?? DEFAULT_MAX_OUTBOUND_BYTES;
  const counted = new BrokerMetrics(log, maxOutbound);

  function emit<E extends keyof BrokerEvents>(event: E, ...args: Parameters<BrokerEvents[E]>) {
    for (const fn of listeners[event]) {
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (err) {
        log.error(`broker ${event} listener failed`, err);
      }
    }
  }

  /** identities whose connection ended: what they publish now is their will (`Broker.ended`) */
  const ended = new WeakSet<MqttIdentity>();
  /** the session is over on its thread: announced, its departure is reported; its subscriptions go */
  function end(sid: SessionId, session: Session, replaced: boolean) {
    if (session.gone) return;
    session.gone = true;
    ended.add(session.identity);
    session.since = performance.now();
    for (const f of session.filters) session.thread.filters.remove(f);
    // a persistent session nobody took over is kept until its client returns or its time passes
    if (store && session.keep > 0 && holders.get(session.clientId) === sid) {
      store.keep(
        session.clientId,
        session.identity.key,
        [...session.qos].map(([topic, qos]) => ({ topic, qos })),
        Date.now() + session.keep * 1000,
      );
    }
    session.filters = [];
    if (!replaced && holders.get(session.clientId) === sid) holders.delete(session.clientId);
    if (session.announced) emit('disconnected', session.identity, session.clientId);
  }

  /** drops sessions whose will can no longer come, and accepted ones that never became ready */
  function sweep(now: number) {
    for (const [sid, s] of sessions) {
      if ((s.gone && now - s.since > GONE_KEPT_MS) || (!s.announced && !s.gone && now - s.since > UNREADY_KEPT_MS))
        sessions.delete(sid);
    }
  }
  const sweeper = setInterval(() => sweep(performance.now()), GONE_KEPT_MS);
  sweeper.unref();

  // --- the threads ---
  const entry = workerEntry(import.meta.url, 'broker.worker');
  const threads: Thread[] = [];
  let listening: { resolve: (port: number) => void; reject: (err: Error) => void } | undefined;
  const send = (t: Thread, m: LoopCommand) => t.worker.postMessage(m);
  const sendAll = (m: LoopCommand) => threads.forEach((t) => send(t, m));
  /** WebSocket connections relayed to the first thread */
  const relayed = new WebSocketRelay(
    (m) => send(threads[0]!, m),
    maxOutbound,
    (bytes) => counted.overflowed(undefined, bytes),
    log,
  );

  /** a session's publish reaches the subscribers of the other threads (retained: every thread keeps it) */
  const store = opts.store;
  const wire = (m: StoredMessage): WireMessage => ({
    topic: m.topic,
    payload: new Uint8Array(m.payload),
    qos: m.qos,
    properties: m.properties,
    expiresAt: m.expiresAt,
  });
  /** a message of a session or of the gateway: kept if retained, queued for the away sessions subscribed to it */
  function keepMessage(topic: string, payload: Buffer, qos: 0 | 1 | 2, retain: boolean, v5?: V5Properties) {
    // most messages are neither retained nor awaited by anyone away: nothing is built for them
    if (!store || (!retain && (qos === 0 || !store.anyAway))) return;
    const m = { topic, payload, qos, properties: v5?.properties, expiresAt: v5?.expiresAt };
    if (retain) store.retain(m);
    store.enqueue(m);
  }
  const expirySweep = store ? setInterval(() => store.expire(), 60_000) : undefined;
  expirySweep?.unref();

  function forward(from: Thread, topic: string, payload: Buffer, qos: 0 | 1 | 2, retain: boolean, v5?: V5Properties) {
    for (const t of threads) {
      if (t === from || !(retain || t.filters.matches(topic))) continue;
      send(t, { t: 'publish', req: 0, topic, payload: new Uint8Array(payload), qos: qos === 0 ? 0 : 1, retain, ...v5 });
    }
  }

  // released acknowledgements and the count of runs taken go to their threads once per turn of the event loop (a
  // commit releases a batch of acknowledgements; the thread's handover bound waits for the runs taken)
  let releasing: NodeJS.Immediate | undefined;
  function tellThreads() {
    if (closing) return;
    releasing ??= setImmediate(() => {
      releasing = undefined;
      if (closing) return;
      for (const t of threads) {
        const r = t.acks.take();
        const took = t.took;
        t.took = 0;
        if (r || took) send(t, { t: 'acks', ...r, ...(took > 0 && { took }) });
      }
    });
  }

  function onEvent(thread: Thread, ev: ThreadEvent) {
    switch (ev.e) {
      case 'msgs': {
        thread.took++;
        tellThreads();
        const others = threads.length > 1;
        const ledger = thread.acks;
        let v5 = thread.nextProperties;
        thread.nextProperties = undefined;
        unpackMessages(ev.buf, (sid, qos, retain, topic, payload, held) => {
          const session = sessions.get(sid);
          if (held) {
            const entry = ledger.open();
            if (session) emit('message', session.identity, topic, payload, qos, () => ledger.hold(entry));
            ledger.letGo(entry);
          } else if (session) emit('message', session.identity, topic, payload, qos);
          if (others) forward(thread, topic, payload, qos, retain, v5);
          keepMessage(topic, payload, qos, retain, v5);
          v5 = undefined;
        });
        break;
      }
      case 'expiry': {
        const session = sessions.get(ev.sid);
        if (session) session.keep = ev.keep;
        break;
      }
      case 'inflight':
        store?.requeue(
          ev.clientId,
          ev.messages.map((m) => ({ ...m, payload: asBuffer(m.payload) })),
        );
        break;
      case 'props':
        thread.nextProperties = { properties: ev.properties, expiresAt: ev.expiresAt };
        break;
      case 'auth': {
        const { req, clientId } = ev;
        relay.admit(clientId, ev.username, ev.password ? asBuffer(ev.password) : undefined, ev.address).then((r) => {
          if ('returnCode' in r) {
            log.debug(`MQTT client ${clientId} refused: ${r.message}`);
            return send(thread, { t: 'authAnswer', req, returnCode: r.returnCode, message: r.message });
          }
          const sid = nextSid++;
          const keep = ev.session?.keep ?? 0;
          sessions.set(sid, {
            ...r,
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
          ended.delete(r.identity);
          // the client id is this session's from now on (its CONNACK may go out before `ready` comes back here); the
          // same id still connected through another thread is taken over (MQTT-3.1.4-2; within a thread aedes does it)
          const before = holders.get(clientId);
          const older = before === undefined ? undefined : sessions.get(before);
          if (older && !older.gone && older.thread !== thread) send(older.thread, { t: 'kick', sids: [before!] });
          holders.set(clientId, sid);
          // its stored session, if it keeps one: from the store (its client was away), or from the connection it takes
          // over (still up: its subscriptions continue); a clean session ends a stored one
          const discard = keep === 0 || (ev.session?.discard ?? true);
          const stored = store?.take(clientId, r.identity.key, discard);
          const live =
            !discard && older && !older.gone && older.identity.key === r.identity.key && older.keep > 0
              ? { subscriptions: [...older.qos].map(([topic, qos]) => ({ topic, qos })), queued: [] }
              : undefined;
          // its subscriptions under the rights its identity has now (they may have changed while it was away)
          const rights = (subs: { topic: string; qos: number }[]) =>
            subs.filter((x) => relay.allowed(sessions.get(sid), x.topic, 'subscribe'));
          const resumed = stored
            ? { subscriptions: rights(stored.subscriptions), queued: stored.queued.map(wire) }
            : live && { ...live, subscriptions: rights(live.subscriptions) };
          send(thread, { t: 'authAnswer', req, sid, ...(resumed && { resumed }) });
        });
        break;
      }
      case 'authz': {
        const session = sessions.get(ev.sid);
        const ok = relay.allowed(session, ev.topic, ev.kind);
        if (!ok && ev.kind === 'publish') counted.dropped(session?.identity.key ?? 'unknown', ev.topic);
        const scope =
          ok && ev.kind === 'subscribe' ? session!.authority.receiveScope?.(session!.identity, ev.topic) : undefined;
        send(thread, { t: 'authzAnswer', req: ev.req, ok, ...(scope && { scope }) });
        break;
      }
      case 'ready': {
        const session = sessions.get(ev.sid);
        if (!session || session.gone) return;
        session.announced = true;
        emit('connected', session.identity, ev.clientId);
        break;
      }
      case 'gone': {
        const session = sessions.get(ev.sid);
        if (session) end(ev.sid, session, ev.replaced);
        break;
      }
      case 'subs':
      case 'unsubs': {
        const session = sessions.get(ev.sid);
        if (!session || session.gone) return;
        for (const [i, f] of ev.filters.entries()) {
          if (ev.e === 'subs') {
            session.filters.push(f);
            thread.filters.add(f);
            session.qos.set(f, ev.qos?.[i] ?? 0);
          } else {
            session.qos.delete(f);
            const at = session.filters.indexOf(f);
            if (at < 0) continue;
            session.filters.splice(at, 1);
            thread.filters.remove(f);
          }
        }
        break;
      }
      case 'published':
        publishes.answered(ev.req, ev.error);
        break;
      case 'ws':
        relayed.write(ev.id, ev.data);
        break;
      case 'overflow':
        counted.overflowed(ev.clientId, ev.bytes);
        break;
      case 'wsEnd':
        relayed.ended(ev.id);
        break;
      case 'oversized':
        counted.oversized(ev.clientId, ev.length);
        break;
      case 'log':
        log[ev.level](ev.message);
        break;
    }
  }

  function start(index: number): Thread {
    const worker = new Worker(entry.script, {
      eval: entry.eval,
      workerData: { debug: opts.debug ?? false, maxOutboundBytes: maxOutbound },
    });
    const thread: Thread = { index, worker, filters: new TopicFilters(), acks: new AckLedger(tellThreads), took: 0 };
    // the retained messages kept across restarts (a restarted thread gets the ones kept since)
    if (store)
      worker.postMessage({ t: 'retained', messages: store.retainedMessages().map(wire) } satisfies LoopCommand);
    worker.on('message', (m: ThreadMessage) => {
      if (m.t === 'batch') {
        for (const ev of m.events) onEvent(thread, ev);
      } else if (m.t === 'listening') {
        boundPort = m.port;
        if (listenFd < 0 && native) listenFd = native.dup(m.fd);
        if (index === 0 && listening) {
          // the others listen on duplicates of the first one's socket
          for (const t of threads.slice(1)) send(t, { t: 'listenFd', fd: native!.dup(listenFd) });
          listening.resolve(m.port);
          listening = undefined;
        }
      } else if (m.t === 'listenFailed') {
        if (listening) listening.reject(new Error(m.message));
        else log.error(`MQTT broker thread ${index} could not listen: ${m.message}`);
        listening = undefined;
      }
    });
    worker.on('error', (err) => log.error(`MQTT broker thread ${index} failed`, err));
    worker.on('exit', (code) => {
      if (threads[index] !== thread || closing) return;
      // its connections went with it: devices reconnect, to this thread's successor or another one
      log.error(`MQTT broker thread ${index} exited (${code}); starting a new one`);
      lost(thread, new Error('MQTT broker thread exited'));
      const next = start(index);
      threads[index] = next;
      if (readPaused) send(next, { t: 'pause', paused: true });
      if (listenFd >= 0) send(next, { t: 'listenFd', fd: native!.dup(listenFd) });
      else if (boundPort) send(next, { t: 'listen', host: opts.host, port: boundPort });
    });
    return thread;
  }

  /** what a thread held is gone with it */
  function lost(thread: Thread, err: Error) {
    for (const [sid, s] of sessions) if (s.thread === thread) end(sid, s, false);
    publishes.failAll(err);
    if (thread.index === 0) relayed.dropAll();
  }

  for (let i = 0; i < count; i++) threads.push(start(i));

  return {
    addAuthority(authority) {
      relay.add(authority);
    },
    on(event, listener) {
      listeners[event].add(listener);
    },
    publish(topic, payload, po = {}) {
      if (closing) return Promise.reject(new Error('MQTT broker closed'));
      return publishes.open(threads.length, (req) => {
        // a copy of just these bytes: a view would clone the whole (pooled) buffer behind it
        const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
        keepMessage(topic, bytes, po.qos ?? 0, po.retain ?? false);
        sendAll({
          t: 'publish',
          req,
          topic,
          payload: new Uint8Array(bytes),
          qos: po.qos ?? 0,
          retain: po.retain ?? false,
        });
      });
    },
    disconnect(match) {
      const kicks = new Map<Thread, SessionId[]>();
      // sessions not announced yet too: the thread may have sent CONNACK before its `ready` reached the event loop
      for (const [sid, session] of sessions) {
        if (session.gone) continue;
        let hit = false;
        try {
          hit = match(session.identity);
        } catch (err) {
          log.error('broker disconnect matcher failed', err);
        }
        if (!hit) continue;
        const sids = kicks.get(session.thread);
        if (sids) sids.push(sid);
        else kicks.set(session.thread, [sid]);
      }
      let n = 0;
      for (const [thread, sids] of kicks) {
        send(thread, { t: 'kick', sids });
        n += sids.length;
      }
      return n;
    },
    setReadPaused(paused: boolean) {
      if (paused === readPaused) return;
      readPaused = paused;
      sendAll({ t: 'pause', paused });
    },
    get readPaused() {
      return readPaused;
    },
    awaits(topic, identityKey) {
      return store?.awaits(topic, identityKey) ?? false;
    },
    unqueue(topic, payload, identityKey) {
      return store?.unqueue(topic, payload, identityKey) ?? false;
    },
    ended(identity) {
      return ended.has(identity);
    },
    connected() {
      const out: MqttIdentity[] = [];
      for (const s of sessions.values()) if (s.announced && !s.gone) out.push(s.identity);
      return out;
    },
    get port() {
      return boundPort;
    },
    get threads() {
      return threads.length;
    },
    metrics() {
      return counted.snapshot(opts.throttle, store);
    },
    threadUtilization(since) {
      return threads.map((t, i) =>
        since?.[i] ? t.worker.performance.eventLoopUtilization(since[i]) : t.worker.performance.eventLoopUtilization(),
      );
    },
    listen() {
      return new Promise<number>((resolve, reject) => {
        listening = { resolve, reject };
        send(threads[0]!, { t: 'listen', host: opts.host, port: opts.port });
      });
    },
    attachWebSocket(server, path = '/mqtt') {
      relayed.attach(server, path);
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        if (expirySweep) clearInterval(expirySweep);
        await relayed.close();
        await Promise.all(
          threads.map(async (t) => {
            const exited = new Promise<void>((resolve) => t.worker.once('exit', () => resolve()));
            const closed = new Promise<void>((resolve) =>
              t.worker.on('message', (m: ThreadMessage) => m.t === 'closed' && resolve()),
            );
            send(t, { t: 'close' });
            const timer = setTimeout(() => void t.worker.terminate(), 5000);
            await Promise.race([closed.then(() => exited), exited]);
            clearTimeout(timer);
            lost(t, new Error('MQTT broker closed'));
          }),
        );
        if (listenFd >= 0) fs.closeSync(listenFd);
        listenFd = -1;
        store?.close();
      })();
      return closing;
    },
  };
}
