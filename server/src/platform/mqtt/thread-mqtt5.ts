// MQTT 5 on a broker thread (mqtt5.ts), around aedes 0.51: a v5 CONNECT goes to aedes as a 3.1.1 one, the client
// marked so that what is written to it is MQTT 5 (thread-codec.ts); the parser keeps parsing MQTT 5 (it took its
// settings from the CONNECT it read, not from aedes' copy). A message keeps its MQTT 5 properties on its way through
// aedes. Installed before aedes loads (broker.worker.ts).
import type { Client } from 'aedes';
import { MQTT_MAX_PACKET_BYTES } from './fast-publish.js';
import { MAX_HELD_PER_CONNECTION } from './held-acks.js';
import {
  asAedesConnect,
  connectRefusal,
  expiresAt,
  MAX_SESSION_EXPIRY_S,
  messageProperties,
  newV5Session,
  type V5Session,
} from './mqtt5.js';
import { aedesHandler, replaceHandler, requireInAedes, writePacket } from './thread-aedes.js';
import { report } from './thread-link.js';
import { sessions } from './thread-sessions.js';

/** an aedes client; an MQTT 5 one carries what the broker holds of its connection (mqtt5.ts), and the Session Expiry
 * its CONNECT asked for (CONNACK tells the one granted when it differs) */
export type V5Client = Client & { sentraV5?: V5Session & { asked?: number; cleanStart?: boolean } };
/** what the broker tells MQTT 5 clients of its limits (CONNACK): its in-flight window and its packet size limit */
export const v5Limits = { receiveMaximum: MAX_HELD_PER_CONNECTION, maximumPacketSize: MQTT_MAX_PACKET_BYTES + 5 };
export const V5 = { protocolVersion: 5 };

// A message keeps its MQTT 5 properties (user properties, content type, response topic, correlation data, message
// expiry) on its way through aedes, whose packet class copies only 3.1.1's fields; with its expiry as a time, so that a
// retained or queued copy is delivered with what remains of it, or not at all once it passed. (Installed before any
// aedes module that takes the class loads.)
const packetModule = requireInAedes.resolve('aedes-packet');
const AedesPacket = requireInAedes(packetModule) as new (
  original: Record<string, unknown>,
  broker?: unknown,
) => Record<string, unknown>;
/** a retained message's MQTT 5 extras, by its payload: aedes sends a retained message to a new subscriber as a packet
 * it builds of 3.1.1's fields only (its subscribe handler), with the stored payload */
export const retainedExtras = new WeakMap<object, { properties?: Record<string, unknown>; expiresAt?: number }>();
export function MessagePacket(this: Record<string, unknown>, original: Record<string, unknown>, broker?: unknown) {
  AedesPacket.call(this, original, broker);
  if (
    original.retain === true &&
    original.properties === undefined &&
    original.expiresAt === undefined &&
    original.payload
  ) {
    const extras = retainedExtras.get(original.payload as object);
    if (extras !== undefined) original = { ...original, ...extras };
  }
  const props = original.properties as Record<string, unknown> | undefined;
  if (props === undefined && original.expiresAt === undefined) return;
  const kept = messageProperties(props);
  if (kept !== undefined) this.properties = kept;
  const at = (original.expiresAt as number | undefined) ?? expiresAt(props, Date.now());
  if (at !== undefined) this.expiresAt = at;
}
MessagePacket.prototype = AedesPacket.prototype;
export function installMessagePacket() {
  requireInAedes.cache[packetModule]!.exports = MessagePacket;
}

/** a v5 connection closed for a protocol fault: a DISCONNECT with its reason first (MQTT-4.13.1-1), then the close
 * (once the DISCONNECT is out: mqtt-packet corks the socket until the next tick) */
export function disconnectV5(client: Client, reasonCode: number, why: string, finished: (err?: Error) => void) {
  writePacket(
    { cmd: 'disconnect', reasonCode } as { cmd: string },
    client.conn as unknown as { write(b: Buffer): boolean },
    V5,
  );
  setImmediate(finished, new Error(why));
}

type HandleConnect = (
  client: Client,
  packet: { protocolVersion: number; clean: boolean; clientId: string; properties?: Record<string, unknown> },
  done: (err?: Error) => void,
) => void;
/** MQTT 5 clients whose Clean Start discards a stored session they keep anew: discarded once authenticated */
export const cleanStarts = new WeakSet<Client>();
type HandleUnsubscribe = (
  client: Client,
  packet: { messageId?: number; unsubscriptions: string[] },
  done: (err?: Error) => void,
) => void;
type Handle = (
  client: Client,
  packet: { cmd: string; properties?: { sessionExpiryInterval?: number } },
  done: () => void,
) => void;

/** aedes' connect, unsubscribe and packet-dispatch handlers replaced by MQTT 5's (after the publish and pubrel
 * handlers: the dispatch module takes them all when it loads) */
export function installMqtt5Handlers() {
  // a v5 CONNECT goes to aedes as a 3.1.1 one
  const aedesConnect = aedesHandler<HandleConnect>('connect');
  replaceHandler('connect', ((client, packet, done) => {
    if (packet.protocolVersion !== 5) return aedesConnect(client, packet, done);
    const refused = connectRefusal(packet);
    if (refused !== undefined) {
      writePacket(
        { cmd: 'connack', reasonCode: refused, sessionPresent: false } as { cmd: string },
        client.conn as unknown as { write(b: Buffer): boolean },
        V5,
      );
      // closed once the CONNACK is out (mqtt-packet corks the socket until the next tick)
      return void setImmediate(done, new Error(`CONNECT refused (reason ${refused})`));
    }
    const v5 = newV5Session(packet as Parameters<typeof newV5Session>[0]);
    (client as V5Client).sentraV5 = Object.assign(v5, {
      asked: (packet.properties?.sessionExpiryInterval as number | undefined) ?? 0,
      cleanStart: packet.clean,
    });
    const connect = asAedesConnect(packet, v5);
    if (connect.cleanStart && !connect.clean) cleanStarts.add(client);
    aedesConnect(client, connect, done);
  }) satisfies HandleConnect);
  // an MQTT 5 UNSUBACK has a reason code for each filter of its UNSUBSCRIBE: how many there were is noted here
  const aedesUnsubscribe = aedesHandler<HandleUnsubscribe>('unsubscribe');
  replaceHandler('unsubscribe', ((client, packet, done) => {
    const v5 = (client as V5Client).sentraV5;
    if (v5 !== undefined && packet.messageId !== undefined && v5.unsubscribing.size < 100)
      v5.unsubscribing.set(packet.messageId, packet.unsubscriptions.length);
    aedesUnsubscribe(client, packet, done);
  }) satisfies HandleUnsubscribe);
  // a DISCONNECT may change the Session Expiry (0: the session ends with this connection; one that was 0 stays 0,
  // MQTT-3.14.2-2); the event loop keeps the session, or not, by it. (aedes' packet dispatch, loaded after the
  // handlers above are in place.)
  const aedesHandle = aedesHandler<Handle>('index');
  replaceHandler('index', ((client, packet, done) => {
    const v5 = (client as V5Client).sentraV5;
    const asked = packet.cmd === 'disconnect' ? packet.properties?.sessionExpiryInterval : undefined;
    if (v5 !== undefined && asked !== undefined && v5.sessionExpiry > 0) {
      v5.sessionExpiry = Math.min(asked, MAX_SESSION_EXPIRY_S);
      const session = sessions.get(client);
      if (session) report({ e: 'expiry', sid: session.sid, keep: v5.sessionExpiry });
    }
    aedesHandle(client, packet, done);
  }) satisfies Handle);
}
