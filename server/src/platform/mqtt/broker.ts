// The embedded MQTT broker (aedes): devices connect over TCP (MQTT_PORT) or WebSocket (/mqtt on the HTTP port).
// Every client is authenticated by a domain authority, every topic authorised by the authority that knew it.
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type http from 'node:http';
import net from 'node:net';
import Aedes, { type AuthenticateError, type Client } from 'aedes';
import type { Logger } from '../log.js';
import type { Broker, BrokerAuthority, BrokerEvents, MqttIdentity } from './types.js';
import { serveMqttOverWebSocket, type WebSocketEndpoint } from './websocket.js';

export interface EmbeddedBroker extends Broker {
  /** starts the TCP listener; resolves with the bound port */
  listen(): Promise<number>;
  /** serves MQTT over WebSocket at `path` on the gateway's HTTP server */
  attachWebSocket(server: http.Server, path?: string): void;
  /** stops accepting, disconnects every client, stops aedes; idempotent */
  close(): Promise<void>;
}

export interface BrokerOptions {
  host: string;
  port: number;
  log: Logger;
}

interface Session {
  identity: MqttIdentity;
  authority: BrokerAuthority;
  /** `connected` was emitted, so `disconnected` must follow */
  announced: boolean;
}

// CONNACK return codes of MQTT 3.1.1
const SERVER_UNAVAILABLE = 3;
const NOT_AUTHORIZED = 5;

function refusal(returnCode: number, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

const reserved = (topic: string) => topic.startsWith('$');

export function createBroker(opts: BrokerOptions): EmbeddedBroker {
  const { log } = opts;
  const aedes = new Aedes({
    id: `sentra-${randomBytes(4).toString('hex')}`,
    // a socket that never sends CONNECT holds memory for nothing
    connectTimeout: 10_000,
    // device UIDs and tokens can be longer than MQTT 3.1's 23-character client id
    maxClientsIdLength: 128,
  });
  const authorities: BrokerAuthority[] = [];
  const sessions = new WeakMap<Client, Session>();
  /** client id → identity key of the connected client: MQTT lets a new CONNECT with the same id take the session
   * over, which must stay a right of the same identity, never a way for one device to kick another */
  const clientOwners = new Map<string, string>();
  const listeners: { [E in keyof BrokerEvents]: Set<BrokerEvents[E]> } = { connected: new Set(), disconnected: new Set(), message: new Set() };
  const endpoints: WebSocketEndpoint[] = [];
  const tcp = net.createServer((socket) => aedes.handle(socket));
  let closing: Promise<void> | undefined;
  let readPaused = false;

  function emit<E extends keyof BrokerEvents>(event: E, ...args: Parameters<BrokerEvents[E]>) {
    for (const fn of listeners[event]) {
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (err) {
        log.error(`broker ${event} listener failed`, err);
      }
    }
  }

  async function identify(client: Client, username: string | undefined, password: Buffer | undefined): Promise<Session | AuthenticateError> {
    if (!username) return refusal(NOT_AUTHORIZED, 'anonymous clients are refused');
    for (const authority of authorities) {
      let identity: MqttIdentity | null;
      try {
        identity = await authority.authenticate(client.id, username, password);
        if (identity && typeof identity.key !== 'string') throw new Error('authority returned an identity without key');
      } catch (err) {
        log.error(`MQTT authority failed for client ${client.id}`, err);
        return refusal(SERVER_UNAVAILABLE, 'authentication unavailable');
      }
      if (identity) {
        const owner = clientOwners.get(client.id);
        if (owner !== undefined && owner !== identity.key) return refusal(NOT_AUTHORIZED, 'client id in use by another identity');
        return { identity, authority, announced: false };
      }
    }
    return refusal(NOT_AUTHORIZED, 'unknown client');
  }

  aedes.authenticate = (client, username, password, done) => {
    identify(client, username, password).then((result) => {
      if (result instanceof Error) {
        log.debug(`MQTT client ${client.id} refused: ${result.message}`);
        return done(result, false);
      }
      sessions.set(client, result);
      done(null, true);
    });
  };

  function allowed(client: Client | null, topic: string, kind: 'publish' | 'subscribe'): boolean {
    const session = client ? sessions.get(client) : undefined;
    if (!session || reserved(topic)) return false;
    try {
      return kind === 'publish' ? session.authority.authorizePublish(session.identity, topic) === true : session.authority.authorizeSubscribe(session.identity, topic) === true;
    } catch (err) {
      log.error(`MQTT authority failed authorising ${kind} on ${topic}`, err);
      return false;
    }
  }

  // MQTT 3.1.1 cannot tell a client its publish was refused; aedes closes the connection (MQTT-3.3.5-2)
  aedes.authorizePublish = (client, packet, done) => {
    if (allowed(client, packet.topic, 'publish')) return done(null);
    log.warn(`MQTT publish refused: ${client ? sessions.get(client)?.identity.key ?? client.id : 'unknown'} on ${packet.topic}`);
    done(new Error('publish not authorised'));
  };
  // a refused subscription is answered with SUBACK 0x80 and the connection stays up
  aedes.authorizeSubscribe = (client, sub, done) => done(null, allowed(client, sub.topic, 'subscribe') ? sub : null);

  aedes.on('clientReady', (client) => {
    const session = sessions.get(client);
    if (!session) return;
    session.announced = true;
    clientOwners.set(client.id, session.identity.key);
    if (readPaused) (client as unknown as { _paused: boolean })._paused = true;
    emit('connected', session.identity, client.id);
  });
  aedes.on('clientDisconnect', (client) => {
    const session = sessions.get(client);
    // aedes unregisters before this event; on a takeover the new client registers (and claims the id) right after
    if (session && !(aedes as unknown as { clients: Record<string, Client> }).clients[client.id]) clientOwners.delete(client.id);
    if (session?.announced) emit('disconnected', session.identity, client.id);
  });
  aedes.on('publish', (packet, client) => {
    // client is null for the gateway's own publishes and aedes' $SYS traffic
    const session = client ? sessions.get(client) : undefined;
    if (session) emit('message', session.identity, packet.topic, packet.payload as Buffer, packet.qos);
  });
  aedes.on('clientError', (client, err) => log.debug(`MQTT client ${client.id} error: ${err.message}`));
  aedes.on('connectionError', (_client, err) => log.debug(`MQTT connection error: ${err.message}`));
  // aedes emits 'error' for persistence failures; unhandled, an EventEmitter 'error' would end the process
  (aedes as unknown as EventEmitter).on('error', (err: unknown) => log.error('MQTT broker error', err));
  tcp.on('error', (err) => log.error('MQTT TCP listener error', err));

  function clients(): Client[] {
    return Object.values((aedes as unknown as { clients: Record<string, Client> }).clients);
  }

  return {
    addAuthority(authority) {
      authorities.push(authority);
    },
    on(event, listener) {
      listeners[event].add(listener);
    },
    publish(topic, payload, po = {}) {
      return new Promise<void>((resolve, reject) => {
        aedes.publish(
          { cmd: 'publish', topic, payload: typeof payload === 'string' ? Buffer.from(payload) : payload, qos: po.qos ?? 0, retain: po.retain ?? false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        );
      });
    },
    disconnect(match) {
      let count = 0;
      for (const client of clients()) {
        const session = sessions.get(client);
        if (!session) continue;
        let hit = false;
        try {
          hit = match(session.identity);
        } catch (err) {
          log.error('broker disconnect matcher failed', err);
        }
        if (hit) {
          client.close();
          count++;
        }
      }
      return count;
    },
    setReadPaused(paused: boolean) {
      if (paused === readPaused) return;
      readPaused = paused;
      // aedes' read loop checks this flag before each read; a resumed client must be kicked to read what waited. While
      // paused, aedes' per-packet callback returns before counting the packet as handled, so a client paused in the
      // middle of a batch would wait forever for its batch to end: resuming starts the next batch afresh.
      for (const client of clients()) {
        const c = client as unknown as { _paused: boolean; _parsingBatch: number; _nextBatch?: () => void };
        c._paused = paused;
        if (!paused) {
          c._parsingBatch = 0;
          c._nextBatch?.();
        }
      }
    },
    get readPaused() {
      return readPaused;
    },
    connected() {
      return clients().flatMap((c) => {
        const session = sessions.get(c);
        return session && c.connected ? [session.identity] : [];
      });
    },
    get port() {
      const address = tcp.address();
      return address && typeof address === 'object' ? address.port : 0;
    },
    listen() {
      return new Promise<number>((resolve, reject) => {
        const failed = (err: Error) => reject(err);
        tcp.once('error', failed);
        tcp.listen(opts.port, opts.host, () => {
          tcp.off('error', failed);
          resolve((tcp.address() as net.AddressInfo).port);
        });
      });
    },
    attachWebSocket(server, path = '/mqtt') {
      endpoints.push(serveMqttOverWebSocket(server, path, (stream, req) => aedes.handle(stream, req), log));
    },
    close() {
      closing ??= (async () => {
        const tcpClosed = tcp.listening ? new Promise<void>((resolve) => tcp.close(() => resolve())) : Promise.resolve();
        await Promise.all(endpoints.map((e) => e.close()));
        // closes every client, so the TCP server's last connections end and its close completes
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
        await tcpClosed;
      })();
      return closing;
    },
  };
}
