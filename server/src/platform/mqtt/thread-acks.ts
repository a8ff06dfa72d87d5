// Acknowledgements on a broker thread: the ones held until the event loop says their messages are stored (held-acks.ts),
// the ones written at once for a publish dropped outside the session's rights, and QoS 2's exchange (a resent PUBLISH
// handed over once, PUBREL answered here).
import type { Client, PublishPacket } from 'aedes';
import { HeldAcks, MAX_HELD_PER_CONNECTION } from './held-acks.js';
import { NOT_AUTHORIZED, QUOTA_EXCEEDED, reasonAck } from './mqtt5.js';
import { pauseReading, resumeReading } from './read-gate.js';
import { replaceHandler, settings } from './thread-aedes.js';
import { report } from './thread-link.js';
import type { V5Client } from './thread-mqtt5.js';
import { native } from './thread-native.js';
import { released } from './thread-plain.js';

export const ackPacket = (type: number, id: number) => Buffer.from([type, 2, id >> 8, id & 0xff]);
export const puback = (id: number) => ackPacket(0x40, id);

/** connections not read while too many of their acknowledgements are held (held-acks.ts) */
const ackPaused = new WeakSet<Client>();
export const acks = new HeldAcks<Client>(
  (client, paused) => {
    if (paused) {
      ackPaused.add(client);
      pauseReading(client);
    } else if (ackPaused.delete(client) && !client.closed) resumeReading(client);
  },
  MAX_HELD_PER_CONNECTION,
  // the plain mode writes no acknowledgement itself: a release lets aedes' handler go on and write it (thread-plain.ts)
  settings.fastPath
    ? native && ((client, data) => native!.write(client, data))
    : (client, data) => released(client, data),
);

// A publish outside the session's rights is dropped, not answered by closing the connection: MQTT 3.1.1 has no way to
// tell a client its publish was refused, and real devices publish harmless extras (Tasmota's discovery, its empty
// POWER query) on every connect; closing made them reconnect in a loop (issue 27). Like mosquitto, the message is
// acknowledged (QoS 1 PUBACK, QoS 2 PUBREC, so the client does not send it again) and goes nowhere; the event loop
// counted it when it refused it. Any other error (a malformed topic) still closes the connection.
export class PublishDropped extends Error {}
/** a retained message past its device's, its tenant's or the platform's share of the retained store: dropped the
 * same way, an MQTT 5 client told Quota exceeded (persistence/session-store.ts) */
export class RetainedOverShare extends PublishDropped {}
export function droppingRefusals(client: Client, packet: PublishPacket, done: (err?: Error) => void) {
  return (err?: Error) => {
    if (!(err instanceof PublishDropped)) return done(err);
    // written at once: a dropped message is not stored, so nothing holds its acknowledgement (one still held for an
    // earlier message of this connection goes out after it; MQTT.js and device stacks match acks by packet id)
    // (an MQTT 5 client is told why: Not authorized, or Quota exceeded)
    if (packet.qos > 0 && typeof packet.messageId === 'number' && !client.closed) {
      client.conn.write(
        (client as V5Client).sentraV5
          ? reasonAck(
              packet.messageId,
              err instanceof RetainedOverShare ? QUOTA_EXCEEDED : NOT_AUTHORIZED,
              packet.qos === 2,
            )
          : ackPacket(packet.qos === 2 ? 0x50 : 0x40, packet.messageId),
      );
    }
    done();
  };
}

// A QoS 2 PUBLISH is handed over once: until its PUBREL, the same packet id again (the client re-sending it with DUP,
// having missed or not yet read our PUBREC) is answered with a PUBREC and goes nowhere (MQTT-4.3.3-2: no duplicate to
// onward recipients). If the first one's PUBREC is still held (not yet stored), that one answers both. A persistent
// session (clean session false) keeps its ids across a reconnection to this thread (MQTT-4.3.3: the session state
// includes the QoS 2 messages received and not yet released), so a client that reconnects and sends it again before it
// heard the PUBREC does not have it stored twice; a clean session starts with none. A client that never sends PUBREL
// cannot grow this without bound: past MAX_QOS2_AWAITING_RELEASE the oldest id is forgotten, and past
// MAX_KEPT_SESSIONS the longest-away session's ids are.
const MAX_QOS2_AWAITING_RELEASE = 1000;
const MAX_KEPT_SESSIONS = 10_000;
const awaitingRelease = new WeakMap<Client, Set<number>>();
/** the ids persistent sessions awaited when their connections went, by client id, until they connect again */
export const keptAwaitingRelease = new Map<string, Set<number>>();
function awaitingReleaseOf(client: Client): Set<number> {
  let ids = awaitingRelease.get(client);
  if (!ids) {
    ids = (!client.clean && keptAwaitingRelease.get(client.id)) || new Set();
    keptAwaitingRelease.delete(client.id);
    awaitingRelease.set(client, ids);
  }
  return ids;
}
export function keepAwaitingRelease(client: Client, replaced: boolean) {
  const ids = awaitingRelease.get(client);
  if (client.clean || !ids || ids.size === 0) return;
  // the session goes to the event loop when nobody took it over: its ids go with it, to whichever thread the client
  // returns to
  if (!replaced) report({ e: 'awaiting', clientId: client.id, ids: [...ids] });
  keptAwaitingRelease.delete(client.id);
  keptAwaitingRelease.set(client.id, ids);
  if (keptAwaitingRelease.size > MAX_KEPT_SESSIONS)
    keptAwaitingRelease.delete(keptAwaitingRelease.keys().next().value!);
}
export function resentQos2(client: Client, packet: PublishPacket): boolean {
  const id = packet.messageId;
  if (typeof id !== 'number' || firstQos2(client, id)) return false;
  if (!client.closed && !acks.holdsRec(client, id)) client.conn.write(ackPacket(0x50, id));
  return true;
}
/** whether a QoS 2 packet id is new (not awaiting its PUBREL), kept awaiting it from now on */
export function firstQos2(client: Client, id: number): boolean {
  const ids = awaitingReleaseOf(client);
  if (ids.has(id)) return false;
  if (ids.size >= MAX_QOS2_AWAITING_RELEASE) ids.delete(ids.values().next().value!);
  ids.add(id);
  return true;
}
/** a QoS 2 message's PUBREL came */
export const releasedQos2 = (client: Client, id: number) => awaitingReleaseOf(client).delete(id);
// PUBREL of a QoS 2 message: it was handed over (and its PUBREC held until stored) when it arrived, so nothing is kept
// to publish now; PUBCOMP at once (aedes' own handler would look for the packet in its persistence)
export function installPubrelHandler() {
  replaceHandler('pubrel', (client: Client, packet: { messageId: number }, done: (err?: Error) => void) => {
    releasedQos2(client, packet.messageId);
    client.conn.write(ackPacket(0x70, packet.messageId));
    done();
  });
}
