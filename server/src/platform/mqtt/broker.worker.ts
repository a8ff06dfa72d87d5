// The broker thread: aedes, its TCP listener and the byte streams of MQTT-over-WebSocket connections (relayed by the
// event loop, which owns the HTTP server) run here, on a core of their own. It speaks MQTT (parsing, sessions,
// subscriptions, PUBACKs, keep-alives) and asks the event loop (broker.ts) everything about identities: who a client
// is, what it may publish or subscribe. What sessions publish is packed and handed over once per turn of this loop.
// Over 500 lines for now: aedes' replaced handlers and the thread's session, acknowledgement and hand-over state
// share this module's scope; carving it by concern (with a plain-aedes mode beside it) waits until it is proved not to
// change the order of the thread's reports to the event loop (a first carve made two broker tests flaky).
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { Duplex, Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { AuthenticateError, Client, PublishPacket } from 'aedes';
import type AedesClass from 'aedes';
import {
  asBuffer,
  MessagePacker,
  reserved,
  type WireMessage,
  type LoopCommand,
  type SessionId,
  type ThreadEvent,
  type ThreadMessage,
} from './broker-wire.js';
import { fastPublishParse, MQTT_MAX_PACKET_BYTES, type PacketParser } from './fast-publish.js';
import { HANDOVER_RUN, HandoverBound } from './handover-bound.js';
import { pauseReading, ReadGate, resumeReading } from './read-gate.js';
import { HeldAcks, MAX_HELD_PER_CONNECTION } from './held-acks.js';
import { NativeReads } from './native-reads.js';
import { acceptProxied } from './proxy-protocol.js';
import proxyAddr from 'proxy-addr';
import { nativeFd } from '../native-fd.js';
import { validClientId, validFilter, validPublishTopic } from './limits.js';
import {
  asAedesConnect,
  connectRefusal,
  MAX_SESSION_EXPIRY_S,
  expiresAt,
  messageProperties,
  newV5Session,
  NOT_AUTHORIZED,
  QUOTA_EXCEEDED,
  reasonAck,
  resolveTopicAlias,
  toV5,
  type V5Session,
} from './mqtt5.js';

const { debug, maxOutboundBytes, nativeReads, proxyProtocolFrom } = workerData as {
  debug: boolean;
  maxOutboundBytes: number;
  nativeReads: boolean;
  proxyProtocolFrom?: string[];
};

const requireHere = createRequire(import.meta.url);
const aedesMain = requireHere.resolve('aedes');
const requireInAedes = createRequire(aedesMain);
const ackPacket = (type: number, id: number) => Buffer.from([type, 2, id >> 8, id & 0xff]);
const puback = (id: number) => ackPacket(0x40, id);

// A PUBACK as one 4-byte write. mqtt-packet writes it in two pieces under a cork released on the next tick, so every
// QoS 1 message cost a writev and a tick; this is the module instance aedes writes through.
const mqttPacket = requireInAedes('mqtt-packet') as {
  writeToStream: (
    packet: { cmd: string; messageId?: number },
    stream: { write(b: Buffer): boolean },
    opts?: unknown,
  ) => boolean;
  parser: (opt?: unknown) => PacketParser;
};
const writePacket = mqttPacket.writeToStream;
/** what the broker tells MQTT 5 clients of its limits (CONNACK): its in-flight window and its packet size limit */
const v5Limits = { receiveMaximum: MAX_HELD_PER_CONNECTION, maximumPacketSize: MQTT_MAX_PACKET_BYTES + 5 };
const V5 = { protocolVersion: 5 };
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

// A connection that does not read what is sent to it (a subscriber that stopped reading) holds what is published to it
// in its socket's buffer: past MQTT_MAX_OUTBOUND_BYTES waiting to be written it is closed and counted. Checked when a
// write finds the socket's buffer past its mark (cheap: only then). WebSocket connections are relayed through
// the event loop, which bounds them the same way (broker.ts).
type OutboundStream = {
  writableLength?: number;
  destroy?: (err?: Error) => void;
  destroyed?: boolean;
  client?: V5Client;
};
/** an aedes client; an MQTT 5 one carries what the broker holds of its connection (mqtt5.ts), and the Session Expiry
 * its CONNECT asked for (CONNACK tells the one granted when it differs) */
type V5Client = Client & { sentraV5?: V5Session & { asked?: number; cleanStart?: boolean } };
function overflowing(stream: OutboundStream) {
  if ((stream.writableLength ?? 0) <= maxOutboundBytes || stream.destroyed) return;
  report({ e: 'overflow', clientId: stream.client?.id ?? undefined, bytes: stream.writableLength ?? 0 });
  stream.destroy?.();
}

// Each client's parser (aedes makes one per connection through this module) reads whole PUBLISH packets straight from
// the socket's chunks (fast-publish.ts), and refuses a packet over MQTT_MAX_PACKET_BYTES as soon as its header is read:
// aedes closes the connection on the parser's error; the event loop counts it.
const makeParser = mqttPacket.parser;
const fastParse = fastPublishParse(
  requireInAedes('mqtt-packet/packet') as new () => Record<string, unknown>,
  (requireInAedes('mqtt-packet/parser') as { prototype: PacketParser }).prototype.parse,
  // aedes sets `client` on its parser; the client has an id once its CONNECT was read
  (parser, length) =>
    report({ e: 'oversized', length, clientId: (parser as { client?: Client }).client?.id ?? undefined }),
);
mqttPacket.parser = (opt) => Object.assign(makeParser(opt), { parse: fastParse });

// A message keeps its MQTT 5 properties (user properties, content type, response topic, correlation data, message
// expiry) on its way through aedes, whose packet class copies only 3.1.1's fields; with its expiry as a time, so that a
// retained or queued copy is delivered with what remains of it, or not at all once it passed. (Patched before any aedes
// module that takes the class loads.)
const packetModule = requireInAedes.resolve('aedes-packet');
const AedesPacket = requireInAedes(packetModule) as new (
  original: Record<string, unknown>,
  broker?: unknown,
) => Record<string, unknown>;
/** a retained message's MQTT 5 extras, by its payload: aedes sends a retained message to a new subscriber as a packet
 * it builds of 3.1.1's fields only (its subscribe handler), with the stored payload */
const retainedExtras = new WeakMap<object, { properties?: Record<string, unknown>; expiresAt?: number }>();
function MessagePacket(this: Record<string, unknown>, original: Record<string, unknown>, broker?: unknown) {
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
requireInAedes.cache[packetModule]!.exports = MessagePacket;

// A device's publish. An acknowledgement means stored: a QoS 1 PUBACK (QoS 2 PUBREC) is not written here but held, in
// the order the messages were handed over, until the event loop says their batches committed (`acks`, once per turn:
// one write per connection for all of its released acknowledgements).
//
// The hot path, taken before aedes' own handling when nothing in aedes needs it: QoS 0 or 1, not retained, on a topic
// this session was already allowed, and no subscriber anywhere. aedes would otherwise run it through its step series
// (authorisation, retained store, offline enqueue, emission: two topic matches and an allocation or two per step) only
// to find nobody to deliver to. QoS 0 otherwise goes aedes' whole way unchanged; QoS 1 and 2 go the same way except
// that the acknowledgement aedes would write at once is held instead (its `publish` event hands the message over).
type HandlePublish = (client: Client, packet: PublishPacket, done: (err?: Error) => void) => void;
const publishHandler = path.join(path.dirname(aedesMain), 'lib', 'handlers', 'publish.js');
const aedesPublish = requireInAedes(publishHandler) as HandlePublish;
/** publishes whose acknowledgement is held: their `publish` event hands them over as held */
const holding = new WeakSet<PublishPacket>();
requireInAedes.cache[publishHandler]!.exports = ((client, packet, finished) => {
  const v5 = (client as V5Client).sentraV5;
  if (v5 !== undefined) {
    // MQTT 5: the topic behind the client's Topic Alias (an alias out of range or unknown closes the connection)
    const resolved = resolveTopicAlias(
      v5,
      packet.topic,
      (packet as { properties?: { topicAlias?: number } }).properties?.topicAlias,
    );
    if ('error' in resolved) return disconnectV5(client, resolved.reason, resolved.error, finished);
    packet.topic = resolved.topic;
  }
  if (packet.qos === 2 && resentQos2(client, packet)) return finished();
  const session = sessions.get(client);
  if (session === undefined) return aedesPublish(client, ownPayload(packet), finished);
  publishOf(client, session, packet, finished);
}) satisfies HandlePublish;

/** a v5 connection closed for a protocol fault: a DISCONNECT with its reason first (MQTT-4.13.1-1), then the close
 * (once the DISCONNECT is out: mqtt-packet corks the socket until the next tick) */
function disconnectV5(client: Client, reasonCode: number, why: string, finished: (err?: Error) => void) {
  writePacket(
    { cmd: 'disconnect', reasonCode } as { cmd: string },
    client.conn as unknown as { write(b: Buffer): boolean },
    V5,
  );
  setImmediate(finished, new Error(why));
}

// The first publish on a topic asks the event loop whether the session may publish there, and so may several in a
// row (their asks go out at once and are answered in order). While any is unanswered, the session's publishes take
// their place in its `lane` and go on in the order they came, each once it and all before it are answered. Without
// the lane a later publish whose topic is already known would take the hot path at once and overtake the ones still
// waiting (MQTT 4.6: a topic's messages are delivered in order; seen when aedes read the next packets before the
// first ones were answered). Subscriptions are not in the lane; they ask too, and their answers come in order with
// the publishes', so a device's own publish made before it subscribes is not delivered back to it.
function publishOf(client: Client, session: ThreadSession, packet: PublishPacket, finished: (err?: Error) => void) {
  // the hot path, with nothing waiting before it: no lane, nothing allocated (not even the refusal's wrapper: a publish
  // on the hot path was allowed before, so it is never refused)
  if (!queued(session) && hot(session, packet)) {
    handOver(session, packet, client);
    return finished();
  }
  const done = droppingRefusals(client, packet, finished);
  // a retained message with a payload is always asked about (aedes.authorizePublish): it must fit its shares
  if (!keeps(packet) && session.allowed.has(packet.topic) && (packet.qos === 0 || hot(session, packet))) {
    if (queued(session))
      (session.lane ??= []).push({ answered: true, go: () => publishAllowed(client, session, packet, done) });
    else publishAllowed(client, session, packet, done);
    return;
  }
  // aedes' own checks of a publish's topic (MQTT-3.3.2-2), then its authorisation, then its publish without the ack
  const topic = packet.topic;
  if (topic.length === 0 || topic.includes('#') || topic.includes('+'))
    return done(new Error('invalid topic in PUBLISH'));
  const place: LanePlace = { answered: false, go: () => {} };
  (session.lane ??= []).push(place);
  aedes.authorizePublish(client, packet, (err) => {
    place.answered = true;
    place.go = () => (err ? done(err) : publishAllowed(client, session, packet, done));
    goOn(session);
  });
}
/**
 * A publish going aedes' own way keeps its payload (a retained message, a delivery in flight, a queue for an away
 * session) for as long as aedes keeps it: as a copy, not as a view of what the connection's read held (up to a native
 * reader's whole turn, 1 MiB), which a small retained message would otherwise keep alive.
 */
function ownPayload(packet: PublishPacket): PublishPacket {
  const payload = packet.payload as Buffer;
  if (payload.byteLength < payload.buffer.byteLength) packet.payload = Buffer.from(payload);
  return packet;
}
/** something of the session goes before its next publish: its lane, or a publish still on aedes' way */
const queued = (session: ThreadSession) => session.lane !== undefined || session.inAedes > 0;
/** QoS 0 or 1, not retained, on a topic the session was allowed, and no subscriber anywhere */
const hot = (session: ThreadSession, packet: PublishPacket) =>
  packet.qos < 2 && !packet.retain && unheard(session, packet.topic);
/** an allowed publish: the hot path if it applies now, else aedes' way (QoS 1 and 2 with the acknowledgement held) */
function publishAllowed(client: Client, session: ThreadSession, packet: PublishPacket, done: (err?: Error) => void) {
  if (hot(session, packet)) {
    handOver(session, packet, client);
    return done();
  }
  ownPayload(packet);
  // aedes' own way (somebody subscribes, retained, QoS 2): its steps may finish on a later turn, and the message is
  // handed over from aedes' `publish` event at their end. Until then the session's next publishes wait in its lane,
  // or a later one on the hot path would be handed over (stored, acknowledged) before it (MQTT 4.6).
  session.inAedes++;
  const through = (err?: Error) => {
    // aedes calls back just before it emits `publish` (callPublished): the hand-over happens first, then the lane
    queueMicrotask(() => {
      session.inAedes--;
      goOn(session);
    });
    done(err);
  };
  if (packet.qos === 0) aedesPublish(client, packet, through);
  else {
    holding.add(packet);
    // aedes' publish as its own handler calls it (with the client: the `publish` event names it)
    (aedes.publish as unknown as (p: PublishPacket, c: Client, cb: (err?: Error) => void) => void)(
      packet,
      client,
      through,
    );
  }
}
/**
 * The lane's publishes from its head, each answered one in turn, until one still waits for its answer or one went
 * aedes' own way and is not handed over yet.
 */
function goOn(session: ThreadSession) {
  // a publish of the lane answered at once (its topic known by now): the loop below goes on with the next one
  if (session.going) return;
  const lane = session.lane;
  if (!lane) return;
  session.going = true;
  let k = 0;
  while (k < lane.length && lane[k]!.answered && session.inAedes === 0) lane[k++]!.go();
  lane.splice(0, k);
  session.going = false;
  if (lane.length === 0) session.lane = undefined;
}
type LanePlace = { answered: boolean; go: () => void };

// A publish outside the session's rights is dropped, not answered by closing the connection: MQTT 3.1.1 has no way to
// tell a client its publish was refused, and real devices publish harmless extras (Tasmota's discovery, its empty
// POWER query) on every connect; closing made them reconnect in a loop (issue 27). Like mosquitto, the message is
// acknowledged (QoS 1 PUBACK, QoS 2 PUBREC, so the client does not send it again) and goes nowhere; the event loop
// counted it when it refused it. Any other error (a malformed topic) still closes the connection.
class PublishDropped extends Error {}
/** a retained message past its device's, its tenant's or the platform's share of the retained store: dropped the
 * same way, an MQTT 5 client told Quota exceeded (persistence/session-store.ts) */
class RetainedOverShare extends PublishDropped {}
function droppingRefusals(client: Client, packet: PublishPacket, done: (err?: Error) => void) {
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
/** retained publishes let through (admitted to the retained store) that aedes' handler may ask about once more */
const admitted = new WeakSet<object>();
/** a retained publish that keeps a message (an empty one deletes the topic's, and needs no room) */
const keeps = (packet: { retain?: boolean; payload?: unknown }) =>
  packet.retain === true && ((packet.payload as Buffer | undefined)?.length ?? 0) > 0;
/** asks the event loop whether a retained message fits its session's shares (persistence/session-store.ts) */
function askRetain(session: ThreadSession, packet: PublishPacket, answered: (ok: boolean) => void) {
  ask(
    { e: 'retain', req: nextReq++, sid: session.sid, topic: packet.topic, bytes: (packet.payload as Buffer).length },
    (a) => answered(a.t === 'retainAnswer' && a.ok),
  );
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
const keptAwaitingRelease = new Map<string, Set<number>>();
function awaitingReleaseOf(client: Client): Set<number> {
  let ids = awaitingRelease.get(client);
  if (!ids) {
    ids = (!client.clean && keptAwaitingRelease.get(client.id)) || new Set();
    keptAwaitingRelease.delete(client.id);
    awaitingRelease.set(client, ids);
  }
  return ids;
}
function keepAwaitingRelease(client: Client, replaced: boolean) {
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
function resentQos2(client: Client, packet: PublishPacket): boolean {
  const id = packet.messageId;
  if (typeof id !== 'number') return false;
  const ids = awaitingReleaseOf(client);
  if (!ids.has(id)) {
    if (ids.size >= MAX_QOS2_AWAITING_RELEASE) ids.delete(ids.values().next().value!);
    ids.add(id);
    return false;
  }
  if (!client.closed && !acks.holdsRec(client, id)) client.conn.write(ackPacket(0x50, id));
  return true;
}
// PUBREL of a QoS 2 message: it was handed over (and its PUBREC held until stored) when it arrived, so nothing is kept
// to publish now; PUBCOMP at once (aedes' own handler would look for the packet in its persistence)
const pubrelHandler = path.join(path.dirname(aedesMain), 'lib', 'handlers', 'pubrel.js');
requireInAedes(pubrelHandler);
requireInAedes.cache[pubrelHandler]!.exports = ((
  client: Client,
  packet: { messageId: number },
  done: (err?: Error) => void,
) => {
  awaitingReleaseOf(client).delete(packet.messageId);
  client.conn.write(ackPacket(0x70, packet.messageId));
  done();
}) as unknown;
// MQTT 5 (mqtt5.ts): a v5 CONNECT goes to aedes as a 3.1.1 one, the client marked so that what is written to it is
// MQTT 5. The parser keeps parsing MQTT 5 (it took its settings from the CONNECT it read, not from this copy).
type HandleConnect = (
  client: Client,
  packet: { protocolVersion: number; clean: boolean; clientId: string; properties?: Record<string, unknown> },
  done: (err?: Error) => void,
) => void;
const connectHandler = path.join(path.dirname(aedesMain), 'lib', 'handlers', 'connect.js');
const aedesConnect = requireInAedes(connectHandler) as HandleConnect;
/** MQTT 5 clients whose Clean Start discards a stored session they keep anew: discarded once authenticated */
const cleanStarts = new WeakSet<Client>();
requireInAedes.cache[connectHandler]!.exports = ((client, packet, done) => {
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
}) satisfies HandleConnect;
// an MQTT 5 UNSUBACK has a reason code for each filter of its UNSUBSCRIBE: how many there were is noted here
type HandleUnsubscribe = (
  client: Client,
  packet: { messageId?: number; unsubscriptions: string[] },
  done: (err?: Error) => void,
) => void;
const unsubscribeHandler = path.join(path.dirname(aedesMain), 'lib', 'handlers', 'unsubscribe.js');
const aedesUnsubscribe = requireInAedes(unsubscribeHandler) as HandleUnsubscribe;
requireInAedes.cache[unsubscribeHandler]!.exports = ((client, packet, done) => {
  const v5 = (client as V5Client).sentraV5;
  if (v5 !== undefined && packet.messageId !== undefined && v5.unsubscribing.size < 100)
    v5.unsubscribing.set(packet.messageId, packet.unsubscriptions.length);
  aedesUnsubscribe(client, packet, done);
}) satisfies HandleUnsubscribe;
// MQTT 5: a DISCONNECT may change the Session Expiry (0: the session ends with this connection; one that was 0 stays
// 0, MQTT-3.14.2-2); the event loop keeps the session, or not, by it. (aedes' packet dispatch, loaded after the
// handlers above are in place.)
type Handle = (
  client: Client,
  packet: { cmd: string; properties?: { sessionExpiryInterval?: number } },
  done: () => void,
) => void;
const handlersIndex = path.join(path.dirname(aedesMain), 'lib', 'handlers', 'index.js');
const aedesHandle = requireInAedes(handlersIndex) as Handle;
requireInAedes.cache[handlersIndex]!.exports = ((client, packet, done) => {
  const v5 = (client as V5Client).sentraV5;
  const asked = packet.cmd === 'disconnect' ? packet.properties?.sessionExpiryInterval : undefined;
  if (v5 !== undefined && asked !== undefined && v5.sessionExpiry > 0) {
    v5.sessionExpiry = Math.min(asked, MAX_SESSION_EXPIRY_S);
    const session = sessions.get(client);
    if (session) report({ e: 'expiry', sid: session.sid, keep: v5.sessionExpiry });
  }
  aedesHandle(client, packet, done);
}) satisfies Handle;
// loaded after the handlers above are in place (its handlers module takes the publish handler when it loads)
const Aedes = requireInAedes(aedesMain) as typeof AedesClass;
/** aedes' subscription matcher (mqemitter's): every subscription, a client's or aedes' own, is added and removed there */
interface Matcher {
  match(topic: string): unknown[];
  add(...args: unknown[]): unknown;
  remove(...args: unknown[]): unknown;
  clear(...args: unknown[]): unknown;
}
/** bumped whenever a subscription is added or removed: what a session remembers of a topic holds until then */
let subscriptionsGeneration = 0;
/**
 * Whether a session may publish on the topic (allowed before) and nobody subscribes to it. A topic's match against the
 * subscriptions (splitting it into levels, a walk of the trie) is remembered with the session's allowed topics until
 * a subscription changes, instead of being made for every message.
 */
function unheard(session: ThreadSession, topic: string): boolean {
  // a device publishes on the same topic message after message: one string comparison instead of a map lookup
  if (topic === session.lastTopic && session.lastGeneration === subscriptionsGeneration) return true;
  const checked = session.allowed.get(topic);
  if (checked === undefined) return false;
  if (checked !== subscriptionsGeneration) {
    const heard = matcher.match(topic).length > 0;
    session.allowed.set(topic, heard ? -1 : subscriptionsGeneration);
    if (heard) return false;
  }
  session.lastTopic = topic;
  session.lastGeneration = subscriptionsGeneration;
  return true;
}
const port = parentPort!;

/** topics a session was allowed to publish on, remembered so that only its first publish there asks the event loop */
const MAX_ALLOWED_TOPICS = 256;

interface ThreadSession {
  sid: SessionId;
  /** its allowed topics, each with the subscriptions' generation at which nobody subscribed to it (-1: not known, or
   * somebody did) */
  allowed: Map<string, number>;
  /** topic prefixes a wildcard subscription beyond its own topics was limited to (BrokerAuthority.receiveScope) */
  scope?: Set<string>;
  /** while one of its publishes waits for the event loop's authorisation: its publishes in order (publishOf) */
  lane?: LanePlace[];
  /** whether its lane is being worked through (goOn) */
  going?: boolean;
  /** its publishes on their way through aedes' own handling, not yet handed over: later ones wait in the lane */
  inAedes: number;
  /** the topic it last published on unheard (allowed, nobody subscribed), at that subscriptions' generation */
  lastTopic?: string;
  lastGeneration?: number;
}

// Sessions that outlive their connection (persistence/session-store.ts): aedes' in-memory persistence holds what this
// thread's connected clients need (their subscriptions, messages in flight to them, the retained messages every thread
// has); a persistent session whose client went away is the event loop's, which hands it back (with the messages
// queued meanwhile) to whichever thread its client connects to next.
type Persistence = {
  subscriptionsByClient(c: { id: string }, cb: (err: Error | null, subs: unknown[] | null, c: unknown) => void): void;
  createRetainedStreamCombi(patterns: string[]): Readable;
  storeRetained(packet: unknown, cb: (err?: Error | null) => void): void;
  outgoingEnqueueCombi(subs: { clientId: string }[], packet: unknown, cb: () => void): void;
  outgoingStream(client: { id: string }): Readable;
  outgoingClearMessageId(client: { id: string }, packet: { messageId?: number }, cb: () => void): void;
  cleanSubscriptions(client: Client, cb: () => void): void;
  addSubscriptions(client: Client, subs: { topic: string; qos: number }[], cb: () => void): void;
};
const persistence = (requireInAedes('aedes-persistence') as () => Persistence)();
/** subscriptions of stored sessions the event loop handed over with a CONNECT's answer (taken by aedes' fetchSubs) */
const resumedSubs = new Map<string, { topic: string; qos: number }[]>();
const ownSubscriptionsByClient = persistence.subscriptionsByClient.bind(persistence);
persistence.subscriptionsByClient = (c, cb) => {
  const subs = resumedSubs.get(c.id);
  if (subs === undefined) return ownSubscriptionsByClient(c, cb);
  resumedSubs.delete(c.id);
  process.nextTick(cb, null, subs.length > 0 ? subs : null, c);
};
const ownStoreRetained = persistence.storeRetained.bind(persistence);
persistence.storeRetained = (packet, cb) => {
  const p = packet as { payload?: object; properties?: Record<string, unknown>; expiresAt?: number };
  if (p.payload && (p.properties !== undefined || p.expiresAt !== undefined))
    retainedExtras.set(p.payload, { properties: p.properties, expiresAt: p.expiresAt });
  ownStoreRetained(packet, cb);
};
// a retained message of an MQTT 5 publisher whose expiry passed is no longer delivered
const ownRetained = persistence.createRetainedStreamCombi.bind(persistence);
persistence.createRetainedStreamCombi = (patterns) =>
  ownRetained(patterns).filter((p: { expiresAt?: number }) => p.expiresAt === undefined || p.expiresAt > Date.now());
/** a message kept by the event loop, as aedes' packet */
const keptPacket = (m: WireMessage, retain: boolean) =>
  new (MessagePacket as unknown as new (o: Record<string, unknown>, b: unknown) => Record<string, unknown>)(
    {
      cmd: 'publish',
      topic: m.topic,
      payload: asBuffer(m.payload),
      qos: m.qos,
      retain,
      properties: m.properties,
      expiresAt: m.expiresAt,
    },
    aedes,
  );
/** a persistent session's client went away: what was in flight to it goes to the event loop with its session */
function handBackInflight(client: Client) {
  const messages: WireMessage[] = [];
  persistence
    .outgoingStream(client)
    .on(
      'data',
      (p: {
        topic: string;
        payload: Buffer;
        qos: 0 | 1 | 2;
        messageId?: number;
        properties?: Record<string, unknown>;
        expiresAt?: number;
      }) => {
        messages.push({
          topic: p.topic,
          payload: new Uint8Array(p.payload),
          qos: p.qos,
          properties: p.properties,
          expiresAt: p.expiresAt,
        });
        persistence.outgoingClearMessageId(client, p, () => {});
      },
    )
    .on('end', () => {
      if (messages.length > 0) report({ e: 'inflight', clientId: client.id, messages });
    });
  persistence.cleanSubscriptions(client, () => {});
}

const aedes = new Aedes({
  persistence: persistence as never,
  id: `sentra-${randomBytes(4).toString('hex')}`,
  // a socket that never sends CONNECT holds memory for nothing
  connectTimeout: 10_000,
  // device UIDs and tokens can be longer than MQTT 3.1's 23-character client id
  maxClientsIdLength: 128,
});
const matcher = (aedes as unknown as { mq: { _matcher: Matcher } }).mq._matcher;
for (const change of ['add', 'remove', 'clear'] as const) {
  const original = matcher[change].bind(matcher);
  matcher[change] = (...args: unknown[]) => {
    subscriptionsGeneration++;
    return original(...args);
  };
}
const sessions = new WeakMap<Client, ThreadSession>();
const clientsBySid = new Map<SessionId, Client>();
/** sessions the event loop kicked before this thread had them ready (closed as soon as they are) */
const kickedEarly = new Set<SessionId>();
// TCP keep-alive: a client that asked for no MQTT keep-alive (0) and whose network vanished is still found out (after
// the system's probes: with Linux defaults about 12 minutes), so its session ends and the device goes offline
const serve = (socket: net.Socket) => gate.guard(aedes.handle((socket.setKeepAlive(true, 60_000), socket)));
// behind a load balancer speaking the PROXY protocol, its connections name their client first (proxy-protocol.ts)
const proxyTrusted = proxyProtocolFrom?.length ? proxyAddr.compile(proxyProtocolFrom) : undefined;
const tcp = net.createServer(
  proxyTrusted ? (socket) => acceptProxied(socket, (address) => proxyTrusted(address, 0), serve) : serve,
);
const sockets = new Map<number, Duplex>();
// Connections are read while three things allow it (read-gate.ts): the event loop's global pause (its writer's queue
// past half its bound) and this thread's own bound on what it handed over and the event loop has not taken
// (handover-bound.ts), both kept by the thread-wide gate; and the connection's own held acknowledgements (held-acks.ts).
let readPaused = false;
// TCP connections, once signed in, are read by the native reader when it was built (native-reads.ts)
const createReader = nativeReads ? nativeFd()?.createReader : undefined;
const native = createReader ? new NativeReads<Client>(createReader) : undefined;
/** connections not read while too many of their acknowledgements are held (held-acks.ts) */
const ackPaused = new WeakSet<Client>();
const acks = new HeldAcks<Client>(
  (client, paused) => {
    if (paused) {
      ackPaused.add(client);
      pauseReading(client);
    } else if (ackPaused.delete(client) && !client.closed) resumeReading(client);
  },
  MAX_HELD_PER_CONNECTION,
  native && ((client, data) => native.write(client, data)),
);
const handedOver = new HandoverBound(gateMoved);
const readOpen = () => !readPaused && !handedOver.isBehind;
const gate = new ReadGate<Client>(
  readOpen,
  native &&
    ((client) => {
      if (native.settled(client) && debug) log('debug', `MQTT client ${client.id} read by the native reader`);
    }),
  native && ((client) => native.reads(client)),
);
/** the thread-wide gate opened or closed */
function gateMoved() {
  const open = readOpen();
  native?.reading(open);
  if (open) gate.readWaiting();
}

// --- what goes to the event loop: one batch per turn, in order ---
let events: ThreadEvent[] = [];
const packer = new MessagePacker();
let flushing: NodeJS.Immediate | undefined;

function flush() {
  flushing = undefined;
  cutMessages();
  if (events.length === 0) return;
  const out: ThreadMessage = { t: 'batch', events };
  const transfer = events.flatMap((e) => (e.e === 'msgs' ? [e.buf] : []));
  events = [];
  port.postMessage(out, transfer);
}
/** the messages packed so far become an event, so that what follows them stays after them */
function cutMessages() {
  const count = packer.count;
  const buf = packer.take();
  if (!buf) return;
  events.push({ e: 'msgs', buf });
  handedOver.handed(count, buf.byteLength);
}
function report(event: ThreadEvent) {
  if (event.e !== 'log') cutMessages();
  events.push(event);
  flushing ??= setImmediate(flush);
}
/** a session's publish, packed for the event loop (sent at the end of this turn); a QoS 1 or 2 publish of `client`
 * (through the publish handler) has its acknowledgement held until the event loop releases it */
function handOver(session: ThreadSession, packet: PublishPacket, client?: Client) {
  const held = client !== undefined && packet.qos > 0;
  // an MQTT 5 message's properties travel beside the packed run, to other threads' subscribers (rare: only v5 clients)
  const v5 = packet as { properties?: Record<string, unknown>; expiresAt?: number };
  if (v5.properties !== undefined || v5.expiresAt !== undefined) {
    const properties = messageProperties(v5.properties);
    const at = v5.expiresAt ?? expiresAt(v5.properties, Date.now());
    if (properties !== undefined || at !== undefined) report({ e: 'props', properties, expiresAt: at });
  }
  packer.add(session.sid, packet.qos, packet.retain, packet.topic, packet.payload as Buffer, held);
  if (held) acks.hold(client, packet.messageId!, packet.qos === 2);
  // One turn may read thousands of sockets. The bound is kept inside the turn: reading stops the moment it is reached,
  // not at the end of the turn (what a connection's current read already holds is still handed over). And a long
  // turn's messages go over in runs of HANDOVER_RUN, so the event loop works on the first while this thread reads on.
  if (packer.count >= HANDOVER_RUN || handedOver.reaches(packer.count, packer.bytes)) {
    if (flushing) clearImmediate(flushing);
    flush();
  } else flushing ??= setImmediate(flush);
}
const log = (level: 'debug' | 'warn' | 'error', message: string) => {
  if (level !== 'debug' || debug) report({ e: 'log', level, message });
};

// --- questions to the event loop ---
let nextReq = 1;
const waiting = new Map<number, (answer: LoopCommand) => void>();
function ask(event: ThreadEvent & { req: number }, answered: (answer: LoopCommand) => void) {
  waiting.set(event.req, answered);
  report(event);
}

aedes.authenticate = (client, username, password, done) => {
  // CONNACK 2 (identifier rejected), as mosquitto answers a client id it does not take
  if (!validClientId(client.id))
    return done(Object.assign(new Error('client id refused'), { returnCode: 2 }) as AuthenticateError, false);
  const req = nextReq++;
  const address = (client.conn as { remoteAddress?: string } | undefined)?.remoteAddress;
  const v5 = (client as V5Client).sentraV5;
  // what the CONNECT asks of its session: MQTT 5 says it in Session Expiry and Clean Start, 3.1.1 in clean session
  // (a 3.1.1 persistent session is kept as long as MQTT 5's longest granted: MAX_SESSION_EXPIRY_S)
  const session = v5
    ? { keep: v5.sessionExpiry, discard: v5.cleanStart ?? true }
    : { keep: client.clean ? 0 : MAX_SESSION_EXPIRY_S, discard: client.clean };
  ask(
    {
      e: 'auth',
      req,
      clientId: client.id,
      username: username || undefined,
      password: password ? new Uint8Array(password) : undefined,
      address,
      session,
    },
    (a) => {
      if (a.t !== 'authAnswer' || a.sid === undefined) {
        const err = Object.assign(new Error(a.t === 'authAnswer' ? (a.message ?? 'refused') : 'refused'), {
          returnCode: a.t === 'authAnswer' ? (a.returnCode ?? 5) : 5,
        });
        return done(err as AuthenticateError, false);
      }
      sessions.set(client, { sid: a.sid, allowed: new Map(), inAedes: 0, lastTopic: undefined, lastGeneration: -1 });
      if (a.resumed) {
        // its stored session: aedes restores the subscriptions (fetchSubs) and sends what was queued (emptyQueue)
        // (aedes restores a session's subscriptions without storing them: its persistence is assumed to hold them; the
        // event loop hears of them here, as it hears of every subscription)
        const subs = a.resumed.subscriptions;
        resumedSubs.set(client.id, subs);
        persistence.addSubscriptions(client, subs, () => {});
        if (subs.length > 0)
          report({ e: 'subs', sid: a.sid, filters: subs.map((x) => x.topic), qos: subs.map((x) => x.qos) });
        for (const m of a.resumed.queued)
          persistence.outgoingEnqueueCombi([{ clientId: client.id }], keptPacket(m, false), () => {});
        // the QoS 2 ids it left awaiting their PUBREL, on whichever thread it was (MQTT-4.3.3)
        if (a.resumed.awaiting?.length) {
          keptAwaitingRelease.delete(client.id);
          keptAwaitingRelease.set(client.id, new Set(a.resumed.awaiting));
        }
      }
      // an MQTT 5 Clean Start with a session kept anew: the stored one is discarded (only now that the client is known)
      if (!cleanStarts.delete(client)) return done(null, true);
      persistence.cleanSubscriptions(client, () => done(null, true));
    },
  );
};

// a publish outside the session's rights is dropped (PublishDropped, above) and counted by the event loop; a retained
// message with a payload must also fit its shares of the retained store, or it is dropped too (RetainedOverShare). A
// will (published by aedes after the connection ended) over its shares goes out live, not retained.
// (One question each, asked when the publish is read: its answer comes in order with those of the packets after it.)
aedes.authorizePublish = (client, packet, done) => {
  const session = client ? sessions.get(client) : undefined;
  if (!session) return done(new Error('publish not authorised'));
  if (!validPublishTopic(packet.topic)) return done(new Error('invalid topic in PUBLISH'));
  // aedes' own publish handler asks again for a QoS 0 publish this thread already let through: answered at once
  if (admitted.delete(packet)) return done(null);
  const keeping = keeps(packet);
  const will = packet === (client as Client & { will?: unknown }).will;
  const retained = (ok: boolean) => {
    if (ok) {
      admitted.add(packet);
      return done(null);
    }
    if (will) {
      packet.retain = false;
      return done(null);
    }
    done(new RetainedOverShare('retained message over its share'));
  };
  if (session.allowed.has(packet.topic)) return keeping ? askRetain(session, packet, retained) : done(null);
  const bytes = keeping ? (packet.payload as Buffer).length : undefined;
  const question = { e: 'authz', req: nextReq++, sid: session.sid, topic: packet.topic, kind: 'publish' } as const;
  ask({ ...question, retain: bytes, ...(will && { will }) }, (a) => {
    if (a.t === 'authzAnswer' && a.ok) {
      if (session.allowed.size < MAX_ALLOWED_TOPICS) session.allowed.set(packet.topic, -1);
      return keeping ? retained(a.retained === true) : done(null);
    }
    done(new PublishDropped('publish not authorised'));
  });
};
// a refused subscription is answered with SUBACK 0x80 and the connection stays up
aedes.authorizeSubscribe = (client, sub, done) => {
  const session = client ? sessions.get(client) : undefined;
  if (!session || reserved(sub.topic) || !validFilter(sub.topic)) return done(null, null);
  ask({ e: 'authz', req: nextReq++, sid: session.sid, topic: sub.topic, kind: 'subscribe' }, (a) => {
    const ok = a.t === 'authzAnswer' && a.ok;
    if (ok && a.scope) for (const prefix of a.scope) (session.scope ??= new Set()).add(prefix);
    done(null, ok ? sub : null);
  });
};
// a session whose wildcard subscription reaches beyond its own topics receives only what is under its scope
aedes.authorizeForward = (client, packet) => {
  const scope = client ? sessions.get(client)?.scope : undefined;
  if (scope === undefined) return packet;
  for (const prefix of scope) if (packet.topic.startsWith(prefix)) return packet;
  return null;
};

aedes.on('clientReady', (client) => {
  const session = sessions.get(client);
  if (!session) return;
  clientsBySid.set(session.sid, client);
  // a clean session starts without the QoS 2 ids an earlier persistent one of this client id awaited
  if (client.clean) keptAwaitingRelease.delete(client.id);
  report({ e: 'ready', sid: session.sid, clientId: client.id });
  if (kickedEarly.delete(session.sid)) client.close();
});
aedes.on('clientDisconnect', (client) => {
  const session = sessions.get(client);
  if (!session) return;
  if (clientsBySid.get(session.sid) === client) clientsBySid.delete(session.sid);
  acks.forget(client);
  gate.forget(client);
  // aedes unregisters before this event; on a takeover the new client registers (and claims the id) right after
  const replaced = Boolean((aedes as unknown as { clients: Record<string, Client> }).clients[client.id]);
  report({ e: 'gone', sid: session.sid, clientId: client.id, replaced });
  keepAwaitingRelease(client, replaced);
  if (!client.clean && !replaced) handBackInflight(client);
});
aedes.on('publish', (packet, client) => {
  // client is null for the gateway's own publishes and aedes' $SYS traffic
  const session = client ? sessions.get(client) : undefined;
  if (session) handOver(session, packet, holding.delete(packet) ? client! : undefined);
});
aedes.on('subscribe', (subscriptions, client) => {
  const session = client ? sessions.get(client) : undefined;
  if (session)
    report({
      e: 'subs',
      sid: session.sid,
      filters: subscriptions.map((s) => s.topic),
      qos: subscriptions.map((s) => s.qos),
    });
});
aedes.on('unsubscribe', (filters, client) => {
  const session = client ? sessions.get(client) : undefined;
  if (session) report({ e: 'unsubs', sid: session.sid, filters });
});
aedes.on('clientError', (client, err) => log('debug', `MQTT client ${client.id} error: ${err.message}`));
aedes.on('connectionError', (_client, err) => log('debug', `MQTT connection error: ${err.message}`));
// aedes emits 'error' for persistence failures; unhandled, an EventEmitter 'error' would end the thread
(aedes as unknown as EventEmitter).on('error', (err: unknown) =>
  log('error', `MQTT broker error: ${err instanceof Error ? err.message : String(err)}`),
);
tcp.on('error', (err) => log('error', `MQTT TCP listener error: ${err.message}`));

function setReadPaused(paused: boolean) {
  if (paused === readPaused) return;
  readPaused = paused;
  gateMoved();
}

/** A WebSocket connection's bytes, relayed by the event loop, as the stream aedes reads and writes. */
function relayedSocket(id: number): Duplex {
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      // mqtt-packet writes a packet in pieces (a CONNACK in four 1-byte writes): what this turn wrote to the connection
      // goes out as one WebSocket frame, not a frame per piece
      const last = events[events.length - 1];
      if (last?.e === 'ws' && last.id === id && packer.count === 0) last.data = Buffer.concat([last.data, chunk]);
      else report({ e: 'ws', id, data: new Uint8Array(chunk) });
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
    case 'retainAnswer': {
      const answered = waiting.get(m.req);
      waiting.delete(m.req);
      answered?.(m);
      break;
    }
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
      for (const r of m.messages) persistence.storeRetained(keptPacket(r, true), () => {});
      break;
    case 'kick':
      for (const sid of m.sids) {
        const client = clientsBySid.get(sid);
        if (client) client.close();
        else if (kickedEarly.size < 10_000) kickedEarly.add(sid);
      }
      break;
    case 'pause':
      setReadPaused(m.paused);
      break;
    case 'acks':
      if (m.upTo !== undefined) acks.release(m.upTo, m.refused);
      if (m.took) handedOver.taken(m.took);
      break;
    case 'wsOpen':
      gate.guard(aedes.handle(Object.assign(relayedSocket(m.id), { remoteAddress: m.address })));
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
