// A device's publish on a broker thread. An acknowledgement means stored: a QoS 1 PUBACK (QoS 2 PUBREC) is not written
// here but held, in the order the messages were handed over, until the event loop says their batches committed
// (`acks`, once per turn: one write per connection for all of its released acknowledgements; thread-acks.ts).
//
// The hot path, taken before aedes' own handling when nothing in aedes needs it: QoS 0 or 1, not retained, on a topic
// this session was already allowed, and no subscriber anywhere. aedes would otherwise run it through its step series
// (authorisation, retained store, offline enqueue, emission: two topic matches and an allocation or two per step) only
// to find nobody to deliver to. QoS 0 otherwise goes aedes' whole way unchanged; QoS 1 and 2 go the same way except
// that the acknowledgement aedes would write at once is held instead (its `publish` event hands the message over).
import type { Client, PublishPacket } from 'aedes';
import { validPublishTopic } from './limits.js';
import { resolveTopicAlias } from './mqtt5.js';
import { aedes, aedesHandler, replaceHandler } from './thread-aedes.js';
import { droppingRefusals, PublishDropped, resentQos2, RetainedOverShare } from './thread-acks.js';
import { ask, handOver, nextRequest } from './thread-link.js';
import { disconnectV5, type V5Client } from './thread-mqtt5.js';
import { sessions, type ThreadSession } from './thread-sessions.js';

type HandlePublish = (client: Client, packet: PublishPacket, done: (err?: Error) => void) => void;
/** aedes' own publish handler (installPublishHandler) */
let aedesPublish: HandlePublish;
/** publishes whose acknowledgement is held: their `publish` event hands them over as held */
const holding = new WeakSet<PublishPacket>();

/** aedes' publish handler replaced by the thread's (before aedes' handlers index loads) */
export function installPublishHandler() {
  aedesPublish = aedesHandler<HandlePublish>('publish');
  replaceHandler('publish', handlePublish satisfies HandlePublish);
}
function handlePublish(client: Client, packet: PublishPacket, finished: (err?: Error) => void) {
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
export function goOn(session: ThreadSession) {
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
export type LanePlace = { answered: boolean; go: () => void };

/** aedes' `publish` event: a session's message that went aedes' own way is handed over at its end */
export function published(packet: PublishPacket, client: Client | null) {
  // client is null for the gateway's own publishes and aedes' $SYS traffic
  const session = client ? sessions.get(client) : undefined;
  if (session) handOver(session, packet, holding.delete(packet) ? client! : undefined);
}

/** topics a session was allowed to publish on, remembered so that only its first publish there asks the event loop */
const MAX_ALLOWED_TOPICS = 256;
/** retained publishes let through (admitted to the retained store) that aedes' handler may ask about once more */
const admitted = new WeakSet<object>();
/** a retained publish that keeps a message (an empty one deletes the topic's, and needs no room) */
const keeps = (packet: { retain?: boolean; payload?: unknown }) =>
  packet.retain === true && ((packet.payload as Buffer | undefined)?.length ?? 0) > 0;
/** asks the event loop whether a retained message fits its session's shares (persistence/session-store.ts) */
function askRetain(session: ThreadSession, packet: PublishPacket, answered: (ok: boolean) => void) {
  ask(
    {
      e: 'retain',
      req: nextRequest(),
      sid: session.sid,
      topic: packet.topic,
      bytes: (packet.payload as Buffer).length,
    },
    (a) => answered(a.t === 'retainAnswer' && a.ok),
  );
}
// a publish outside the session's rights is dropped (PublishDropped, thread-acks.ts) and counted by the event loop; a
// retained message with a payload must also fit its shares of the retained store, or it is dropped too
// (RetainedOverShare). A will (published by aedes after the connection ended) over its shares goes out live, not
// retained. (One question each, asked when the publish is read: its answer comes in order with those of the packets
// after it.)
export function authorizePublish(client: Client | null, packet: PublishPacket, done: (err?: Error | null) => void) {
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
  const question = { e: 'authz', req: nextRequest(), sid: session.sid, topic: packet.topic, kind: 'publish' } as const;
  ask({ ...question, retain: bytes, ...(will && { will }) }, (a) => {
    if (a.t === 'authzAnswer' && a.ok) {
      if (session.allowed.size < MAX_ALLOWED_TOPICS) session.allowed.set(packet.topic, -1);
      return keeping ? retained(a.retained === true) : done(null);
    }
    done(new PublishDropped('publish not authorised'));
  });
}

/** aedes' subscription matcher (mqemitter's): every subscription, a client's or aedes' own, is added and removed there */
interface Matcher {
  match(topic: string): unknown[];
  add(...args: unknown[]): unknown;
  remove(...args: unknown[]): unknown;
  clear(...args: unknown[]): unknown;
}
let matcher: Matcher;
/** bumped whenever a subscription is added or removed: what a session remembers of a topic holds until then */
let subscriptionsGeneration = 0;
/** the thread's aedes' matcher, each change of it counted (a new generation of subscriptions) */
export function watchSubscriptions() {
  matcher = (aedes as unknown as { mq: { _matcher: Matcher } }).mq._matcher;
  for (const change of ['add', 'remove', 'clear'] as const) {
    const original = matcher[change].bind(matcher);
    matcher[change] = (...args: unknown[]) => {
      subscriptionsGeneration++;
      return original(...args);
    };
  }
}
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
