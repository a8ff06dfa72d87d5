// A broker thread's device sockets read by the native reader (server/native/io.c) instead of Node's per-socket reads:
// one epoll set, one call into JavaScript per turn with every ready socket's bytes, each chunk handed to its client's
// parser exactly as aedes' read loop hands it (docs/decisions/ingest.md: at 150,000 points/s Node's machinery per read
// was the broker thread's largest cost after the system calls). PUBACKs released for a socket with nothing else waiting
// to be written go straight to it too (`write`).
//
// A connection is taken over once it is quiet: signed in (CONNACK written), no packet of it being handled, nothing
// read and not yet parsed. From then on Node does not read it (its handle's reading stopped, the stream's `_read` a
// no-op so that aedes' `conn.read()` cannot start it again); Node still writes it and closes it. What stops aedes'
// read loop stops the native reads of that connection too: a packet still being handled (`_parsingBatch`), the
// connection's own pause (`_paused`: too many acknowledgements held); the thread-wide gate stops the whole reader. The
// end of the stream or a read error destroys the socket, as Node's own read would.
import { getSystemErrorName } from 'node:util';

/** the native reader (io.c) */
export interface NativeReader {
  attach(fd: number): number;
  watch(slot: number, on: boolean): boolean;
  detach(slot: number): void;
  write(slot: number, data: Buffer): number;
  reading(on: boolean): void;
  close(): void;
}
export type CreateReader = (onRead: (data: Buffer, records: Int32Array, count: number) => void) => NativeReader;

/** what of an aedes client (0.51 `lib/client.js`) and its net.Socket the native reads use */
interface ReadClient {
  closed?: boolean;
  connackSent?: boolean;
  _paused: boolean;
  _parsingBatch: number;
  _parser: { parse(buf: Buffer): unknown };
  conn: {
    _handle?: { fd?: number; reading?: boolean; readStop?: () => number; readStart?: () => number } | null;
    _read?: unknown;
    readableLength?: number;
    writableLength?: number;
    destroyed?: boolean;
    write(b: Buffer): boolean;
    destroy(err?: Error): void;
    once(event: 'close', f: () => void): unknown;
  };
}

const noRead = () => {};

export class NativeReads<C extends object> {
  private readonly reader: NativeReader;
  private readonly bySlot: (C | undefined)[] = [];
  private readonly slots = new WeakMap<C, number>();
  /** slots not read while their client cannot take more (a packet being handled, or paused) */
  private readonly unwatched = new Set<number>();
  private count = 0;

  constructor(create: CreateReader) {
    this.reader = create((data, records, count) => this.read(data, records, count));
    this.reader.reading(true);
  }

  /** how many connections the reader reads */
  get size(): number {
    return this.count;
  }

  /** whether the whole reader reads (the thread-wide gate) */
  reading(on: boolean): void {
    this.reader.reading(on);
  }

  /**
   * After aedes' read loop ran for `client` (a packet handled, a read done): takes the connection over if it is quiet
   * (true when it did now), or reads it again if it was only waiting for its packets to be handled.
   */
  settled(client: C): boolean {
    const c = client as unknown as ReadClient;
    const slot = this.slots.get(client);
    if (slot !== undefined) {
      if (this.unwatched.has(slot) && this.free(c)) {
        this.unwatched.delete(slot);
        if (!this.reader.watch(slot, true)) {
          this.forget(client);
          c.conn.destroy(new Error('the native reader could not watch the connection again'));
        }
      }
      return false;
    }
    const conn = c.conn;
    const handle = conn._handle;
    if (
      !c.connackSent ||
      !this.free(c) ||
      typeof handle?.fd !== 'number' ||
      handle.fd < 0 ||
      !handle.readStop ||
      conn.readableLength !== 0
    )
      return false;
    let taken: number;
    try {
      taken = this.reader.attach(handle.fd);
    } catch {
      return false;
    }
    handle.reading = false;
    handle.readStop();
    conn._read = noRead;
    this.bySlot[taken] = client;
    this.slots.set(client, taken);
    this.count++;
    conn.once('close', () => this.forget(client));
    return true;
  }

  /** whether the reader reads this connection now (taken over, not forgotten) */
  reads(client: C): boolean {
    return this.slots.has(client);
  }

  /**
   * The connection's acknowledgements (or any bytes): straight to its socket when nothing else waits to be written.
   * `data` may be a view of a buffer its caller reuses: what goes through Node's stream (which keeps it) is a copy.
   */
  write(client: C, data: Buffer): void {
    const conn = (client as unknown as ReadClient).conn;
    const slot = this.slots.get(client);
    if (slot === undefined || conn.writableLength !== 0 || !conn._handle || conn.destroyed) {
      conn.write(Buffer.from(data));
      return;
    }
    const written = this.reader.write(slot, data);
    if (written < data.length) conn.write(Buffer.from(written === 0 ? data : data.subarray(written)));
  }

  /** the thread ends: the reader lets go of its sockets (Node's, closed by aedes) */
  close(): void {
    this.reader.close();
  }

  /** whether the client takes more now (and its socket is still open: a destroyed socket's number may be reused) */
  private free(c: ReadClient): boolean {
    return !c.closed && !c._paused && c._parsingBatch === 0 && !!c.conn._handle && !c.conn.destroyed;
  }

  private read(data: Buffer, records: Int32Array, count: number) {
    for (let k = 0; k < count; k++) {
      const slot = records[k * 3]!;
      const client = this.bySlot[slot];
      if (client === undefined) continue;
      const c = client as unknown as ReadClient;
      const at = records[k * 3 + 1]!;
      const length = records[k * 3 + 2]!;
      if (length < 0) {
        // the reader stopped watching it: the end of the stream (the peer closed) or a read error
        this.forget(client);
        c.conn.destroy(length === -1 ? undefined : new Error(`read ${getSystemErrorName(-at)}`));
        continue;
      }
      if (c.closed || !c.conn._handle) continue;
      c._parser.parse(data.subarray(at, at + length));
      // a packet closed the connection (DISCONNECT, a protocol error): closing took it out of the epoll set
      if (!c.conn._handle || c.conn.destroyed) this.forget(client);
      else if (!this.free(c) && this.slots.get(client) === slot && !this.unwatched.has(slot)) {
        this.unwatched.add(slot);
        this.reader.watch(slot, false);
      }
    }
  }

  /** a connection that closed, or that the reader stopped watching (its end or an error): its slot goes (closing a
   * socket takes it out of the epoll set, and its number may belong to another socket by now) */
  private forget(client: C) {
    const slot = this.slots.get(client);
    if (slot === undefined) return;
    this.slots.delete(client);
    this.bySlot[slot] = undefined;
    this.unwatched.delete(slot);
    this.count--;
    this.reader.detach(slot);
  }
}
