// Sessions that outlive their connection (persistence/session-store.ts): aedes' in-memory persistence holds what this
// thread's connected clients need (their subscriptions, messages in flight to them, the retained messages every thread
// has); a persistent session whose client went away is the event loop's, which hands it back (with the messages
// queued meanwhile) to whichever thread its client connects to next.
import type { Readable } from 'node:stream';
import type { Client } from 'aedes';
import { asBuffer, type WireMessage } from './broker-wire.js';
import { aedes, requireInAedes } from './thread-aedes.js';
import { report } from './thread-link.js';
import { MessagePacket, retainedExtras } from './thread-mqtt5.js';

export type Persistence = {
  subscriptionsByClient(c: { id: string }, cb: (err: Error | null, subs: unknown[] | null, c: unknown) => void): void;
  createRetainedStreamCombi(patterns: string[]): Readable;
  storeRetained(packet: unknown, cb: (err?: Error | null) => void): void;
  outgoingEnqueueCombi(subs: { clientId: string }[], packet: unknown, cb: () => void): void;
  outgoingStream(client: { id: string }): Readable;
  outgoingClearMessageId(client: { id: string }, packet: { messageId?: number }, cb: () => void): void;
  cleanSubscriptions(client: Client, cb: () => void): void;
  addSubscriptions(client: Client, subs: { topic: string; qos: number }[], cb: () => void): void;
};
/** the thread's aedes persistence (openPersistence: made once aedes' packet class is in place) */
export let persistence: Persistence;
/** subscriptions of stored sessions the event loop handed over with a CONNECT's answer (taken by aedes' fetchSubs) */
export const resumedSubs = new Map<string, { topic: string; qos: number }[]>();

/** aedes' in-memory persistence, with the stored sessions handed over and the retained messages' MQTT 5 extras */
export function openPersistence(): Persistence {
  persistence = (requireInAedes('aedes-persistence') as () => Persistence)();
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
  return persistence;
}

/** a message kept by the event loop, as aedes' packet */
export const keptPacket = (m: WireMessage, retain: boolean) =>
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

/** the retained messages the event loop keeps (at start, and to a thread that restarts) */
export function storeRetained(messages: WireMessage[]) {
  for (const r of messages) persistence.storeRetained(keptPacket(r, true), () => {});
}

/** a persistent session's client went away: what was in flight to it goes to the event loop with its session */
export function handBackInflight(client: Client) {
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
