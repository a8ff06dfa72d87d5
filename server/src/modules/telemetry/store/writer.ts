// The storage writer: device messages queue in memory and are handed to the batch executor (writer thread, or inline
// for an in-memory database) one batch at a time: after `flushIntervalMs`, or at once when `maxBatchPoints` wait or the
// previous batch came back with more queued. One transaction per batch; the queue is bounded (see `enqueue`). What a
// commit stored then updates the latest-value cache and the rollup deltas, and reaches the listeners.
//
// With a journal (one writer per database), a batch appends its points to the journal in arrival order, and memory
// (`recent`) serves them to every read until compaction moves them into the clustered (series, ts) table: a round
// freezes the points held every `compactEveryMs` and hands them over in chunks of whole series, one chunk per batch,
// so each series' page is written once per round instead of once per point. The last chunk's transaction empties
// the round's journal half. A (series, ts) already stored or held is a duplicate: dropped, the first one kept.
//
// This file assembles the parts: `write-queue.ts` (the bounded queue), `compaction.ts` (the rounds and chunks),
// `dispatch.ts` (when a batch goes and what it carries), `settle.ts` (the store's answer: the commit reaching caches and
// listeners, retries and the storage-fault pause), `drain.ts` (flush and close) and `writer-stats.ts` (its counters).
import type { Logger } from '../../../platform/log.js';
import type { CommittedTelemetry, TelemetryMessage } from '../message.js';
import type { RecentPoints } from '../read/recent.js';
import { CompactionSchedule } from './compaction.js';
import { BatchDispatch } from './dispatch.js';
import { drain } from './drain.js';
import type { RollupKeeper } from './rollups.js';
import type { SeriesRegistry } from './series.js';
import { BatchSettle } from './settle.js';
import { weightOf, WriteQueue } from './write-queue.js';
import type { BatchExecutor } from './writer-thread.js';
import { createWriterStats } from './writer-stats.js';

export type { CommittedTelemetry, TelemetryMessage, TelemetryPoint } from '../message.js';

export interface WriterOptions {
  executor: BatchExecutor;
  series: SeriesRegistry;
  rollups: RollupKeeper;
  log: Logger;
  now: () => number;
  flushIntervalMs: number;
  maxBatchPoints: number;
  /** soft bound: beyond it QoS 0 messages are shed, oldest first */
  maxQueuedPoints: number;
  /** hard bound (QoS 1 included): beyond it the newest message is refused */
  hardMaxQueuedPoints: number;
  rollupFlushMs: number;
  onCommit: (batch: CommittedTelemetry[]) => void;
  /**
   * A message is settled: `stored` once its batch committed, false when it was given up (a batch that failed for
   * another reason than storage, MAX_WRITE_ATTEMPTS times). Its held acknowledgement goes then.
   */
  onSettled?: (m: TelemetryMessage, stored: boolean) => void;
  /** a commit names the points of a message the store already held (`CommittedTelemetry.resent`): storing locally */
  keepResent?: boolean;
  /** state reports of a device the store refused (new keys past MAX_STATE_KEYS_PER_DEVICE), after their commit */
  onStatesRefused?: (deviceId: number, count: number) => void;
  /** the journal's memory side; null: points go straight into the clustered table (several writers share it) */
  recent: RecentPoints | null;
  /** with a journal: whether the clustered table holds (series, ts) (the duplicate check of a point not newest) */
  storedAt?: (seriesId: number, ts: number) => boolean;
  /** with a journal: a compaction round starts this often (default 5 s), or sooner once `maxRecentPoints` are held */
  compactEveryMs?: number;
  maxRecentPoints?: number;
  /** the least points a compaction chunk is sent for, unless they end the round (whole series; one chunk per batch) */
  compactChunkPoints?: number;
  /** the most points a chunk takes while points are written (default COMPACT_MAX_CHUNK_POINTS; drains take the rest) */
  compactMaxChunkPoints?: number;
}

export function createTelemetryWriter(o: WriterOptions) {
  const { recent } = o;
  const queue = new WriteQueue(o);
  const compaction = recent
    ? new CompactionSchedule(recent, {
        now: o.now,
        everyMs: o.compactEveryMs,
        maxRecentPoints: o.maxRecentPoints,
        chunkPoints: o.compactChunkPoints,
        maxChunkPoints: o.compactMaxChunkPoints,
        queuedPoints: () => queue.points,
        hurry: () => batches.hurrying, // draining or closing: every point held is due
      })
    : null;
  const stats = createWriterStats(queue, compaction, { threaded: o.executor.threaded, journal: recent !== null });
  const settling = new BatchSettle({ ...o, queue, compaction, stats });
  const batches: BatchDispatch = new BatchDispatch({
    ...o,
    queue,
    compaction,
    retryAt: () => settling.retryAt,
    settle: (f, err, r) => settling.settle(f, err, r),
  });
  const maxRecent = compaction?.maxRecent ?? 0;
  /** writes everything queued now; with `compact` compacts every point held, with `rollups` merges every delta */
  const drainNow = (rollups: boolean, compact: boolean) =>
    drain(
      {
        batches,
        queued: () => queue.messages,
        rollupsPending: () => o.rollups.hasPending,
        held: () => recent?.size ?? 0,
        stats,
        log: o.log,
      },
      { rollups, compact },
    );

  return {
    /**
     * Queues a message. Beyond `maxQueuedPoints` QoS 0 messages are shed oldest first (counted); QoS 1 messages, already
     * acknowledged by the broker, are still queued up to `hardMaxQueuedPoints`; beyond that the message is refused
     * (counted and logged) so memory stays bounded whatever the devices do.
     */
    enqueue(m: TelemetryMessage): 'queued' | 'refused' {
      if (batches.closed) return 'refused';
      if (weightOf(m) === 0) return 'queued';
      const outcome = queue.offer(m);
      if (outcome === 'queued') batches.schedule();
      return outcome;
    },
    /**
     * Resolves once everything queued so far is committed (or has failed its attempts) and, unless `compact` is false,
     * compacted into the clustered table.
     */
    flush: (opts: { compact?: boolean } = {}) => drainNow(false, opts.compact ?? true),
    /** stops the timers, commits everything queued and every rollup delta; later messages are refused */
    async close(): Promise<void> {
      batches.stop();
      await drainNow(true, true);
      await o.executor.close();
    },
    get queuedPoints() {
      return queue.points;
    },
    get pressured() {
      return queue.pressured;
    },
    /** points queued, plus those held beyond twice `maxRecentPoints` (compaction far behind): what backpressure weighs */
    get backlog() {
      return queue.points + Math.max(0, (recent?.size ?? 0) - 2 * maxRecent);
    },
    stats,
  };
}

export type TelemetryWriter = ReturnType<typeof createTelemetryWriter>;
