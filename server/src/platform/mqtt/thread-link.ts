// A broker thread's link to the event loop (broker.ts): what sessions publish is packed and handed over once per turn
// of this thread's loop, with every other event, in order, in one batch; questions (sign-in, rights, retained shares)
// go out the same way and their answers come back in the order asked.
import { parentPort } from 'node:worker_threads';
import type { Client, PublishPacket } from 'aedes';
import { MessagePacker, type LoopCommand, type ThreadEvent, type ThreadMessage } from './broker-wire.js';
import { HANDOVER_RUN } from './handover-bound.js';
import { expiresAt, messageProperties } from './mqtt5.js';
import { settings } from './thread-aedes.js';
import { acks } from './thread-acks.js';
import { handedOver } from './thread-reads.js';
import type { ThreadSession } from './thread-sessions.js';

export const port = parentPort!;

// --- what goes to the event loop: one batch per turn, in order ---
let events: ThreadEvent[] = [];
const packer = new MessagePacker();
let flushing: NodeJS.Immediate | undefined;

export function flush() {
  flushing = undefined;
  cutMessages();
  if (events.length === 0) return;
  const out: ThreadMessage = { t: 'batch', events };
  const transfer = events.flatMap((e) => (e.e === 'msgs' ? [e.buf] : []));
  events = [];
  port.postMessage(out, transfer);
}
/** an event the event loop must have before the client can act on what this thread just wrote (CONNACK: the session is
 * live, and the client may ask about it over HTTP or take over from another connection), sent now with what precedes it */
export function reportNow(event: ThreadEvent) {
  report(event);
  flushNow();
}
/** what is packed and reported goes now, not at the end of this turn */
function flushNow() {
  if (flushing) clearImmediate(flushing);
  flush();
}
/** the messages packed so far become an event, so that what follows them stays after them */
function cutMessages() {
  const count = packer.count;
  const buf = packer.take();
  if (!buf) return;
  events.push({ e: 'msgs', buf });
  handedOver.handed(count, buf.byteLength);
}
export function report(event: ThreadEvent) {
  if (event.e !== 'log') cutMessages();
  events.push(event);
  flushing ??= setImmediate(flush);
}
/** what a relayed WebSocket connection's stream wrote: one frame for what a turn wrote (thread-connections.ts) */
export function reportWs(id: number, chunk: Buffer) {
  const last = events[events.length - 1];
  if (last?.e === 'ws' && last.id === id && packer.count === 0) last.data = Buffer.concat([last.data, chunk]);
  else report({ e: 'ws', id, data: new Uint8Array(chunk) });
}
/** a session's publish, packed for the event loop (sent at the end of this turn); a QoS 1 or 2 publish of `client`
 * (through the publish handler) has its acknowledgement held until the event loop releases it */
export function handOver(session: ThreadSession, packet: PublishPacket, client?: Client) {
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
  if (packer.count >= HANDOVER_RUN || handedOver.reaches(packer.count, packer.bytes)) flushNow();
  else flushing ??= setImmediate(flush);
}
export const log = (level: 'debug' | 'warn' | 'error', message: string) => {
  if (level !== 'debug' || settings.debug) report({ e: 'log', level, message });
};

// --- questions to the event loop ---
let nextReq = 1;
/** the number of the next question */
export const nextRequest = () => nextReq++;
const waiting = new Map<number, (answer: LoopCommand) => void>();
export function ask(event: ThreadEvent & { req: number }, answered: (answer: LoopCommand) => void) {
  waiting.set(event.req, answered);
  report(event);
}
/** the event loop's answer to a question */
export function answer(m: LoopCommand & { req: number }) {
  const answered = waiting.get(m.req);
  waiting.delete(m.req);
  answered?.(m);
}
