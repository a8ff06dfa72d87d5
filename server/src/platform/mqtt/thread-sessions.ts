// Sessions and sign-in on a broker thread: the event loop (broker.ts) answers who a client is and what it may
// subscribe to; the thread keeps, per connection, what it was told (ThreadSession) so that only a topic's first
// publish asks. A session's stored state comes back with the CONNECT's answer (thread-persistence.ts).
import type { AuthenticateError, AuthorizeForwardHandler, Client, Subscription } from 'aedes';
import { reserved, type SessionId } from './broker-wire.js';
import { validClientId, validFilter } from './limits.js';
import { MAX_SESSION_EXPIRY_S } from './mqtt5.js';
import { aedes } from './thread-aedes.js';
import { acks, keepAwaitingRelease, keptAwaitingRelease } from './thread-acks.js';
import { ask, nextRequest, report, reportNow } from './thread-link.js';
import { cleanStarts, type V5Client } from './thread-mqtt5.js';
import type { LanePlace } from './thread-publish.js';
import { gate } from './thread-reads.js';
import { handBackInflight, keptPacket, persistence, resumedSubs } from './thread-persistence.js';

export interface ThreadSession {
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

export const sessions = new WeakMap<Client, ThreadSession>();
const clientsBySid = new Map<SessionId, Client>();
/** sessions the event loop kicked before this thread had them ready (closed as soon as they are) */
const kickedEarly = new Set<SessionId>();

export function authenticate(
  client: Client,
  username: Readonly<string> | undefined,
  password: Readonly<Buffer> | undefined,
  done: (err: AuthenticateError | null, success: boolean | null) => void,
) {
  // CONNACK 2 (identifier rejected), as mosquitto answers a client id it does not take
  if (!validClientId(client.id))
    return done(Object.assign(new Error('client id refused'), { returnCode: 2 }) as AuthenticateError, false);
  const req = nextRequest();
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
}

// a refused subscription is answered with SUBACK 0x80 and the connection stays up
export function authorizeSubscribe(
  client: Client | null,
  sub: Subscription,
  done: (err: Error | null, subscription?: Subscription | null) => void,
) {
  const session = client ? sessions.get(client) : undefined;
  if (!session || reserved(sub.topic) || !validFilter(sub.topic)) return done(null, null);
  ask({ e: 'authz', req: nextRequest(), sid: session.sid, topic: sub.topic, kind: 'subscribe', qos: sub.qos }, (a) => {
    const ok = a.t === 'authzAnswer' && a.ok;
    if (ok && a.scope) for (const prefix of a.scope) (session.scope ??= new Set()).add(prefix);
    done(null, ok ? sub : null);
  });
}
// a session whose wildcard subscription reaches beyond its own topics receives only what is under its scope
export const authorizeForward: AuthorizeForwardHandler = (client, packet) => {
  const scope = client ? sessions.get(client)?.scope : undefined;
  if (scope === undefined) return packet;
  for (const prefix of scope) if (packet.topic.startsWith(prefix)) return packet;
  return null;
};

export function clientReady(client: Client) {
  const session = sessions.get(client);
  if (!session) return;
  clientsBySid.set(session.sid, client);
  // a clean session starts without the QoS 2 ids an earlier persistent one of this client id awaited
  if (client.clean) keptAwaitingRelease.delete(client.id);
  reportNow({ e: 'ready', sid: session.sid, clientId: client.id });
  if (kickedEarly.delete(session.sid)) client.close();
}
export function clientDisconnect(client: Client) {
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
}
/** the event loop ends these sessions' connections (a takeover elsewhere, an access change) */
export function kick(sids: SessionId[]) {
  for (const sid of sids) {
    const client = clientsBySid.get(sid);
    if (client) client.close();
    else if (kickedEarly.size < 10_000) kickedEarly.add(sid);
  }
}
/** aedes' `unsubscribe` event */
export function unsubscribed(filters: string[], client: Client | null) {
  const session = client ? sessions.get(client) : undefined;
  if (session) report({ e: 'unsubs', sid: session.sid, filters });
}
