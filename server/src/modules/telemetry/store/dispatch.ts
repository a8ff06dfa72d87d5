// Dispatch: when the next batch goes to the store and what it carries. One batch is in flight at a time; the next goes
// after `flushIntervalMs`, or at once when `maxBatchPoints` wait or the previous batch came back with more work. A
// batch takes up to maxBatchPoints queued (QoS 1 first), a chunk of any due rollup round and, with a journal, the
// journal half to append to and a due compaction chunk. What the store answers is handed to `settle` (settle.ts).
import type { TelemetryMessage, TelemetryPoint } from '../message.js';
import type { RecentPoints } from '../read/recent.js';
import { toBatch } from './batch.js';
import type { CompactionChunk, CompactionSchedule } from './compaction.js';
import type { RollupKeeper, RollupSnapshot } from './rollups.js';
import type { WriteResult } from './write-batch.js';
import type { WriteQueue } from './write-queue.js';
import type { BatchExecutor } from './writer-thread.js';

/** rollup rows merged per transaction: 3–10 ms of upserts, so a round over 15,000 series never holds the lock long */
export const ROLLUP_CHUNK_ROWS = 1000;

/** A batch handed to the store, until its answer is settled. */
export interface InFlight {
  messages: TelemetryMessage[];
  /** the batch's points in batch order (index = point index of the batch) */
  points: TelemetryPoint[];
  weight: number;
  rollups: RollupSnapshot | null;
  /** the compaction chunk it carries */
  chunk: CompactionChunk | null;
  sentAt: number;
}

export interface DispatchOptions {
  executor: BatchExecutor;
  queue: WriteQueue;
  rollups: RollupKeeper;
  /** with a journal: its memory side and the compaction schedule over it */
  recent: RecentPoints | null;
  compaction: CompactionSchedule | null;
  now: () => number;
  flushIntervalMs: number;
  maxBatchPoints: number;
  rollupFlushMs: number;
  /** storage faulting: no batch goes before this (performance.now() time); 0 when the storage takes writes */
  retryAt: () => number;
  /** the store answered a batch (committed, or failed with `err`) */
  settle: (f: InFlight, err: Error | null, r?: WriteResult) => void;
}

export class BatchDispatch {
  /** the batch the store is writing */
  inFlight: InFlight | null = null;
  /** closing: no timer is set any more (whatever is left goes through `drain`) */
  closed = false;
  /** draining: compact whatever is held now */
  compactAll = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private timerDue = 0;
  private nextBatchId = 1;
  private lastRollupFlush: number;
  /** a rollup round merges every series pending when it starts, in chunks of ROLLUP_CHUNK_ROWS, one chunk per batch */
  private roundLeft = 0;
  /** who waits for the batch in flight to settle */
  private waiting: Array<() => void> = [];

  constructor(private readonly o: DispatchOptions) {
    this.lastRollupFlush = o.now();
  }

  /** the compaction schedule hurries (every point held is due) while draining or closing */
  get hurrying(): boolean {
    return this.compactAll || this.closed;
  }

  /** Sets the timer (or the immediate) for the next batch, unless one is in flight or nothing waits. */
  schedule(): void {
    const { o } = this;
    if (this.inFlight || this.immediate) return; // the batch's result schedules the next one
    if (o.queue.points >= o.maxBatchPoints && o.queue.messages > 0 && o.retryAt() === 0) {
      this.goNow();
      return;
    }
    if (this.closed) return;
    // points wait at most flushIntervalMs; with none queued, the last rollup deltas still reach the disk in rollupFlushMs
    // and the points held are compacted when their round is due
    const pressing = this.pressing();
    let delay = pressing ? o.flushIntervalMs : o.rollups.hasPending ? o.rollupFlushMs : -1;
    // storage faulting: nothing before the next retry
    const retryAt = o.retryAt();
    if (delay >= 0 && retryAt > 0) delay = Math.max(delay, retryAt - performance.now());
    if (o.compaction && !pressing) delay = o.compaction.idleDelay(delay);
    if (delay < 0) return;
    const due = performance.now() + delay;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(this.run, delay);
  }

  /**
   * Hands up to maxBatchPoints (QoS 1 first: it was acknowledged), any due rollup deltas and compaction chunk; false
   * when a batch is in flight or nothing is due.
   */
  dispatch(): boolean {
    const { o } = this;
    if (this.inFlight) return false;
    const { recent, compaction } = o;
    compaction?.freezeIfDue();
    const compacting = recent?.frozen ?? null;
    if (o.queue.messages === 0 && !this.rollupDue() && !this.worthAChunk(this.compactionDue())) {
      this.schedule();
      return false;
    }
    const { messages, weight } = o.queue.take(o.maxBatchPoints);
    const snapshot = this.rollupChunk();
    const { batch, points } = toBatch(this.nextBatchId++, messages, snapshot);
    let chunk: CompactionChunk | null = null;
    if (recent) {
      batch.journal = { part: (recent.active.round % 2) as 0 | 1, round: recent.active.round };
      // sized now the batch took its points: it keeps pace with what they append, and yields only to points still waiting
      const chunkPoints = this.compactionDue(points.length);
      // a batch merging rollup rows takes no chunk (unless draining): the two together held the writer 30–55 ms
      if (compacting && chunkPoints > 0 && (snapshot === null || this.hurrying)) {
        const c = compaction!.nextChunk(chunkPoints);
        chunk = { from: c.from, to: c.to, last: c.last, points: c.points };
        batch.compact = c.columns;
        if (c.last) batch.clearJournal = (compacting.round % 2) as 0 | 1;
      }
    }
    const flight: InFlight = {
      messages,
      points,
      weight,
      rollups: snapshot,
      chunk,
      sentAt: performance.timeOrigin + performance.now(),
    };
    this.inFlight = flight;
    o.executor.submit(batch, (err, result) => this.answered(flight, err, result));
    return true;
  }

  /** resolves when the batch in flight (if any) has settled */
  settled(): Promise<void> {
    return new Promise<void>((resolve) => (this.inFlight ? this.waiting.push(resolve) : resolve()));
  }

  /** the next batch merges the pending rollup deltas, however recent the last round (a drain before close) */
  rollupsDueNow(): void {
    this.lastRollupFlush = -Infinity;
  }

  /** stops the timers; later batches go only through `dispatch` (the drain) */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.closed = true;
  }

  private answered(f: InFlight, err: Error | null, r?: WriteResult): void {
    this.inFlight = null;
    try {
      this.o.settle(f, err, r);
    } finally {
      const waiting = this.waiting;
      this.waiting = [];
      for (const fn of waiting) fn();
      // more arrived while this batch was written: the next one goes at once (batches grow with the load)
      if (this.pressing() && !this.immediate && this.o.retryAt() === 0) this.goNow();
      else this.schedule();
    }
  }

  private readonly run = () => {
    this.timer = undefined;
    this.immediate = undefined;
    this.dispatch();
  };

  private goNow(): void {
    if (this.timer) (clearTimeout(this.timer), (this.timer = undefined));
    this.immediate = setImmediate(this.run);
  }

  /** The rollup deltas this batch merges, when a round is due or running: the next ROLLUP_CHUNK_ROWS of it. */
  private rollupChunk(): RollupSnapshot | null {
    const { rollups, now } = this.o;
    if (!this.rollupDue()) return null;
    if (this.roundLeft <= 0) ((this.roundLeft = rollups.pendingSeries), (this.lastRollupFlush = now()));
    const before = rollups.pendingSeries;
    const snapshot = rollups.snapshot(ROLLUP_CHUNK_ROWS);
    this.roundLeft -= before - rollups.pendingSeries;
    return snapshot;
  }

  private rollupDue(): boolean {
    const { rollups, now, rollupFlushMs } = this.o;
    return rollups.hasPending && (this.closed || this.roundLeft > 0 || now() - this.lastRollupFlush >= rollupFlushMs);
  }

  /** work for the next batch right now: messages queued, the rest of a rollup round, compaction behind its schedule */
  private pressing(): boolean {
    return (
      this.o.queue.messages > 0 ||
      (this.roundLeft > 0 && this.o.rollups.hasPending) ||
      this.worthAChunk(this.compactionDue()) ||
      (this.o.compaction?.freezeDue() ?? false)
    );
  }

  private compactionDue(batchPoints = 0): number {
    return this.o.compaction?.due(batchPoints) ?? 0;
  }

  private worthAChunk(due: number): boolean {
    return this.o.compaction?.worthAChunk(due) ?? false;
  }
}
