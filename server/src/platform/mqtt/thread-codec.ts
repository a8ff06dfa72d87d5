// What a broker thread changes in the mqtt-packet aedes reads and writes through (installed before aedes loads,
// broker.worker.ts): its writer, the thread's one hook on everything written to a client, and its parser.
import type { Client } from 'aedes';
import { fastPublishParse, type PacketParser } from './fast-publish.js';
import { toV5 } from './mqtt5.js';
import { mqttPacket, requireInAedes, writePacket } from './thread-aedes.js';
import { puback } from './thread-acks.js';
import { overflowing, type OutboundStream } from './thread-connections.js';
import { report } from './thread-link.js';
import { V5, v5Limits } from './thread-mqtt5.js';

/** mqtt-packet's writer replaced: MQTT 5 clients, expired messages, the PUBACK as one write, the outbound bound */
export function installWriter() {
  // A PUBACK as one 4-byte write. mqtt-packet writes it in two pieces under a cork released on the next tick, so every
  // QoS 1 message cost a writev and a tick.
  mqttPacket.writeToStream = (packet, stream, opts) => {
    const id = packet.messageId;
    const v5 = (stream as OutboundStream).client?.sentraV5;
    let ok: boolean;
    if (v5 !== undefined) {
      // an MQTT 5 client: aedes' 3.1.1 packet as MQTT 5 has it (mqtt5.ts)
      const p = toV5(packet as Parameters<typeof toV5>[0], v5, { ...v5Limits, askedExpiry: v5.asked }, Date.now());
      if (p === null) return true;
      ok = writePacket(p as typeof packet, stream, V5);
    } else if (
      (packet as { expiresAt?: number }).expiresAt !== undefined &&
      (packet as unknown as { expiresAt: number }).expiresAt <= Date.now()
    ) {
      // a message of an MQTT 5 publisher whose expiry passed before it could be delivered (retained, queued)
      return true;
    } else
      ok =
        packet.cmd !== 'puback' || opts !== undefined || typeof id !== 'number'
          ? writePacket(packet, stream, opts)
          : stream.write(puback(id));
    if (ok) return true;
    overflowing(stream as OutboundStream);
    // never "wait for drain": aedes would hold its delivery until this socket drains, and its emitter (100 deliveries
    // at once) then stalls every other subscriber behind one that stopped reading while it queues what devices publish
    // without bound. The socket's own buffer holds the backlog instead, bounded by MQTT_MAX_OUTBOUND_BYTES.
    return true;
  };
}

// Each client's parser (aedes makes one per connection through this module) reads whole PUBLISH packets straight from
// the socket's chunks (fast-publish.ts), and refuses a packet over MQTT_MAX_PACKET_BYTES as soon as its header is read:
// aedes closes the connection on the parser's error; the event loop counts it.
export function installParser() {
  const makeParser = mqttPacket.parser;
  const fastParse = fastPublishParse(
    requireInAedes('mqtt-packet/packet') as new () => Record<string, unknown>,
    (requireInAedes('mqtt-packet/parser') as { prototype: PacketParser }).prototype.parse,
    // aedes sets `client` on its parser; the client has an id once its CONNECT was read
    (parser, length) =>
      report({ e: 'oversized', length, clientId: (parser as { client?: Client }).client?.id ?? undefined }),
  );
  mqttPacket.parser = (opt) => Object.assign(makeParser(opt), { parse: fastParse });
}
