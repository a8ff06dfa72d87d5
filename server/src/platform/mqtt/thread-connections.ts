// How connections reach a broker thread's aedes: its TCP listener (behind a load balancer speaking the PROXY protocol,
// its connections name their client first: proxy-protocol.ts) and the byte streams of MQTT-over-WebSocket connections,
// relayed by the event loop (which owns the HTTP server); and the bound on what a connection has not read.
import net from 'node:net';
import { Duplex } from 'node:stream';
import proxyAddr from 'proxy-addr';
import { acceptProxied } from './proxy-protocol.js';
import { aedes, settings } from './thread-aedes.js';
import { report, reportWs } from './thread-link.js';
import type { V5Client } from './thread-mqtt5.js';
import { plainConnection } from './thread-plain.js';
import { gate } from './thread-reads.js';

// A connection that does not read what is sent to it (a subscriber that stopped reading) holds what is published to it
// in its socket's buffer: past MQTT_MAX_OUTBOUND_BYTES waiting to be written it is closed and counted. Checked when a
// write finds the socket's buffer past its mark (cheap: only then). WebSocket connections are relayed through
// the event loop, which bounds them the same way (broker.ts).
export type OutboundStream = {
  writableLength?: number;
  destroy?: (err?: Error) => void;
  destroyed?: boolean;
  client?: V5Client;
};
const { maxOutboundBytes } = settings;
export function overflowing(stream: OutboundStream) {
  if ((stream.writableLength ?? 0) <= maxOutboundBytes || stream.destroyed) return;
  report({ e: 'overflow', clientId: stream.client?.id ?? undefined, bytes: stream.writableLength ?? 0 });
  stream.destroy?.();
}

// TCP keep-alive: a client that asked for no MQTT keep-alive (0) and whose network vanished is still found out (after
// the system's probes: with Linux defaults about 12 minutes), so its session ends and the device goes offline
// (the plain mode keeps the outbound bound and the packet size limit on the connection: thread-plain.ts)
const plain = !settings.fastPath;
const serve = (socket: net.Socket) => {
  if (plain) plainConnection(socket);
  gate.guard(aedes.handle((socket.setKeepAlive(true, 60_000), socket)));
};
const proxyTrusted = settings.proxyProtocolFrom?.length ? proxyAddr.compile(settings.proxyProtocolFrom) : undefined;
export const tcp = net.createServer(
  proxyTrusted ? (socket) => acceptProxied(socket, (address) => proxyTrusted(address, 0), serve) : serve,
);

/** the relayed WebSocket connections' streams, by the event loop's id */
export const sockets = new Map<number, Duplex>();
/** A WebSocket connection's bytes, relayed by the event loop, as the stream aedes reads and writes. */
function relayedSocket(id: number): Duplex {
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      // mqtt-packet writes a packet in pieces (a CONNACK in four 1-byte writes): what this turn wrote to the connection
      // goes out as one WebSocket frame, not a frame per piece
      reportWs(id, chunk);
      cb();
    },
    final(cb) {
      if (sockets.delete(id)) report({ e: 'wsEnd', id });
      cb();
    },
    destroy(err, cb) {
      if (sockets.delete(id)) report({ e: 'wsEnd', id });
      cb(err);
    },
  });
  sockets.set(id, stream);
  return stream;
}
/** a WebSocket connection the event loop accepted */
export function openRelayed(id: number, address: string | undefined) {
  const stream = relayedSocket(id);
  if (plain) plainConnection(stream);
  gate.guard(aedes.handle(Object.assign(stream, { remoteAddress: address })));
}
