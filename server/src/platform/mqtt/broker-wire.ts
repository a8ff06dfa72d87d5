// What the broker thread (broker.worker.ts) and the gateway's event loop (broker.ts) tell each other. The thread speaks
// MQTT; the event loop knows who a session is (its identity, its authority) and what a message means. Device publishes
// cross in packed runs: one transferred buffer for every message the thread heard in one turn of its loop.

/** `$` topics (aedes' `$SYS`, other tenants' client ids in it) are never a client's to publish or subscribe */
export const reserved = (topic: string) => topic.startsWith('$');

/** the bytes of a cloned Uint8Array as a Buffer (a view, not a copy) */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** the event loop's number for an authenticated connection; the thread never sees identities */
export type SessionId = number;

/** a message kept by the event loop (retained, queued for a session), as it crosses to a thread */
export interface WireMessage {
  topic: string;
  payload: Uint8Array;
  qos: 0 | 1 | 2;
  properties?: Record<string, unknown>;
  expiresAt?: number;
}

/** What the thread reports, in the order it happened (one `batch` per turn of its loop). */
export type ThreadEvent =
  /** `address`: the client's IP address (for throttling CONNECT failures) */
  /** `session`: what the CONNECT asks of its session (persistence/session-store.ts): `keep` seconds it outlives the
   * connection (0: it ends with it), `discard` a stored one is ended first (3.1.1 clean session, MQTT 5 Clean Start) */
  | {
      e: 'auth';
      req: number;
      clientId: string;
      username?: string;
      password?: Uint8Array;
      address?: string;
      session?: { keep: number; discard: boolean };
    }
  /** `retain`: a retained publish's payload bytes, asked to be kept in the same question (session-store.ts) */
  /** `will`: the session's will, published after its connection ended */
  | {
      e: 'authz';
      req: number;
      sid: SessionId;
      topic: string;
      kind: 'publish' | 'subscribe';
      /** a subscription's requested QoS: granted, it is the session's at once (before its SUBACK is written) */
      qos?: number;
      retain?: number;
      will?: boolean;
    }
  /** a retained publish with a payload (`bytes` of it) asks to be kept before aedes stores it (session-store.ts) */
  | { e: 'retain'; req: number; sid: SessionId; topic: string; bytes: number }
  /** CONNACK sent: the session is live */
  | { e: 'ready'; sid: SessionId; clientId: string }
  /** the connection is gone; `replaced`: another connection with the same client id took over */
  | { e: 'gone'; sid: SessionId; clientId: string; replaced: boolean }
  /** a resumed session's subscriptions, and the ones a session dropped (another thread's publishes must reach them; a
   * live SUBSCRIBE's are recorded when granted, at `authz`) */
  | { e: 'subs'; sid: SessionId; filters: string[]; qos?: number[] }
  /** an MQTT 5 DISCONNECT changed how long the session outlives its connection (seconds; 0: it ends with it) */
  | { e: 'expiry'; sid: SessionId; keep: number }
  /** QoS 1 messages a persistent session's client left unacknowledged (sent again when it returns) */
  | { e: 'inflight'; clientId: string; messages: WireMessage[] }
  /** the QoS 2 packet ids a persistent session's client left awaiting their PUBREL (its session keeps them) */
  | { e: 'awaiting'; clientId: string; ids: number[] }
  | { e: 'unsubs'; sid: SessionId; filters: string[] }
  /** publishes of sessions, packed (see packMessages) */
  | { e: 'msgs'; buf: ArrayBuffer }
  /** the MQTT 5 properties of the first message of the next `msgs` (user properties, content type, ...; `expiresAt`
   * its Message Expiry as a time): another thread's subscribers get them too */
  | { e: 'props'; properties?: Record<string, unknown>; expiresAt?: number }
  | { e: 'published'; req: number; error?: string }
  /** a packet over MQTT_MAX_PACKET_BYTES (fast-publish.ts) was refused and its connection closed; `clientId` once
   * CONNECT was read */
  | { e: 'oversized'; length: number; clientId?: string }
  /** a connection closed for holding more than MQTT_MAX_OUTBOUND_BYTES unwritten (it stopped reading) */
  | { e: 'overflow'; clientId?: string; bytes: number }
  | { e: 'ws'; id: number; data: Uint8Array }
  | { e: 'wsEnd'; id: number }
  | { e: 'log'; level: 'debug' | 'warn' | 'error'; message: string };

export type ThreadMessage =
  | { t: 'batch'; events: ThreadEvent[] }
  /** `fd`: the thread's descriptor of the listening socket (the event loop keeps a duplicate for other threads) */
  | { t: 'listening'; port: number; fd: number }
  | { t: 'listenFailed'; message: string }
  | { t: 'closed' };

/** What the event loop asks of the thread. */
export type LoopCommand =
  | { t: 'listen'; host: string; port: number }
  /** listen on a duplicate of another thread's listening socket (the kernel hands each connection to one of them) */
  | { t: 'listenFd'; fd: number }
  /** `sid` when accepted, else the CONNACK return code of the refusal */
  /** `resumed`: the client's stored session, handed to its connection (its subscriptions, its queued messages) */
  | {
      t: 'authAnswer';
      req: number;
      sid?: SessionId;
      returnCode?: number;
      message?: string;
      resumed?: { subscriptions: { topic: string; qos: number }[]; queued: WireMessage[]; awaiting?: number[] };
    }
  /** the retained messages kept across restarts, for a thread that starts */
  | { t: 'retained'; messages: WireMessage[] }
  /** `retained`: whether the retained message asked about may be kept */
  | { t: 'authzAnswer'; req: number; ok: boolean; scope?: string[]; retained?: boolean }
  | { t: 'retainAnswer'; req: number; ok: boolean }
  /** `req` 0: nobody waits for the answer (another thread's publish, delivered to this thread's subscribers) */
  | {
      t: 'publish';
      req: number;
      topic: string;
      payload: Uint8Array;
      qos: 0 | 1;
      retain: boolean;
      properties?: Record<string, unknown>;
      expiresAt?: number;
    }
  | { t: 'kick'; sids: SessionId[] }
  | { t: 'pause'; paused: boolean }
  /** once per turn of the event loop: the held acknowledgements (messages packed with `held`, numbered per thread from
   * 0 in packing order) below `upTo` are released: each is written (PUBACK, or PUBREC for QoS 2), except those in
   * `refused`, whose connections are closed unacknowledged so that the client sends them again; `took`: how many runs
   * of packed messages the event loop took since the last time (handover-bound.ts) */
  | { t: 'acks'; upTo?: number; refused?: number[]; took?: number }
  | { t: 'wsOpen'; id: number; address?: string }
  | { t: 'wsData'; id: number; data: Uint8Array }
  | { t: 'wsEnd'; id: number }
  | { t: 'close' };

/** per message: session (u32), flags (u8: QoS in bits 0–1, retain in bit 2, held in bit 3), topic bytes (u16), payload bytes (u32),
 * then the topic and the payload */
const HEADER = 11;

/** Appends publishes to one growing buffer; `take` hands over exactly what was written and starts afresh. */
export class MessagePacker {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  count = 0;

  /** the packed messages' bytes so far */
  get bytes(): number {
    return this.used;
  }

  /** `held`: its acknowledgement waits for the event loop's `acks` (the message is the thread's next held one) */
  add(sid: SessionId, qos: number, retain: boolean, topic: string, payload: Uint8Array, held = false): void {
    const room = HEADER + topic.length * 3 + payload.length;
    if (this.used + room > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.used + room));
      this.buf.copy(grown, 0, 0, this.used);
      this.buf = grown;
    }
    const o = this.used;
    const topicBytes = this.buf.write(topic, o + HEADER, 'utf8');
    this.buf.writeUInt32LE(sid, o);
    this.buf[o + 4] = qos | (retain ? 4 : 0) | (held ? 8 : 0);
    this.buf.writeUInt16LE(topicBytes, o + 5);
    this.buf.writeUInt32LE(payload.length, o + 7);
    this.buf.set(payload, o + HEADER + topicBytes);
    this.used = o + HEADER + topicBytes + payload.length;
    this.count++;
  }

  /** the packed messages as a buffer of their own (transferable), or null when there are none */
  take(): ArrayBuffer | null {
    if (this.count === 0) return null;
    const out = new ArrayBuffer(this.used);
    new Uint8Array(out).set(this.buf.subarray(0, this.used));
    this.used = 0;
    this.count = 0;
    return out;
  }
}

/** Calls `each` for every packed message, in order; payloads are views of `buf` (not copies). */
export function unpackMessages(
  buf: ArrayBuffer,
  each: (sid: SessionId, qos: 0 | 1 | 2, retain: boolean, topic: string, payload: Buffer, held: boolean) => void,
): void {
  const b = Buffer.from(buf);
  let o = 0;
  while (o + HEADER <= b.length) {
    const sid = b.readUInt32LE(o);
    const flags = b[o + 4]!;
    const topicBytes = b.readUInt16LE(o + 5);
    const payloadBytes = b.readUInt32LE(o + 7);
    const topicAt = o + HEADER;
    const payloadAt = topicAt + topicBytes;
    o = payloadAt + payloadBytes;
    if (o > b.length) throw new Error('packed messages cut short');
    each(
      sid,
      (flags & 3) as 0 | 1 | 2,
      (flags & 4) !== 0,
      b.toString('utf8', topicAt, payloadAt),
      b.subarray(payloadAt, o),
      (flags & 8) !== 0,
    );
  }
}
