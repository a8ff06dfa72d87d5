// The embedded MQTT broker (aedes): devices connect over TCP (MQTT_PORT) or WebSocket (/mqtt on the HTTP port).
// aedes runs on threads of its own (broker.worker.ts; MQTT_THREADS, one by default), each listening on its own
// descriptor of the one TCP socket so the kernel spreads the connections: parsing, sessions, PUBACKs and socket
// writes take 20–30 µs of CPU a message, which at fleet rates would fill the event loop. The event loop keeps
// everything about identities: every client is authenticated by a domain authority, every topic authorised by the
// authority that knew it (a session's allowed publish topics are remembered by its thread), and what sessions publish
// arrives here in packed runs, in order, as `message` events of their identities. Between threads it plays the
// broker: the gateway's publishes go to every thread, a client's publish to the threads whose sessions subscribed
// (retained ones to all), and a client id taken over on another thread closes the older connection. Between gateways
// (BUS=nats) cluster.ts does the same over the bus: retained messages, away sessions, take-overs and plain publishes to
// the gateways whose clients subscribe.
// Over 500 lines, kept whole: what is left here is the event loop's side of every thread event (`onEvent`) and the
// state all of them share in one closure (the threads, the sessions, the store, the counters, the cluster); each
// concern that stands alone is its own module already (broker-threads, broker-sessions, broker-metrics,
// authority-relay, gateway-publishes, cluster), and the rest would have to pass that closure's state around.
import type http from 'node:http';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Logger } from '../log.js';
import { nativeFd } from '../native-fd.js';
import { asBuffer, unpackMessages, type LoopCommand, type ThreadEvent } from './broker-wire.js';
import { AuthorityRelay } from './authority-relay.js';
import { BrokerMetrics, type BrokerCounters } from './broker-metrics.js';
import { BrokerSessions, GONE_KEPT_MS } from './broker-sessions.js';
import { BrokerThreads, type BrokerThread, type V5Properties } from './broker-threads.js';
import { GatewayPublishes } from './gateway-publishes.js';
import { DEFAULT_MAX_OUTBOUND_BYTES } from './limits.js';
import type { ConnectThrottle } from '../mqtt-connect-throttle.js';
import { DEFAULT_BROKER_THREADS, type AckRelease, type Broker, type BrokerEvents, type MqttIdentity } from './types.js';
import type { AckLedger } from './held-acks.js';
import { WebSocketRelay } from './websocket-relay.js';
import {
  GATEWAY_HOLDER,
  type RetainedHolder,
  type SessionStore,
  type StoredMessage,
} from './persistence/session-store.js';
import type { WireMessage } from './broker-wire.js';
import type { Bus } from '../bus/types.js';
import { BrokerCluster } from './cluster.js';

export interface EmbeddedBroker extends Broker {
  /** starts the broker threads' TCP listener; resolves with the bound port */
  listen(): Promise<number>;
  /**
   * serves MQTT over WebSocket at `path` on the gateway's HTTP server; `addressOf` names a connection's client (the
   * peer, or what a trusted load balancer forwarded: http/client-address.ts) for the sign-in throttles
   */
  attachWebSocket(server: http.Server, path?: string, addressOf?: (req: http.IncomingMessage) => string): void;
  /** each broker thread's event-loop utilisation since `since` (as performance.eventLoopUtilization), in thread order */
  threadUtilization(since?: EventLoopUtilization[]): EventLoopUtilization[];
  /** how many broker threads serve the TCP listener */
  readonly threads: number;
  /** whether signed-in TCP connections are read by the native reader (built, and not turned off) */
  readonly nativeReads: boolean;
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
  /** signed-in TCP connections read by the native reader when it was built (native-reads.ts; default true) */
  nativeReads?: boolean;
  /**
   * the fast path (default true): the threads replace aedes' packet handlers and patch mqtt-packet and aedes-packet
   * (hot PUBLISH path, held PUBACKs, MQTT 5); false runs aedes' own handlers with the same rights, limits and
   * acknowledgements after commit through its public hooks, 3.1.1 only and without the native reader (MQTT_FAST_PATH)
   */
  fastPath?: boolean;
  /** CONNECT failures counted per client address; a blocked address is refused unchecked (mqtt-connect-throttle.ts) */
  throttle?: ConnectThrottle;
  /** a connection (TCP or WebSocket) holding more than this unwritten is closed (MQTT_MAX_OUTBOUND_BYTES, default 4 MiB) */
  maxOutboundBytes?: number;
  /**
   * the load balancers (TRUST_PROXY's list) whose TCP connections open with a PROXY header naming the client
   * (MQTT_PROXY_PROTOCOL=on; proxy-protocol.ts); empty or absent: no header is read
   */
  proxyProtocolFrom?: readonly string[];
  /** retained messages and persistent sessions kept across restarts (without: kept in memory by each thread only) */
  store?: SessionStore;
  /** BUS=nats: the bus the gateways of the deployment share; the store's state is then the deployment's (cluster.ts) */
  cluster?: Bus;
}

/** a connection taken over by another gateway: how long its end is awaited before the answer goes anyway */
const RELEASE_WAIT_MS = 1_000;

type Thread = BrokerThread;

/** whose retained messages a session's are: its identity's, within its tenant's share (none known: one of its own) */
const holderOf = (identity: MqttIdentity): RetainedHolder => ({
  device: identity.key,
  tenant:
    identity.tenantId !== undefined
      ? `tenant:${identity.tenantId}`
      : identity.appId !== undefined
        ? `app:${identity.appId}`
        : 'unowned',
});

export { DROPPED_BY_KEY_LIMIT } from './broker-metrics.js';

export function createBroker(opts: BrokerOptions): EmbeddedBroker {
  const { log } = opts;
  const native = nativeFd();
  const count = native ? Math.max(1, opts.threads ?? DEFAULT_BROKER_THREADS) : 1;
  // a gateway without its native helper works, slower: say so at start, not only in an install log long gone
  if (!native)
    log.warn(
      `MQTT broker without its native helper (server/native not built; \`npm run native\` builds it with python3, make and g++): one broker thread${(opts.threads ?? 1) > 1 ? ` instead of MQTT_THREADS=${opts.threads}` : ''}, sockets read through Node`,
    );
  const sessions: BrokerSessions<Thread> = new BrokerSessions<Thread>({
    connected: (identity, clientId) => emit('connected', identity, clientId),
    disconnected: (identity, clientId) => emit('disconnected', identity, clientId),
    // a persistent session nobody took over is kept until its client returns or its time passes
    away: (session) => {
      if (!store) return;
      const subscriptions = [...session.qos].map(([topic, qos]) => ({ topic, qos }));
      const expiresAt = Date.now() + session.keep * 1000;
      store.keep(session.clientId, session.identity.key, subscriptions, expiresAt);
      // taken by another gateway: it reads the session back from the database, nobody else should queue for it
      if (!released.has(session.clientId))
        cluster?.away(session.clientId, session.identity.key, subscriptions, expiresAt);
    },
  });
  const relay = new AuthorityRelay(
    log,
    (clientId) => sessions.holderKey(clientId) ?? cluster?.holderKey(clientId),
    opts.throttle,
  );
  /** client ids whose connection here another gateway is taking over, and the sessions whose end it awaits */
  const released = new Set<string>();
  const goneWaiters = new Map<number, () => void>();
  const listeners: { [E in keyof BrokerEvents]: Set<BrokerEvents[E]> } = {
    connected: new Set(),
    disconnected: new Set(),
    message: new Set(),
  };
  /** the gateway's publishes: the threads that have not answered yet */
  const publishes = new GatewayPublishes();
  let readPaused = false;
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

  const sweeper = setInterval(() => sessions.sweep(), GONE_KEPT_MS);
  sweeper.unref();

  /** retained messages and persistent sessions kept across restarts, and how a kept message travels to a thread */
  const store = opts.store;
  const cluster =
    store && opts.cluster
      ? new BrokerCluster(
          opts.cluster,
          store,
          { deliverRetained, deliver, release, holds: (clientId) => sessions.holder(clientId) !== undefined },
          { log },
        )
      : undefined;
  const wire = (m: StoredMessage): WireMessage => ({
    topic: m.topic,
    payload: new Uint8Array(m.payload),
    qos: m.qos,
    properties: m.properties,
    expiresAt: m.expiresAt,
  });

  // --- the threads (broker-threads.ts: started, restarted, listening, stopped) ---
  const pool: BrokerThreads = new BrokerThreads({
    count,
    host: opts.host,
    log,
    native,
    workerData: {
      debug: opts.debug ?? false,
      maxOutboundBytes: maxOutbound,
      nativeReads: (opts.fastPath ?? true) && (opts.nativeReads ?? true),
      fastPath: opts.fastPath ?? true,
      proxyProtocolFrom: [...(opts.proxyProtocolFrom ?? [])],
    },
    onEvent: (thread, ev) => onEvent(thread, ev),
    onReleased: () => tellThreads(),
    onLost: (thread, err) => lost(thread, err),
    onFilter: opts.cluster ? (filter, added) => cluster?.filter(filter, added) : undefined,
    greeting: () => [
      // the retained messages kept across restarts (a restarted thread gets the ones kept since)
      ...(store ? [{ t: 'retained', messages: store.retainedMessages().map(wire) } satisfies LoopCommand] : []),
      ...(readPaused ? [{ t: 'pause', paused: true } satisfies LoopCommand] : []),
    ],
  });
  const threads = pool.all;
  const send = (t: Thread, m: LoopCommand) => pool.send(t, m);
  const sendAll = (m: LoopCommand) => pool.sendAll(m);
  /** WebSocket connections relayed to the first thread */
  const relayed = new WebSocketRelay(
    (m) => send(threads[0]!, m),
    maxOutbound,
    (bytes) => counted.overflowed(undefined, bytes),
    log,
  );

  /**
   * A message of a session (`holder` its identity's) or of the gateway (none): kept if retained (a session's was
   * admitted by its thread's `retain` question first), queued for the away sessions subscribed to it.
   */
  function keepMessage(
    topic: string,
    payload: Buffer,
    qos: 0 | 1 | 2,
    retain: boolean,
    v5?: V5Properties,
    holder?: RetainedHolder,
  ) {
    // most messages are neither retained nor awaited by anyone away: nothing is built for them
    if (!store || (!retain && (qos === 0 || !store.anyAway))) return;
    const m = { topic, payload, qos, properties: v5?.properties, expiresAt: v5?.expiresAt };
    if (retain && store.retain(m, holder) && cluster)
      cluster.retained(m, store.retainedHolder(topic) ?? holder ?? GATEWAY_HOLDER);
    store.enqueue(m);
  }

  /** a message another gateway published, as a broker thread takes it */
  const publishOf = (m: StoredMessage, retain: boolean): LoopCommand => ({
    t: 'publish',
    req: 0,
    topic: m.topic,
    payload: new Uint8Array(m.payload),
    qos: m.qos === 0 ? 0 : 1,
    retain,
    ...(m.properties && { properties: m.properties }),
    ...(m.expiresAt !== undefined && { expiresAt: m.expiresAt }),
  });

  /** another gateway's retained message (empty: deleted): every thread delivers it to its subscribers and keeps it */
  function deliverRetained(m: StoredMessage) {
    sendAll(publishOf(m, true));
  }

  /** another gateway's client publish: to the threads whose sessions subscribed to it */
  function deliver(m: StoredMessage) {
    for (const t of threads) if (t.filters.matches(m.topic)) send(t, publishOf(m, false));
  }

  /** another gateway takes `clientId` (same identity): this gateway's connection of it ends, its session stored */
  function release(clientId: string, identityKey: string): Promise<void> {
    const held = sessions.holder(clientId);
    if (!held || held.session.identity.key !== identityKey) return Promise.resolve();
    released.add(clientId);
    send(held.session.thread, { t: 'kick', sids: [held.sid] });
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, RELEASE_WAIT_MS);
      function done() {
        clearTimeout(timer);
        goneWaiters.delete(held!.sid);
        released.delete(clientId);
        resolve();
      }
      goneWaiters.set(held.sid, done);
    });
  }
  // sessions and retained messages whose time passed; the threads drop their copies of those retained messages
  const expirySweep = store
    ? setInterval(() => {
        const gone = store.expire();
        if (gone.length)
          sendAll({ t: 'retained', messages: gone.map((topic) => ({ topic, payload: new Uint8Array(0), qos: 0 })) });
      }, 60_000)
    : undefined;
  expirySweep?.unref();

  /** a session's publish reaches the subscribers of the other threads (retained: every thread keeps it) */
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

  /** the held message whose `message` event is being emitted: its listeners hold it through `holdCurrent` (one
   * function for every message instead of a closure each; a listener holds while it handles the event) */
  let holding: ReturnType<AckLedger['open']> | undefined;
  let holdingLedger: AckLedger | undefined;
  const holdCurrent = (): AckRelease => {
    if (!holding || !holdingLedger) throw new Error('a message is held only while its event is handled');
    return holdingLedger.hold(holding);
  };

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
            const entry = (holding = ledger.open());
            holdingLedger = ledger;
            if (session) emit('message', session.identity, topic, payload, qos, holdCurrent);
            holding = undefined;
            ledger.letGo(entry);
          } else if (session) emit('message', session.identity, topic, payload, qos);
          if (others) forward(thread, topic, payload, qos, retain, v5);
          // to the other gateways' subscribers (a retained one reaches every gateway through the store's notice)
          if (cluster && !retain) cluster.route(topic, payload, qos, v5?.properties, v5?.expiresAt);
          keepMessage(topic, payload, qos, retain, v5, retain && session ? holderOf(session.identity) : undefined);
          v5 = undefined;
        });
        break;
      }
      case 'expiry': {
        const session = sessions.get(ev.sid);
        if (session) session.keep = ev.keep;
        break;
      }
      case 'awaiting':
        store?.awaitRelease(ev.clientId, ev.ids);
        break;
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
          const keep = ev.session?.keep ?? 0;
          const { sid, older: taken } = sessions.open(r, clientId, thread, keep);
          // the same id still connected through another thread is taken over (MQTT-3.1.4-2; within a thread aedes
          // does it)
          const older = taken?.session;
          if (taken && taken.session.thread !== thread) send(taken.session.thread, { t: 'kick', sids: [taken.sid] });
          // its stored session, if it keeps one: from the store (its client was away), or from the connection it takes
          // over (still up: its subscriptions continue); a clean session ends a stored one
          const discard = keep === 0 || (ev.session?.discard ?? true);
          const key = r.identity.key;
          // several gateways: held through another one, or away (the others may have queued for it), the session is
          // taken from the deployment first; a client id nobody else held (the common case) waits for nothing
          if (cluster && !older && cluster.needsTake(clientId))
            return cluster
              .take(clientId, key)
              .then(() => store!.takeStored(clientId, key, discard))
              .catch((err: unknown) => {
                log.error(`MQTT session ${clientId} could not be read from the database`, err);
                return undefined;
              })
              .then((stored) => answer(stored));
          answer(store?.take(clientId, key, discard));
          function answer(stored: ReturnType<SessionStore['take']>) {
            const live =
              !discard && older && older.identity.key === key && older.keep > 0
                ? { subscriptions: [...older.qos].map(([topic, qos]) => ({ topic, qos })), queued: [] }
                : undefined;
            // its subscriptions under the rights its identity has now (they may have changed while it was away)
            const rights = (subs: { topic: string; qos: number }[]) =>
              subs.filter((x) => relay.allowed(sessions.get(sid), x.topic, 'subscribe'));
            const resumed = stored
              ? {
                  subscriptions: rights(stored.subscriptions),
                  queued: stored.queued.map(wire),
                  ...(stored.awaiting && { awaiting: stored.awaiting }),
                }
              : live && { ...live, subscriptions: rights(live.subscriptions) };
            send(thread, { t: 'authAnswer', req, sid, ...(resumed && { resumed }) });
            cluster?.opened(clientId, key);
          }
        });
        break;
      }
      case 'authz': {
        const session = sessions.get(ev.sid);
        const ok = relay.allowed(session, ev.topic, ev.kind, ev.will === true);
        if (!ok && ev.kind === 'publish') counted.dropped(session?.identity.key ?? 'unknown', ev.topic);
        const scope =
          ok && ev.kind === 'subscribe' ? session!.authority.receiveScope?.(session!.identity, ev.topic) : undefined;
        const retained = ok && ev.retain !== undefined ? admitRetained(session, ev.topic, ev.retain) : undefined;
        // granted: the thread writes SUBACK when the answer arrives, and a publish on another thread routed after it
        // must reach the new subscriber, so its thread's filters have it now, not when the thread reports it
        if (ok && ev.kind === 'subscribe') sessions.subscribed(ev.sid, [ev.topic], [ev.qos ?? 0]);
        send(thread, {
          t: 'authzAnswer',
          req: ev.req,
          ok,
          ...(scope && { scope }),
          ...(retained !== undefined && { retained }),
        });
        break;
      }
      case 'retain':
        send(thread, { t: 'retainAnswer', req: ev.req, ok: admitRetained(sessions.get(ev.sid), ev.topic, ev.bytes) });
        break;
      case 'ready':
        sessions.ready(ev.sid, ev.clientId);
        break;
      case 'gone': {
        const session = sessions.get(ev.sid);
        sessions.end(ev.sid, ev.replaced);
        // a clean session ended here: the client id is free (a persistent one was announced away)
        if (cluster && session && session.keep === 0 && !ev.replaced && !released.has(session.clientId))
          cluster.ended(session.clientId, session.identity.key);
        goneWaiters.get(ev.sid)?.();
        break;
      }
      case 'subs':
        sessions.subscribed(ev.sid, ev.filters, ev.qos);
        break;
      case 'unsubs':
        sessions.unsubscribed(ev.sid, ev.filters);
        break;
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

  /**
   * Whether a session's retained message may be kept: within its device's, its tenant's and the platform's shares
   * (session-store.ts). A will comes after its session ended: still its identity's.
   */
  function admitRetained(session: ReturnType<typeof sessions.get>, topic: string, bytes: number): boolean {
    const ok =
      session !== undefined && (!store || store.admitRetained(holderOf(session.identity), topic, bytes) === null);
    if (!ok) counted.retainRefused(session?.identity.key ?? 'unknown', topic);
    return ok;
  }

  /** what a thread held is gone with it */
  function lost(thread: Thread, err: Error) {
    sessions.endAllOf(thread);
    publishes.failAll(err);
    if (thread.index === 0) relayed.dropAll();
  }

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
      // sessions not announced yet too: the thread may have sent CONNACK before its `ready` reached the event loop
      const kicks = sessions.kick(match, (err) => log.error('broker disconnect matcher failed', err));
      let n = 0;
      for (const [thread, sids] of kicks) {
        send(thread, { t: 'kick', sids });
        n += sids.length;
      }
      return n;
    },
    endingElsewhere(clientId, identityKey) {
      cluster?.endingElsewhere(clientId, identityKey);
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
      return sessions.hasEnded(identity);
    },
    connected() {
      return sessions.connected();
    },
    get port() {
      return pool.port;
    },
    get threads() {
      return threads.length;
    },
    nativeReads: native !== null && (opts.fastPath ?? true) && (opts.nativeReads ?? true),
    metrics() {
      return { ...counted.snapshot(opts.throttle, store), ...cluster?.metrics() };
    },
    threadUtilization(since) {
      return pool.utilization(since);
    },
    listen() {
      return pool.listen(opts.port);
    },
    attachWebSocket(server, path = '/mqtt', addressOf) {
      relayed.attach(server, path, addressOf);
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        if (expirySweep) clearInterval(expirySweep);
        await relayed.close();
        await pool.close();
        await store?.close();
        cluster?.close();
      })();
      return closing;
    },
  };
}
