// The embedded MQTT broker (aedes): devices connect over TCP (MQTT_PORT) or WebSocket (/mqtt on the HTTP port).
// aedes runs on a thread of its own (broker.worker.ts): parsing, sessions, PUBACKs and socket writes take ~25 µs of
// CPU a message, which at fleet rates would fill the event loop. The event loop keeps everything about identities:
// every client is authenticated by a domain authority, every topic authorised by the authority that knew it (a
// session's allowed publish topics are remembered by the thread), and what sessions publish arrives here in packed
// runs, in order, as `message` events of their identities.
import type http from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { workerEntry } from '../worker-entry.js';
import { unpackMessages, type LoopCommand, type SessionId, type ThreadEvent, type ThreadMessage } from './broker-wire.js';
import type { Broker, BrokerAuthority, BrokerEvents, MqttIdentity } from './types.js';
import { serveMqttOverWebSocket, type WebSocketEndpoint } from './websocket.js';

export interface EmbeddedBroker extends Broker {
  /** starts the broker thread's TCP listener; resolves with the bound port */
  listen(): Promise<number>;
  /** serves MQTT over WebSocket at `path` on the gateway's HTTP server */
  attachWebSocket(server: http.Server, path?: string): void;
  /** the broker thread's event-loop utilisation since `since` (as performance.eventLoopUtilization) */
  threadUtilization(since?: EventLoopUtilization): EventLoopUtilization;
  /** stops accepting, disconnects every client, stops aedes and its thread; idempotent */
  close(): Promise<void>;
}

export interface BrokerOptions {
  host: string;
  port: number;
  log: Logger;
  /** the thread reports aedes' client and connection errors (debug lines) */
  debug?: boolean;
}

interface Session {
  identity: MqttIdentity;
  authority: BrokerAuthority;
  clientId: string;
  /** `connected` was emitted, so `disconnected` must follow */
  announced: boolean;
  /** when the connection went (its will message may still follow), or when it was accepted, for the sweep */
  since: number;
  gone: boolean;
}

// CONNACK return codes of MQTT 3.1.1
const SERVER_UNAVAILABLE = 3;
const NOT_AUTHORIZED = 5;
/** a gone session is kept this long: a will message is published after the disconnect is reported */
const GONE_KEPT_MS = 10_000;
/** an accepted session that never became ready (the socket dropped before CONNACK) is forgotten after this */
const UNREADY_KEPT_MS = 60_000;

const reserved = (topic: string) => topic.startsWith('$');

export function createBroker(opts: BrokerOptions): EmbeddedBroker {
  const { log } = opts;
  const authorities: BrokerAuthority[] = [];
  const sessions = new Map<SessionId, Session>();
  let nextSid = 1;
  /** client id → identity key of the connected client: MQTT lets a new CONNECT with the same id take the session
   * over, which must stay a right of the same identity, never a way for one device to kick another */
  const clientOwners = new Map<string, string>();
  const listeners: { [E in keyof BrokerEvents]: Set<BrokerEvents[E]> } = { connected: new Set(), disconnected: new Set(), message: new Set() };
  const endpoints: WebSocketEndpoint[] = [];
  /** WebSocket connections relayed to the thread */
  const relayed = new Map<number, import('node:stream').Duplex>();
  let nextWs = 1;
  const publishes = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let nextReq = 1;
  let readPaused = false;
  let boundPort = 0;
  let closing: Promise<void> | undefined;

  function emit<E extends keyof BrokerEvents>(event: E, ...args: Parameters<BrokerEvents[E]>) {
    for (const fn of listeners[event]) {
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (err) {
        log.error(`broker ${event} listener failed`, err);
      }
    }
  }

  async function identify(clientId: string, username: string | undefined, password: Buffer | undefined): Promise<Omit<Session, 'clientId' | 'since' | 'gone'> | { returnCode: number; message: string }> {
    if (!username) return { returnCode: NOT_AUTHORIZED, message: 'anonymous clients are refused' };
    for (const authority of authorities) {
      let identity: MqttIdentity | null;
      try {
        identity = await authority.authenticate(clientId, username, password);
        if (identity && typeof identity.key !== 'string') throw new Error('authority returned an identity without key');
      } catch (err) {
        log.error(`MQTT authority failed for client ${clientId}`, err);
        return { returnCode: SERVER_UNAVAILABLE, message: 'authentication unavailable' };
      }
      if (identity) {
        const owner = clientOwners.get(clientId);
        if (owner !== undefined && owner !== identity.key) return { returnCode: NOT_AUTHORIZED, message: 'client id in use by another identity' };
        return { identity, authority, announced: false };
      }
    }
    return { returnCode: NOT_AUTHORIZED, message: 'unknown client' };
  }

  function allowed(session: Session | undefined, topic: string, kind: 'publish' | 'subscribe'): boolean {
    if (!session || session.gone || reserved(topic)) return false;
    try {
      return kind === 'publish' ? session.authority.authorizePublish(session.identity, topic) === true : session.authority.authorizeSubscribe(session.identity, topic) === true;
    } catch (err) {
      log.error(`MQTT authority failed authorising ${kind} on ${topic}`, err);
      return false;
    }
  }

  /** drops sessions whose will can no longer come, and accepted ones that never became ready */
  function sweep(now: number) {
    for (const [sid, s] of sessions) {
      if ((s.gone && now - s.since > GONE_KEPT_MS) || (!s.announced && !s.gone && now - s.since > UNREADY_KEPT_MS)) sessions.delete(sid);
    }
  }
  const sweeper = setInterval(() => sweep(performance.now()), GONE_KEPT_MS);
  sweeper.unref();

  // --- the thread ---
  const entry = workerEntry(import.meta.url, 'broker.worker');
  let thread: Worker;
  let listening: { resolve: (port: number) => void; reject: (err: Error) => void } | undefined;
  let closed: (() => void) | undefined;
  const send = (m: LoopCommand, transfer?: ArrayBuffer[]) => thread.postMessage(m, transfer);

  function onEvent(ev: ThreadEvent) {
    switch (ev.e) {
      case 'msgs':
        unpackMessages(ev.buf, (sid, qos, topic, payload) => {
          const session = sessions.get(sid);
          if (session) emit('message', session.identity, topic, payload, qos);
        });
        break;
      case 'auth': {
        const { req, clientId } = ev;
        identify(clientId, ev.username, ev.password ? Buffer.from(ev.password.buffer, ev.password.byteOffset, ev.password.byteLength) : undefined).then((r) => {
          if ('returnCode' in r) {
            log.debug(`MQTT client ${clientId} refused: ${r.message}`);
            return send({ t: 'authAnswer', req, returnCode: r.returnCode, message: r.message });
          }
          const sid = nextSid++;
          sessions.set(sid, { ...r, clientId, since: performance.now(), gone: false });
          send({ t: 'authAnswer', req, sid });
        });
        break;
      }
      case 'authz': {
        const session = sessions.get(ev.sid);
        const ok = allowed(session, ev.topic, ev.kind);
        if (!ok && ev.kind === 'publish') log.warn(`MQTT publish refused: ${session?.identity.key ?? 'unknown'} on ${ev.topic}`);
        send({ t: 'authzAnswer', req: ev.req, ok });
        break;
      }
      case 'ready': {
        const session = sessions.get(ev.sid);
        if (!session || session.gone) return;
        session.announced = true;
        clientOwners.set(ev.clientId, session.identity.key);
        emit('connected', session.identity, ev.clientId);
        break;
      }
      case 'gone': {
        const session = sessions.get(ev.sid);
        if (!session || session.gone) return;
        if (!ev.replaced) clientOwners.delete(ev.clientId);
        session.gone = true;
        session.since = performance.now();
        if (session.announced) emit('disconnected', session.identity, ev.clientId);
        break;
      }
      case 'published': {
        const p = publishes.get(ev.req);
        publishes.delete(ev.req);
        if (ev.error) p?.reject(new Error(ev.error));
        else p?.resolve();
        break;
      }
      case 'ws':
        relayed.get(ev.id)?.write(ev.data);
        break;
      case 'wsEnd': {
        const stream = relayed.get(ev.id);
        relayed.delete(ev.id);
        stream?.end();
        break;
      }
      case 'log':
        log[ev.level](ev.message);
        break;
    }
  }

  function start(): Worker {
    const w = new Worker(entry.script, { eval: entry.eval, workerData: { debug: opts.debug ?? false } });
    w.on('message', (m: ThreadMessage) => {
      if (m.t === 'batch') {
        for (const ev of m.events) onEvent(ev);
      } else if (m.t === 'listening') {
        boundPort = m.port;
        listening?.resolve(m.port);
        listening = undefined;
      } else if (m.t === 'listenFailed') {
        listening?.reject(new Error(m.message));
        listening = undefined;
      } else if (m.t === 'closed') {
        closed?.();
      }
    });
    w.on('error', (err) => log.error('MQTT broker thread failed', err));
    w.on('exit', (code) => {
      if (w !== thread || closing) return;
      // every connection went with the thread: devices reconnect to a new one on the same port
      log.error(`MQTT broker thread exited (${code}); starting a new one`);
      lostEverything(new Error('MQTT broker thread exited'));
      thread = start();
      if (readPaused) send({ t: 'pause', paused: true });
      if (boundPort) {
        listening = { resolve: () => {}, reject: (err) => log.error('MQTT broker thread could not listen again', err) };
        send({ t: 'listen', host: opts.host, port: boundPort });
      }
    });
    return w;
  }

  function lostEverything(err: Error) {
    const now = performance.now();
    for (const s of sessions.values()) {
      if (s.gone) continue;
      s.gone = true;
      s.since = now;
      clientOwners.delete(s.clientId);
      if (s.announced) emit('disconnected', s.identity, s.clientId);
    }
    for (const p of publishes.values()) p.reject(err);
    publishes.clear();
    for (const stream of relayed.values()) stream.destroy();
    relayed.clear();
    listening?.reject(err);
    listening = undefined;
  }

  thread = start();

  return {
    addAuthority(authority) {
      authorities.push(authority);
    },
    on(event, listener) {
      listeners[event].add(listener);
    },
    publish(topic, payload, po = {}) {
      if (closing) return Promise.reject(new Error('MQTT broker closed'));
      return new Promise<void>((resolve, reject) => {
        const req = nextReq++;
        publishes.set(req, { resolve, reject });
        // a copy of just these bytes: a view would clone the whole (pooled) buffer behind it
        const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
        send({ t: 'publish', req, topic, payload: new Uint8Array(bytes), qos: po.qos ?? 0, retain: po.retain ?? false });
      });
    },
    disconnect(match) {
      const sids: SessionId[] = [];
      for (const [sid, session] of sessions) {
        if (!session.announced || session.gone) continue;
        let hit = false;
        try {
          hit = match(session.identity);
        } catch (err) {
          log.error('broker disconnect matcher failed', err);
        }
        if (hit) sids.push(sid);
      }
      if (sids.length) send({ t: 'kick', sids });
      return sids.length;
    },
    setReadPaused(paused: boolean) {
      if (paused === readPaused) return;
      readPaused = paused;
      send({ t: 'pause', paused });
    },
    get readPaused() {
      return readPaused;
    },
    connected() {
      const out: MqttIdentity[] = [];
      for (const s of sessions.values()) if (s.announced && !s.gone) out.push(s.identity);
      return out;
    },
    get port() {
      return boundPort;
    },
    threadUtilization(since) {
      return since ? thread.performance.eventLoopUtilization(since) : thread.performance.eventLoopUtilization();
    },
    listen() {
      return new Promise<number>((resolve, reject) => {
        listening = { resolve, reject };
        send({ t: 'listen', host: opts.host, port: opts.port });
      });
    },
    attachWebSocket(server, path = '/mqtt') {
      endpoints.push(
        serveMqttOverWebSocket(
          server,
          path,
          (stream) => {
            const id = nextWs++;
            relayed.set(id, stream);
            send({ t: 'wsOpen', id });
            stream.on('data', (data: Buffer) => send({ t: 'wsData', id, data: new Uint8Array(data) }));
            stream.on('close', () => {
              if (relayed.delete(id)) send({ t: 'wsEnd', id });
            });
          },
          log,
        ),
      );
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        await Promise.all(endpoints.map((e) => e.close()));
        const w = thread;
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        const done = new Promise<void>((resolve) => (closed = resolve));
        send({ t: 'close' });
        const timer = setTimeout(() => void w.terminate(), 5000);
        await Promise.race([done.then(() => exited), exited]);
        clearTimeout(timer);
        lostEverything(new Error('MQTT broker closed'));
      })();
      return closing;
    },
  };
}
