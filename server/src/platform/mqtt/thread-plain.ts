// The plain-aedes mode of a broker thread (MQTT_FAST_PATH=off): aedes' own packet handlers, mqtt-packet and
// aedes-packet as they are, no native reader. What the fast path does in its replaced handlers is done here through
// aedes' public hooks (authorizePublish, authorizeForward, the persistence it is given, the connection it reads), so
// that a client sees the same broker: the same rights and limits, a publish's acknowledgement after its commit, a
// publish outside its rights acknowledged and delivered nowhere, a PUBREL always completed. It is the reference the
// broker's suites also run against, and the fallback while an aedes upgrade breaks the internals the fast path uses.
// MQTT 3.1.1 and 3.1 only: aedes 0.51 refuses an MQTT 5 CONNECT (CONNACK 1, unacceptable protocol version).
//
// A publish's way: authorizePublish (the fast path's, the same questions) answers in the session's lane (the publishes
// of a session go on in the order they came, as on the fast path), the message is handed over there, and aedes' handler
// goes on (PUBACK or PUBREC, delivery) only once the event loop says it is stored: aedes reads a connection's next
// packets only after the ones it read are done, so the held acknowledgements are also the connection's backpressure.
import type { Duplex } from 'node:stream';
import type { AuthorizeForwardHandler, AuthorizePublishHandler, Client, PublishPacket } from 'aedes';
import { firstQos2, PublishDropped, releasedQos2 } from './thread-acks.js';
import { overflowing, type OutboundStream } from './thread-connections.js';
import { PacketLengths } from './packet-lengths.js';
import { handOver, report } from './thread-link.js';
import { authorizePublish, goOn, type LanePlace } from './thread-publish.js';
import { authorizeForward, sessions } from './thread-sessions.js';
import type { Persistence } from './thread-persistence.js';

/** where a publish outside the session's rights goes: no subscription may start with `$` (broker-wire.ts `reserved`),
 * a forward of it is refused and nothing is queued for it */
const DROPPED_TOPIC = '$sentra/dropped';

/** per connection, aedes' handlers waiting for their messages' commit, by packet id (a QoS 2 one sent again while its
 * first copy waits goes on with it) */
const waitingCommit = new WeakMap<Client, Map<number, () => void>>();

export const authorizePlainPublish: AuthorizePublishHandler = (client, packet, done) => {
  const session = client ? sessions.get(client) : undefined;
  if (client === null || session === undefined) return authorizePublish(client, packet, done);
  const will = packet === (client as Client & { will?: unknown }).will;
  const id = packet.messageId;
  // a QoS 2 message sent again before its PUBREL: aedes keeps it and answers PUBREC again; not handed over again
  // (MQTT-4.3.3-2), and not answered before the first copy is stored
  if (!will && packet.qos === 2 && typeof id === 'number' && !firstQos2(client, id)) {
    const first = waitingCommit.get(client)?.get(id);
    if (first === undefined) return done(null);
    waitingCommit.get(client)!.set(id, () => (first(), done(null)));
    return;
  }
  const place: LanePlace = { answered: false, go: () => {} };
  (session.lane ??= []).push(place);
  authorizePublish(client, packet, (err) => {
    place.answered = true;
    place.go = () => {
      if (err instanceof PublishDropped) return drop(packet, done);
      if (err) return done(err);
      const held = !will && packet.qos > 0 && typeof id === 'number';
      handOver(session, packet, held ? client : undefined);
      if (!held) return done(null);
      let waiting = waitingCommit.get(client);
      if (waiting === undefined) waitingCommit.set(client, (waiting = new Map()));
      waiting.set(id, () => done(null));
    };
    goOn(session);
  });
};

/** a publish outside the session's rights (or over its retained shares): acknowledged by aedes as any other, at once,
 * and delivered to nobody, kept nowhere */
function drop(packet: PublishPacket, done: (err?: Error | null) => void) {
  packet.topic = DROPPED_TOPIC;
  packet.retain = false;
  done(null);
}

export const authorizePlainForward: AuthorizeForwardHandler = (client, packet) =>
  packet.topic === DROPPED_TOPIC ? null : authorizeForward(client, packet);

/** the held acknowledgements released (held-acks.ts writes them as `data`, 4 bytes each): aedes' handlers go on */
export function released(client: Client, data: Buffer) {
  const waiting = waitingCommit.get(client);
  if (waiting === undefined) return;
  for (let i = 0; i + 4 <= data.length; i += 4) {
    const id = (data[i + 2]! << 8) | data[i + 3]!;
    const go = waiting.get(id);
    waiting.delete(id);
    go?.();
  }
}

/**
 * aedes' persistence, for the plain mode: nothing queued for a dropped publish; a PUBREL whose message this thread does
 * not hold (it arrived on another thread before a reconnection, or was dropped) is completed, not answered by closing
 * the connection, as the fast path's PUBREL handler does; the id it released no longer awaits.
 */
export function plainPersistence(persistence: Persistence): Persistence {
  const p = persistence as Persistence & {
    incomingGetPacket(
      client: Client,
      packet: { messageId: number },
      cb: (err: Error | null, p?: unknown) => void,
    ): void;
    incomingDelPacket(client: Client, packet: { messageId: number }, cb: (err?: Error | null) => void): void;
  };
  const ownEnqueue = p.outgoingEnqueueCombi.bind(p);
  p.outgoingEnqueueCombi = (subs, packet, cb) =>
    (packet as { topic?: string }).topic === DROPPED_TOPIC ? cb() : ownEnqueue(subs, packet, cb);
  const ownGet = p.incomingGetPacket.bind(p);
  p.incomingGetPacket = (client, packet, cb) =>
    ownGet(client, packet, (err, kept) =>
      err
        ? cb(null, {
            cmd: 'publish',
            topic: DROPPED_TOPIC,
            payload: Buffer.alloc(0),
            qos: 2,
            retain: false,
            dup: false,
            messageId: packet.messageId,
          })
        : cb(null, kept),
    );
  const ownDel = p.incomingDelPacket.bind(p);
  p.incomingDelPacket = (client, packet, cb) => {
    releasedQos2(client, packet.messageId);
    ownDel(client, packet, () => cb(null));
  };
  return p;
}

/**
 * A connection in the plain mode: its writes never "wait for drain" (as the fast path's writer) and are bounded the same
 * way; a packet over MQTT_MAX_PACKET_BYTES is refused as soon as its header arrives (packet-lengths.ts), the
 * connection closed and counted, as the fast path's parser does.
 */
export function plainConnection(stream: Duplex) {
  const write = stream.write;
  stream.write = function (this: Duplex, ...args: Parameters<Duplex['write']>) {
    if (!write.apply(this, args)) overflowing(this as unknown as OutboundStream);
    return true;
  } as Duplex['write'];
  const lengths = new PacketLengths();
  const push = stream.push;
  stream.push = function (this: Duplex, chunk: unknown, encoding?: BufferEncoding) {
    const over = chunk === null || this.destroyed ? undefined : lengths.over(chunk as Uint8Array);
    if (over === undefined) return push.call(this, chunk, encoding);
    report({ e: 'oversized', length: over, clientId: (this as { client?: Client }).client?.id ?? undefined });
    this.destroy();
    return false;
  };
}
