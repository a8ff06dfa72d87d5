// The bound a broker thread keeps on its own: what it handed to the event loop and the event loop has not taken yet.
//
// The thread reads sockets and hands each turn's publishes over as one packed run; the event loop takes the runs in
// order and tells the thread, once per turn, how many it took. Without a bound, a thread on a machine where the event
// loop is saturated keeps reading and its runs queue in the port: Node then hands the event loop up to 1,000 queued
// runs in one go (node_messaging.cc), seconds of ingest during which HTTP and socket.io wait, and everything in them
// reaches the writer's queue at once, past its hard bound (where QoS 1 was refused unacknowledged). With this bound the
// thread stops reading all its connections once `maxMessages` or `maxBytes` wait untaken and resumes below half:
// the backlog between the threads stays a few milliseconds of the event loop's work, and overload slows the devices
// down (TCP backpressure) instead of growing a queue.
import { Fifo } from '../fifo.js';

/** Messages a thread may have handed over and not seen taken before it stops reading (resumed below half): four
 * runs, so the event loop always has the next one while the thread reads on, and little enough that an HTTP request
 * waits behind at most ~30 ms of ingest (docs/decisions/ingest.md: 4,096 doubled the LATEST card's p99 under overload
 * for no more goodput). */
export const MAX_UNTAKEN_MESSAGES = 2_048;
/** The most messages a thread packs into one run before handing it over (else: one run per turn of the thread). */
export const HANDOVER_RUN = 512;
/** The same in payload bytes (large messages): 8 MiB. */
export const MAX_UNTAKEN_BYTES = 8 * 1024 * 1024;

export class HandoverBound {
  /** each run handed over and not yet taken, oldest first: its messages and bytes */
  private runs = new Fifo<{ messages: number; bytes: number }>();
  messages = 0;
  bytes = 0;
  private behind = false;

  /** `onBehind(true)` once past the bound, `onBehind(false)` once back below half of it */
  constructor(
    private readonly onBehind: (behind: boolean) => void,
    private readonly maxMessages = MAX_UNTAKEN_MESSAGES,
    private readonly maxBytes = MAX_UNTAKEN_BYTES,
  ) {}

  /** whether the thread is past the bound (reading stopped) */
  get isBehind(): boolean {
    return this.behind;
  }

  /** whether `messages` more (`bytes` long), not yet handed over, would reach the bound: then hand them over now */
  reaches(messages: number, bytes: number): boolean {
    return !this.behind && (this.messages + messages >= this.maxMessages || this.bytes + bytes >= this.maxBytes);
  }

  /** a run of `messages` publishes (`bytes` long) was handed over */
  handed(messages: number, bytes: number): void {
    this.runs.push({ messages, bytes });
    this.messages += messages;
    this.bytes += bytes;
    if (!this.behind && (this.messages >= this.maxMessages || this.bytes >= this.maxBytes)) {
      this.behind = true;
      this.onBehind(true);
    }
  }

  /** the event loop took the `runs` oldest runs (in the order they were handed over) */
  taken(runs: number): void {
    for (let k = 0; k < runs; k++) {
      const run = this.runs.shift();
      if (run === undefined) break;
      this.messages -= run.messages;
      this.bytes -= run.bytes;
    }
    if (this.behind && this.messages < this.maxMessages / 2 && this.bytes < this.maxBytes / 2) {
      this.behind = false;
      this.onBehind(false);
    }
  }
}
