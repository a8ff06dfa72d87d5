// Held acknowledgements on a broker thread: a QoS 1 PUBACK (QoS 2 PUBREC) waits here, in the order its message was
// handed over, until the event loop says the message's batch committed (or that the message was not data to keep).
// The event loop numbers the held messages in the same order (0, 1, 2, ... per thread) and releases every number below
// a mark; what a connection gets released in one release goes out at once, as one write. Nothing waits for a timer: a
// client that keeps a small window of messages in flight (MQTT.js, Paho embedded with one, MQTT 5 Receive Maximum)
// publishes again as soon as the commit that stored its messages is known (docs/decisions/ingest.md, "An acknowledgement
// leaves with its commit"). A connection with too many acknowledgements held stops being read until they come down: its
// in-flight window is its backpressure, and one flooding device cannot fill the writer's queue ahead of the others.
import { Fifo } from '../fifo.js';

/** the least a connection needs from its client: the socket, and whether it is still up */
export interface AckTarget {
  conn: { write(b: Buffer): boolean; destroyed?: boolean };
  connected?: boolean;
  closed?: boolean;
  close(): void;
}

/**
 * Acknowledgements one connection may have held before it is no longer read (resumed below half): MQTT.js and most
 * device stacks keep far fewer in flight, so this only stops a client that publishes without waiting for acks.
 */
export const MAX_HELD_PER_CONNECTION = 100;

const PUBACK = 0x40;
const PUBREC = 0x50;

/** per connection, on its client object (no map lookups on the hot path): acknowledgements held, and the ids a
 * release is gathering for it */
const HELD = Symbol('held acknowledgements');
const OUT = Symbol('released acknowledgements');
type Tracked = { [HELD]?: number; [OUT]?: number[] };

export class HeldAcks<C extends AckTarget> {
  private clients: (C | undefined)[] = [];
  private ids: number[] = [];
  private head = 0;
  /** the number of the oldest acknowledgement still held */
  private base = 0;
  /** one release's bytes, reused: a connection's acknowledgements are written from it before the next one's */
  private scratch = Buffer.allocUnsafe(4096);

  /**
   * `pause(client, true)` once a connection holds MAX_HELD_PER_CONNECTION, `pause(client, false)` below half;
   * `write` puts released acknowledgements on the connection: `data` is valid only during the call (a writer that
   * keeps it, as a stream does, copies it)
   */
  constructor(
    private readonly pause: (client: C, paused: boolean) => void,
    private readonly maxPerClient = MAX_HELD_PER_CONNECTION,
    private readonly write: (client: C, data: Buffer) => void = (client, data) =>
      void client.conn.write(Buffer.from(data)),
  ) {}

  get size(): number {
    return this.ids.length - this.head;
  }

  held(client: C): number {
    return (client as Tracked)[HELD] ?? 0;
  }

  /** the next held acknowledgement: `rec` for a QoS 2 PUBREC, else a PUBACK */
  hold(client: C, messageId: number, rec: boolean): void {
    this.clients.push(client);
    this.ids.push(rec ? messageId | 0x10000 : messageId);
    const t = client as Tracked;
    const n = (t[HELD] ?? 0) + 1;
    t[HELD] = n;
    if (n === this.maxPerClient) this.pause(client, true);
  }

  /**
   * Releases every acknowledgement numbered below `upTo`: written to its connection at once if it is still up (one
   * write per connection), except the `refused` ones, whose connections are closed unacknowledged (the client sends
   * again).
   */
  release(upTo: number, refused?: readonly number[]): void {
    const refusedSet = refused?.length ? new Set(refused) : undefined;
    let closing: Set<C> | undefined;
    const touched: C[] = [];
    const resumeAt = Math.floor(this.maxPerClient / 2) - 1;
    while (this.base < upTo && this.head < this.ids.length) {
      const serial = this.base++;
      const client = this.clients[this.head]!;
      const id = this.ids[this.head]!;
      this.clients[this.head] = undefined;
      this.head++;
      const t = client as Tracked;
      const n = (t[HELD] ?? 1) - 1;
      t[HELD] = n;
      if (n === resumeAt) this.pause(client, false);
      if (refusedSet?.has(serial)) (closing ??= new Set()).add(client);
      else {
        const ids = t[OUT];
        if (ids) ids.push(id);
        else {
          t[OUT] = [id];
          touched.push(client);
        }
      }
    }
    this.compact();
    for (const client of touched) {
      const t = client as Tracked;
      const ids = t[OUT]!;
      t[OUT] = undefined;
      if (closing?.has(client) || gone(client)) continue;
      this.write(client, this.encode(ids));
    }
    // closed unacknowledged: the client sends them again
    if (closing) for (const client of closing) client.close();
  }

  /** PUBACKs (PUBRECs) of `ids`, in order, as the bytes of one write (in the scratch buffer) */
  private encode(ids: readonly number[]): Buffer {
    const length = ids.length * 4;
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(length, this.scratch.length * 2));
    const buf = this.scratch;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      buf[k * 4] = isRec(id) ? PUBREC : PUBACK;
      buf[k * 4 + 1] = 2;
      buf[k * 4 + 2] = (id >> 8) & 0xff;
      buf[k * 4 + 3] = id & 0xff;
    }
    return buf.subarray(0, length);
  }

  /** whether `client`'s QoS 2 PUBREC for `messageId` is still held (a scan: asked only for a re-sent QoS 2 PUBLISH) */
  holdsRec(client: C, messageId: number): boolean {
    if (!(client as Tracked)[HELD]) return false;
    const id = messageId | 0x10000;
    for (let k = this.head; k < this.ids.length; k++) if (this.ids[k] === id && this.clients[k] === client) return true;
    return false;
  }

  /** a connection that went: its count goes (its entries stay numbered, and are skipped when released) */
  forget(client: C): void {
    (client as Tracked)[HELD] = undefined;
  }

  private compact() {
    if (this.head > 1024 && this.head * 2 > this.ids.length) {
      this.clients = this.clients.slice(this.head);
      this.ids = this.ids.slice(this.head);
      this.head = 0;
    }
  }
}

const isRec = (id: number) => id > 0xffff;
const gone = (client: AckTarget) => client.closed || client.connected === false || client.conn.destroyed;

/** Releases one held acknowledgement: `acknowledge` false closes its connection unacknowledged instead (sent again). */
export type AckRelease = (acknowledge?: boolean) => void;

interface LedgerEntry {
  holds: number;
  refused: boolean;
}

/**
 * The event loop's side, one per broker thread: the thread's held messages numbered in the order they arrive, each
 * released once everybody who held it let go. Acknowledgements are released in order (MQTT-4.6.0-2 wants a
 * connection's PUBACKs in the order of its PUBLISHes), so one message still being written holds back the ones after it.
 */
export class AckLedger {
  private entries = new Fifo<LedgerEntry>();
  /** held messages released so far (the next one's number) */
  private released = 0;
  private sentUpTo = 0;
  private refused: number[] = [];

  /** `released` hears of every release that moved the mark (the caller then `take`s what to tell the thread) */
  constructor(private readonly onReleased: () => void = () => {}) {}

  /** how many held messages wait */
  get waiting(): number {
    return this.entries.length;
  }

  /** the thread's next held message, held once by the caller until `let go` */
  open(): LedgerEntry {
    const e = { holds: 1, refused: false };
    this.entries.push(e);
    return e;
  }

  /** another hold on `e`: the acknowledgement waits for the returned release too (called at most once counts) */
  hold(e: LedgerEntry): AckRelease {
    e.holds++;
    let once = false;
    return (acknowledge = true) => {
      if (once) return;
      once = true;
      this.letGo(e, acknowledge);
    };
  }

  letGo(e: LedgerEntry, acknowledge = true): void {
    if (!acknowledge) e.refused = true;
    e.holds--;
    if (e.holds > 0 || this.entries.peek() !== e) return;
    this.onReleased();
    for (let first = this.entries.peek(); first !== undefined && first.holds <= 0; first = this.entries.peek()) {
      if (first.refused) this.refused.push(this.released);
      this.entries.shift();
      this.released++;
    }
  }

  /** what to tell the thread since the last time, or null when nothing more was released */
  take(): { upTo: number; refused?: number[] } | null {
    if (this.released === this.sentUpTo) return null;
    this.sentUpTo = this.released;
    if (this.refused.length === 0) return { upTo: this.released };
    const refused = this.refused;
    this.refused = [];
    return { upTo: this.released, refused };
  }
}
