// When a broker thread reads its connections. aedes reads a connection in its client's read loop: on the socket's
// `readable` event, and after each packet is handled, `_nextBatch` reads everything buffered and parses it. Two things
// stop that loop:
//   - the thread-wide gate (this class): the event loop's global pause, or the thread's handover bound
//     (handover-bound.ts). It stands in front of every connection's read loop, so a closed gate costs nothing per
//     connection: a connection that wants to read while it is closed joins a waiting line, and when the gate opens the
//     line is read in the order it formed, until the gate closes again. Under sustained overload every connection thus
//     gets its turn (the line is fair), and the cost of a pause and a resume is the connections that actually waited,
//     not every connection of the thread.
//   - a connection's own pause (`pauseReading`: too many of its acknowledgements held, held-acks.ts), aedes' `_paused`
//     flag, which aedes also sets while a client signs in.

/** the parts of an aedes client's read loop the gate and the pauses use (aedes 0.51 `lib/client.js`) */
interface ReadLoop {
  conn: { on(event: 'readable', f: () => void): unknown; removeListener(event: 'readable', f: () => void): unknown };
  closed?: boolean;
  _paused: boolean;
  _parsingBatch: number;
  _nextBatch?: (err?: Error) => void;
}

export class ReadGate<C extends object> {
  /** connections that wanted to read while the gate was closed, in the order they came (a Set keeps it) */
  private waiting = new Set<C>();

  /**
   * `open()`: whether the thread reads at all now; `settled(client)` after each turn of a client's read loop;
   * `readElsewhere(client)`: its socket is not read through its read loop (the native reader, which the closed gate
   * stops as a whole), so a packet it handled while the gate is closed ends its batch as usual: nothing would be read
   * by going on, and a batch left open would take its socket out of the reader's set and put it back for nothing.
   */
  constructor(
    private readonly open: () => boolean,
    private readonly settled?: (client: C) => void,
    private readonly readElsewhere?: (client: C) => boolean,
  ) {}

  /** how many connections wait to read */
  get size(): number {
    return this.waiting.size;
  }

  /** puts the gate in front of `client`'s read loop: once, right after aedes made the client */
  guard(client: C): void {
    const c = client as unknown as ReadLoop;
    const next = c._nextBatch;
    if (!next) return;
    const gated = (err?: Error) => {
      if (!err && this.readElsewhere?.(client)) {
        // its packet's batch ends as aedes ends it, without asking Node's stream for more (it holds nothing: the
        // native reader reads the socket, and the closed gate stops that reader as a whole)
        if (c._paused) return;
        if (--c._parsingBatch <= 0) c._parsingBatch = 0;
        this.settled?.(client);
        return;
      }
      if (!err && !this.open()) {
        this.waiting.add(client);
        return;
      }
      next(err);
      this.settled?.(client);
    };
    c.conn.removeListener('readable', next);
    c.conn.on('readable', gated);
    c._nextBatch = gated;
  }

  /** the gate opened: the connections that waited read, in order, while it stays open (the rest keep their place) */
  readWaiting(): void {
    for (const client of this.waiting) {
      if (!this.open()) return;
      this.waiting.delete(client);
      if (!(client as unknown as ReadLoop).closed) readAfresh(client);
    }
  }

  /** a connection that went */
  forget(client: C): void {
    this.waiting.delete(client);
  }
}

// While stopped, aedes' per-packet callback returns before counting the packet as handled, so a read loop stopped in
// the middle of a batch would wait forever for its batch to end: reading again starts the next batch afresh.
function readAfresh(client: object) {
  const c = client as unknown as ReadLoop;
  c._parsingBatch = 0;
  c._nextBatch?.();
}

/** stops reading one connection (until `resumeReading`) */
export function pauseReading(client: object): void {
  (client as unknown as ReadLoop)._paused = true;
}

/** reads one paused connection again (through the gate: it waits in line while the gate is closed) */
export function resumeReading(client: object): void {
  const c = client as unknown as ReadLoop;
  if (!c._paused) return;
  c._paused = false;
  readAfresh(client);
}
