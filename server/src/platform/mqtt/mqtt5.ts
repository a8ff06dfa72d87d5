// MQTT 5 on the broker threads, added around aedes 0.51 (which speaks 3.1 and 3.1.1 only; docs/decisions/broker.md says
// why this and not aedes 2). mqtt-packet already parses and writes every MQTT 5 packet: what is added here is what a
// broker must decide about them. A v5 client is handed to aedes as a 3.1.1 client with its CONNECT's session turned
// into aedes' terms (clean = the session ends with the connection); everything written to it is written as MQTT 5,
// with reason codes where 3.1.1 had return codes, CONNACK properties saying what this broker takes, and the publisher's
// properties (user properties, content type, message expiry, ...) passed through to subscribers.

/** What the broker holds of one MQTT 5 connection. */
export interface V5Session {
  /** seconds the session outlives the connection (0: it ends with it); capped at MAX_SESSION_EXPIRY_S */
  sessionExpiry: number;
  /** topic aliases the client set (alias → topic), at most TOPIC_ALIAS_MAXIMUM */
  aliases: Map<number, string>;
  /** UNSUBSCRIBE packet id → how many filters it named (a v5 UNSUBACK has a reason code for each) */
  unsubscribing: Map<number, number>;
}

/** topic aliases a client may set on its connection (advertised in CONNACK as Topic Alias Maximum) */
export const TOPIC_ALIAS_MAXIMUM = 64;
/** the longest session expiry the broker grants (7 days): a persistent session of a device that never returns ends */
export const MAX_SESSION_EXPIRY_S = 7 * 24 * 3600;
/** MQTT 5's "the session does not expire" */
const NEVER = 0xffffffff;

export function newV5Session(connect: { properties?: { sessionExpiryInterval?: number } }): V5Session {
  const asked = connect.properties?.sessionExpiryInterval ?? 0;
  return {
    sessionExpiry: Math.min(asked === NEVER ? MAX_SESSION_EXPIRY_S : asked, MAX_SESSION_EXPIRY_S),
    aliases: new Map(),
    unsubscribing: new Map(),
  };
}

/**
 * The CONNECT as aedes should see it: a 3.1.1 CONNECT whose `clean` says whether the session ends with the connection
 * (MQTT 5 Session Expiry 0). `cleanStart` is MQTT 5's Clean Start: a stored session is discarded first even when the
 * new one is kept (the caller clears it before aedes restores it).
 */
export function asAedesConnect<P extends { protocolVersion: number; clean: boolean }>(
  packet: P,
  session: V5Session,
): P & { cleanStart: boolean } {
  return { ...packet, protocolVersion: 4, clean: session.sessionExpiry === 0, cleanStart: packet.clean };
}

/** why a v5 CONNECT is refused before aedes sees it (a CONNACK reason code), or undefined */
export function connectRefusal(packet: { properties?: { authenticationMethod?: string } }): number | undefined {
  // enhanced authentication (AUTH exchanges) is not offered: user name and password only
  if (packet.properties?.authenticationMethod !== undefined) return 0x8c; // Bad authentication method
  return undefined;
}

// MQTT 3.1.1 CONNACK return codes → MQTT 5 reason codes
const CONNACK_REASON: Record<number, number> = {
  0: 0x00, // Success
  1: 0x84, // Unsupported Protocol Version
  2: 0x85, // Client Identifier not valid
  3: 0x88, // Server unavailable
  4: 0x86, // Bad User Name or Password
  5: 0x87, // Not authorized
  6: 0x89, // Server busy (aedes' keep-alive limit: never configured here)
};

/** what CONNACK tells a v5 client of this broker (MQTT 5 §3.2.2.3) */
export function connackProperties(
  session: V5Session,
  limits: { receiveMaximum: number; maximumPacketSize: number },
  asked?: number,
): Record<string, unknown> {
  return {
    // the session expiry actually granted, when it differs from what the client asked
    ...(asked !== undefined && asked !== session.sessionExpiry && { sessionExpiryInterval: session.sessionExpiry }),
    receiveMaximum: limits.receiveMaximum,
    maximumPacketSize: limits.maximumPacketSize,
    topicAliasMaximum: TOPIC_ALIAS_MAXIMUM,
    retainAvailable: true,
    wildcardSubscriptionAvailable: true,
    subscriptionIdentifiersAvailable: false,
    sharedSubscriptionAvailable: false,
  };
}

/** PUBLISH properties that belong to one hop (the sender's alias, the receiver's subscription ids), not the message;
 * a will's delay is the broker's to apply */
const HOP_PROPERTIES = new Set(['topicAlias', 'subscriptionIdentifier', 'willDelayInterval']);

/** the publisher's properties as they travel with the message (undefined when nothing is left) */
export function messageProperties(
  properties: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (properties === undefined) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(properties)) if (!HOP_PROPERTIES.has(k) && v !== undefined) (out ??= {})[k] = v;
  return out;
}

/** when a message with `properties` received at `now` expires (ms since the epoch), or undefined (never) */
export function expiresAt(properties: { messageExpiryInterval?: number } | undefined, now: number): number | undefined {
  const s = properties?.messageExpiryInterval;
  return typeof s === 'number' ? now + s * 1000 : undefined;
}

/** seconds left of a message expiring at `at` (MQTT-3.3.2-6: what a receiver gets is the time that remains), ≥ 0 */
export function secondsLeft(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** DISCONNECT reason codes the broker sends before it closes a v5 connection */
export const PROTOCOL_ERROR = 0x82;
export const TOPIC_ALIAS_INVALID = 0x94;

export type AliasResult = { topic: string } | { error: string; reason: number };

/**
 * A v5 PUBLISH's topic after its Topic Alias (MQTT 5 §3.3.2.3.4): a topic with an alias sets the alias, an empty topic
 * uses it. The connection is then closed with a DISCONNECT naming the reason: 0x94 Topic Alias invalid for an alias of
 * 0 or above the maximum the CONNACK gave (MQTT-3.3.2-8/-9), 0x82 Protocol Error for an alias never set.
 */
export function resolveTopicAlias(session: V5Session, topic: string, alias: number | undefined): AliasResult {
  if (alias === undefined) return { topic };
  if (!Number.isInteger(alias) || alias < 1 || alias > TOPIC_ALIAS_MAXIMUM)
    return { error: `topic alias ${alias} out of range`, reason: TOPIC_ALIAS_INVALID };
  if (topic.length > 0) {
    session.aliases.set(alias, topic);
    return { topic };
  }
  const known = session.aliases.get(alias);
  return known === undefined ? { error: `unknown topic alias ${alias}`, reason: PROTOCOL_ERROR } : { topic: known };
}

/** reason code of a refused publish (PUBACK/PUBREC) and a refused subscription (SUBACK) to a v5 client */
export const NOT_AUTHORIZED = 0x87;
/** a retained message past its share of the retained store (PUBACK/PUBREC 0x97 Quota exceeded) */
export const QUOTA_EXCEEDED = 0x97;
/** aedes' "subscription refused" in a SUBACK (3.1.1's 0x80) */
const SUBSCRIPTION_REFUSED = 0x80;

/** a PUBACK (or PUBREC with `rec`) carrying a v5 reason code */
export function reasonAck(messageId: number, reason: number, rec = false): Buffer {
  return Buffer.from([rec ? 0x50 : 0x40, 3, messageId >> 8, messageId & 0xff, reason]);
}

type Packet = Record<string, unknown> & { cmd: string };

/**
 * A packet aedes writes to a v5 client, as MQTT 5 has it (a new object; aedes' own may be shared between clients):
 * CONNACK's return code becomes a reason code with the broker's properties, a refused subscription says Not authorized,
 * an UNSUBACK names a reason for each filter, a PUBLISH carries its message's properties with the expiry that remains.
 * Null: not to be written (a message that expired before it could be delivered).
 */
export function toV5(
  packet: Packet,
  session: V5Session,
  limits: { receiveMaximum: number; maximumPacketSize: number; askedExpiry?: number },
  now: number,
): Packet | null {
  switch (packet.cmd) {
    case 'connack': {
      const reasonCode = CONNACK_REASON[packet.returnCode as number] ?? 0x80;
      return {
        cmd: 'connack',
        sessionPresent: packet.sessionPresent,
        reasonCode,
        ...(reasonCode === 0 && { properties: connackProperties(session, limits, limits.askedExpiry) }),
      };
    }
    case 'suback':
      return {
        ...packet,
        granted: (packet.granted as number[]).map((g) => (g === SUBSCRIPTION_REFUSED ? NOT_AUTHORIZED : g)),
      };
    case 'unsuback': {
      const id = packet.messageId as number;
      const n = session.unsubscribing.get(id) ?? 1;
      session.unsubscribing.delete(id);
      return { ...packet, granted: new Array<number>(n).fill(0) };
    }
    case 'publish': {
      const at = packet.expiresAt as number | undefined;
      const props = packet.properties as Record<string, unknown> | undefined;
      if (at === undefined) return props === undefined ? packet : { ...packet, properties: messageProperties(props) };
      if (at <= now) return null;
      return { ...packet, properties: { ...messageProperties(props), messageExpiryInterval: secondsLeft(at, now) } };
    }
    default:
      return packet;
  }
}
