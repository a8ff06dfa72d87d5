// The broker thread: aedes, its TCP listener and the byte streams of MQTT-over-WebSocket connections (relayed by the
// event loop, which owns the HTTP server) run here, on a core of their own. It speaks MQTT (parsing, sessions,
// subscriptions, PUBACKs, keep-alives) and asks the event loop (broker.ts) everything about identities: who a client
// is, what it may publish or subscribe. What sessions publish is packed and handed over once per turn of this loop.
// This entry only wires the thread's parts together:
//   thread-aedes.ts        its settings, aedes' modules as aedes resolves them, the aedes instance
//   thread-codec.ts        mqtt-packet's writer and parser, replaced (the PUBACK as one write, the fast PUBLISH parse)
//   thread-mqtt5.ts        MQTT 5 around aedes 0.51 (its connect, unsubscribe and dispatch handlers, the packet class)
//   thread-sessions.ts     sign-in, subscribe and forward rights, a connection's session from ready to gone
//   thread-publish.ts      the publish handler: the hot path, the lane, publish rights and retained shares
//   thread-acks.ts         acknowledgements held until stored, refusals' acknowledgements, QoS 2 and PUBREL
//   thread-persistence.ts  aedes' persistence and the sessions handed to and from the event loop
//   thread-link.ts         the batches to the event loop, its questions and answers
//   thread-reads.ts        when connections are read (the global pause, the handover bound), thread-native.ts
//   thread-connections.ts  the TCP listener, relayed WebSocket connections, the outbound bound
//   thread-plain.ts        the plain-aedes mode (MQTT_FAST_PATH=off): aedes' own handlers through its public hooks
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type net from 'node:net';
import type { PublishPacket } from 'aedes';
import type AedesClass from 'aedes';
import { asBuffer, type LoopCommand, type ThreadMessage } from './broker-wire.js';
import { aedesMain, requireInAedes, setAedes, settings } from './thread-aedes.js';
import { acks, installPubrelHandler } from './thread-acks.js';
import { installParser, installWriter } from './thread-codec.js';
import { openRelayed, sockets, tcp } from './thread-connections.js';
import { answer, flush, log, port, report } from './thread-link.js';
import { installMessagePacket, installMqtt5Handlers } from './thread-mqtt5.js';
import { native } from './thread-native.js';
import { openPersistence, storeRetained } from './thread-persistence.js';
import { authorizePlainForward, authorizePlainPublish, plainPersistence } from './thread-plain.js';
import { authorizePublish, installPublishHandler, published, watchSubscriptions } from './thread-publish.js';
import { handedOver, setReadPaused } from './thread-reads.js';
import {
  authenticate,
  authorizeForward,
  authorizeSubscribe,
  clientDisconnect,
  clientReady,
  kick,
  unsubscribed,
} from './thread-sessions.js';

// The fast path (MQTT_FAST_PATH, on by default): aedes' modules replaced before aedes loads (its handlers index takes
// the handlers, its subscribe handler and the persistence the packet class, when they load). Off, aedes runs as it is
// and the thread keeps to its public hooks (thread-plain.ts).
const fast = settings.fastPath;
if (fast) {
  installWriter();
  installParser();
  installMessagePacket();
  installPublishHandler();
  installPubrelHandler();
  installMqtt5Handlers();
}
const Aedes = requireInAedes(aedesMain) as typeof AedesClass;

const aedes = new Aedes({
  persistence: (fast ? openPersistence() : plainPersistence(openPersistence())) as never,
  id: `sentra-${randomBytes(4).toString('hex')}`,
  // a socket that never sends CONNECT holds memory for nothing
  connectTimeout: 10_000,
  // device UIDs and tokens can be longer than MQTT 3.1's 23-character client id
  maxClientsIdLength: 128,
});
setAedes(aedes);
if (fast) watchSubscriptions();

aedes.authenticate = authenticate;
aedes.authorizePublish = fast ? authorizePublish : authorizePlainPublish;
aedes.authorizeSubscribe = authorizeSubscribe;
aedes.authorizeForward = fast ? authorizeForward : authorizePlainForward;
aedes.on('clientReady', clientReady);
aedes.on('clientDisconnect', clientDisconnect);
// the fast path hands a message that went aedes' own way over at its end; the plain mode when it is authorised
if (fast) aedes.on('publish', published);
aedes.on('unsubscribe', unsubscribed);
aedes.on('clientError', (client, err) => log('debug', `MQTT client ${client.id} error: ${err.message}`));
aedes.on('connectionError', (_client, err) => log('debug', `MQTT connection error: ${err.message}`));
// aedes emits 'error' for persistence failures; unhandled, an EventEmitter 'error' would end the thread
(aedes as unknown as EventEmitter).on('error', (err: unknown) =>
  log('error', `MQTT broker error: ${err instanceof Error ? err.message : String(err)}`),
);
tcp.on('error', (err) => log('error', `MQTT TCP listener error: ${err.message}`));

function close() {
  for (const s of sockets.values()) s.destroy();
  const tcpClosed = tcp.listening ? new Promise<void>((resolve) => tcp.close(() => resolve())) : Promise.resolve();
  // closes every client, so the TCP server's last connections end and its close completes
  new Promise<void>((resolve) => aedes.close(() => resolve()))
    .then(() => tcpClosed)
    .then(() => {
      native?.close();
      flush();
      port.postMessage({ t: 'closed' } satisfies ThreadMessage);
      port.close();
    });
}

port.on('message', (m: LoopCommand) => {
  switch (m.t) {
    case 'authAnswer':
    case 'authzAnswer':
    case 'retainAnswer':
      answer(m);
      break;
    case 'publish':
      aedes.publish(
        {
          cmd: 'publish',
          topic: m.topic,
          payload: asBuffer(m.payload),
          qos: m.qos,
          retain: m.retain,
          dup: false,
          ...(m.properties && { properties: m.properties }),
          ...(m.expiresAt !== undefined && { expiresAt: m.expiresAt }),
        } as PublishPacket,
        (err) => {
          if (m.req) report({ e: 'published', req: m.req, error: err ? err.message : undefined });
        },
      );
      break;
    case 'retained':
      storeRetained(m.messages);
      break;
    case 'kick':
      kick(m.sids);
      break;
    case 'pause':
      setReadPaused(m.paused);
      break;
    case 'acks':
      if (m.upTo !== undefined) acks.release(m.upTo, m.refused);
      if (m.took) handedOver.taken(m.took);
      break;
    case 'wsOpen':
      openRelayed(m.id, m.address);
      break;
    case 'wsData':
      sockets.get(m.id)?.push(asBuffer(m.data));
      break;
    case 'wsEnd': {
      const s = sockets.get(m.id);
      sockets.delete(m.id);
      s?.destroy();
      break;
    }
    case 'listen':
    case 'listenFd': {
      const failed = (err: Error) =>
        port.postMessage({ t: 'listenFailed', message: err.message } satisfies ThreadMessage);
      tcp.once('error', failed);
      const listening = () => {
        tcp.off('error', failed);
        const fd = (tcp as unknown as { _handle: { fd: number } })._handle.fd;
        port.postMessage({ t: 'listening', port: (tcp.address() as net.AddressInfo).port, fd } satisfies ThreadMessage);
      };
      if (m.t === 'listen') tcp.listen(m.port, m.host, listening);
      else tcp.listen({ fd: m.fd }, listening);
      break;
    }
    case 'close':
      close();
      break;
  }
});
