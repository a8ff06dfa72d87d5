// The storage writer: device messages queue in memory and are handed to the batch executor (writer thread, or inline
// for an in-memory database) one batch at a time: after `flushIntervalMs`, or at once when `maxBatchPoints` wait or the
// previous batch came back with more queued. One transaction per batch; the queue is bounded (see `enqueue`). What a
// commit stored then updates the latest-value cache and the rollup deltas here, and reaches the listeners.
//
// With a journal (one writer per database), a batch appends its points to the journal in arrival order, and memory
// (`recent`) serves them to every read until compaction moves them into the clustered (series, ts) table: a round
// freezes the points held every `compactEveryMs` and hands them over in chunks of whole series, one chunk per batch,
// so each series' page is written once per round instead of once per point. The last chunk's transaction empties
// the round's journal half. A (series, ts) already stored or held is a duplicate: dropped here, the first one kept.
import { isStorageFault } from '../../../platform/db/storage-fault.js';
import type { Logger } from '../../../platform/log.js';
import type { StateChange } from '../../states/states.store.js';
import { rollsUp } from '../datatypes.js';
import type { RollupKeeper, RollupSnapshot } from './rollups.js';
import { noteLatest, type SeriesRegistry } from './series.js';
import type { PointColumns, WriteResult } from './write-batch.js';
import { toBatch } from './batch.js';
import { weightOf, WriteQueue } from './write-queue.js';
import { CompactionSchedule, type CompactionChunk } from './compaction.js';
import type { BatchExecutor } from './writer-thread.js';
import type { RecentPoints } from '../read/recent.js';
import type { CommittedTelemetry, TelemetryMessage, TelemetryPoint } from '../message.js';

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

const MAX_WRITE_ATTEMPTS = 3;
/** a storage fault is retried after this, doubling up to STORAGE_RETRY_MAX_MS, until the storage takes writes again */
export const STORAGE_RETRY_MIN_MS = 100;
export const STORAGE_RETRY_MAX_MS = 5000;

/** rollup rows merged per transaction: 3–10 ms of upserts, so a round over 15,000 series never holds the lock long */
export const ROLLUP_CHUNK_ROWS = 1000;

interface InFlight {
  messages: TelemetryMessage[];
  /** the batch's points in batch order (index = point index of the batch) */
  points: TelemetryPoint[];
  weight: number;
  rollups: RollupSnapshot | null;
  /** the compaction chunk it carries */
  chunk: CompactionChunk | null;
  sentAt: number;
}

export function createTelemetryWriter(o: WriterOptions) {
  const queue = new WriteQueue(o);
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let inFlight: InFlight | null = null;
  let nextBatchId = 1;
  let lastRollupFlush = o.now();
  let failedAttempts = 0;
  /** storage faulting: since when, the next retry's delay, and when it may go */
  let faultSince = 0;
  let retryDelay = 0;
  let retryAt = 0;
  let closed = false;
  let settled: Array<() => void> = [];
  const stats = {
    batches: 0,
    stored_points: 0,
    duplicate_points: 0,
    stored_states: 0,
    get shed_qos0_points() {
      return queue.shedQos0Points;
    },
    get refused_points() {
      return queue.refusedPoints;
    },
    failed_points: 0,
    failed_batches: 0,
    /** batches that failed on storage (disk full, read-only, I/O) and were retried; storage_faulting while it lasts */
    storage_faults: 0,
    storage_faulting: false,
    rollup_rows: 0,
    last_batch_points: 0,
    last_batch_ms: 0,
    max_batch_ms: 0,
    /** from handing a batch over to hearing its result (the transaction plus the thread hop) */
    max_roundtrip_ms: 0,
    /** the longest wait of a batch for the writer to take it, and of an answer for the event loop to hear it */
    max_hand_over_ms: 0,
    max_answer_ms: 0,
    total_roundtrip_ms: 0,
    total_batch_ms: 0,
    get max_queued_points() {
      return queue.maxPoints;
    },
    writer_thread: o.executor.threaded,
    journal: o.recent !== null,
    /** points journaled and served from memory, not yet compacted */
    recent_points: 0,
    max_recent_points: 0,
    get compacted_points() {
      return compaction?.compactedPoints ?? 0;
    },
    get compaction_rounds() {
      return compaction?.rounds ?? 0;
    },
  };
  const recent = o.recent;
  /** drain: compact whatever is held now */
  let compactAll = false;
  const compaction = recent
    ? new CompactionSchedule(recent, {
        now: o.now,
        everyMs: o.compactEveryMs,
        maxRecentPoints: o.maxRecentPoints,
        chunkPoints: o.compactChunkPoints,
        maxChunkPoints: o.compactMaxChunkPoints,
        queuedPoints: () => queue.points,
        hurry: () => compactAll || closed,
      })
    : null;
  const maxRecent = compaction?.maxRecent ?? 0;
  const compactionDue = () => compaction?.due() ?? 0;
  const worthAChunk = (due: number) => compaction?.worthAChunk(due) ?? false;
  const freezeDue = () => compaction?.freezeDue() ?? false;
  const queued = () => queue.messages;
  // a rollup round merges every series pending when it starts, in chunks of ROLLUP_CHUNK_ROWS, one chunk per batch
  let roundLeft = 0;
  const rollupDue = () =>
    o.rollups.hasPending && (closed || roundLeft > 0 || o.now() - lastRollupFlush >= o.rollupFlushMs);
  /** work for the next batch right now: messages queued, the rest of a rollup round, compaction behind its schedule */
  const pressing = () =>
    queued() > 0 || (roundLeft > 0 && o.rollups.hasPending) || worthAChunk(compactionDue()) || freezeDue();
  let timerDue = 0;
  function schedule() {
    if (inFlight || immediate) return; // the batch's result schedules the next one
    if (queue.points >= o.maxBatchPoints && queued() > 0 && retryAt === 0) {
      if (timer) (clearTimeout(timer), (timer = undefined));
      immediate = setImmediate(runDispatch);
      return;
    }
    if (closed) return;
    // points wait at most flushIntervalMs; with none queued, the last rollup deltas still reach the disk in rollupFlushMs
    // and the points held are compacted when their round is due
    let delay = pressing() ? o.flushIntervalMs : o.rollups.hasPending ? o.rollupFlushMs : -1;
    // storage faulting: nothing before the next retry
    if (delay >= 0 && retryAt > 0) delay = Math.max(delay, retryAt - performance.now());
    if (compaction && !pressing()) delay = compaction.idleDelay(delay);
    if (delay < 0) return;
    const due = performance.now() + delay;
    if (timer && timerDue <= due) return;
    if (timer) clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(runDispatch, delay);
  }

  function runDispatch() {
    timer = undefined;
    immediate = undefined;
    dispatch();
  }

  /** Hands up to maxBatchPoints (QoS 1 first: it was acknowledged), any due rollup deltas and compaction chunk. */
  function dispatch(): boolean {
    if (inFlight) return false;
    compaction?.freezeIfDue();
    const compacting = recent?.frozen ?? null;
    const compactNow = compactionDue();
    if (queued() === 0 && !rollupDue() && !worthAChunk(compactNow)) {
      schedule();
      return false;
    }
    const { messages, weight: taken } = queue.take(o.maxBatchPoints);
    let snapshot: RollupSnapshot | null = null;
    if (rollupDue()) {
      if (roundLeft <= 0) ((roundLeft = o.rollups.pendingSeries), (lastRollupFlush = o.now()));
      const before = o.rollups.pendingSeries;
      snapshot = o.rollups.snapshot(ROLLUP_CHUNK_ROWS);
      roundLeft -= before - o.rollups.pendingSeries;
    }
    const { batch, points } = toBatch(nextBatchId++, messages, snapshot);
    let chunk: InFlight['chunk'] = null;
    if (recent) {
      batch.journal = { part: (recent.active.round % 2) as 0 | 1, round: recent.active.round };
      // a batch merging rollup rows takes no chunk (unless draining): the two together held the writer 30–55 ms
      if (compacting && compactNow > 0 && (snapshot === null || compactAll || closed)) {
        const c = compaction!.nextChunk(compactNow);
        chunk = { from: c.from, to: c.to, last: c.last, points: c.points };
        batch.compact = c.columns;
        if (c.last) batch.clearJournal = (compacting.round % 2) as 0 | 1;
      }
    }
    const flight: InFlight = {
      messages,
      points,
      weight: taken,
      rollups: snapshot,
      chunk,
      sentAt: performance.timeOrigin + performance.now(),
    };
    inFlight = flight;
    o.executor.submit(batch, (err, result) => settle(flight, err, result));
    return true;
  }

  function settle(f: InFlight, err: Error | null, r?: WriteResult) {
    inFlight = null;
    try {
      if (err || !r) failed(f, err ?? new Error('no result'));
      else committed(f, r);
    } finally {
      const waiting = settled;
      settled = [];
      for (const fn of waiting) fn();
      // more arrived while this batch was written: the next one goes at once (batches grow with the load)
      if (pressing() && !immediate && retryAt === 0) {
        if (timer) (clearTimeout(timer), (timer = undefined));
        immediate = setImmediate(runDispatch);
      } else schedule();
    }
  }

  function failed(f: InFlight, err: Error) {
    stats.failed_batches++;
    if (f.rollups) o.rollups.snapshotFailed();
    if (f.chunk) compaction!.chunkFailed(f.chunk); // the chunk goes again with a later batch
    failedAttempts++;
    if (isStorageFault(err)) {
      stats.storage_faults++;
      // said once, with what is held; then retried with a growing pause until the storage takes writes again
      if (faultSince === 0) {
        faultSince = performance.now();
        stats.storage_faulting = true;
        o.log.error(
          `telemetry storage failing, ingest stops acknowledging: ${queue.points} points held (${queued() + f.messages.length} messages), retrying until it recovers: ${err.message.split('\n')[0]}`,
        );
      }
      retryDelay = retryDelay === 0 ? STORAGE_RETRY_MIN_MS : Math.min(STORAGE_RETRY_MAX_MS, retryDelay * 2);
      retryAt = performance.now() + retryDelay;
      queue.requeue(f.messages);
      return;
    }
    o.log.error(`telemetry write failed (attempt ${failedAttempts})`, err);
    if (failedAttempts < MAX_WRITE_ATTEMPTS) {
      queue.requeue(f.messages);
      return;
    }
    failedAttempts = 0;
    queue.settled(f.weight);
    stats.failed_points += f.points.length;
    // given up: never acknowledged (the device sends it again)
    for (const m of f.messages) o.onSettled?.(m, false);
  }

  function committed(f: InFlight, r: WriteResult) {
    failedAttempts = 0;
    if (faultSince !== 0) {
      o.log.warn(
        `telemetry storage writable again after ${Math.round((performance.now() - faultSince) / 100) / 10} s: ingest acknowledges again (${queue.points} points held)`,
      );
      faultSince = 0;
      stats.storage_faulting = false;
    }
    retryDelay = 0;
    retryAt = 0;
    queue.settled(f.weight);
    if (f.rollups) {
      o.rollups.snapshotStored();
      stats.rollup_rows += r.rollupRows;
    }
    if (f.chunk) compaction!.chunkStored(f.chunk);
    const duplicates = new Set<TelemetryPoint>();
    for (let k = 0; k < r.duplicates.length; k++) duplicates.add(f.points[r.duplicates[k]!]!);
    for (const p of f.points) {
      if (duplicates.size && duplicates.has(p)) continue;
      const series = o.series.byId(p.seriesId);
      if (recent) {
        // journaled: a point not newer than its series' newest may already be held or stored — the first one stays
        const newest = !series?.latest || p.ts > series.latest.ts;
        if (!newest && (recent.has(p.seriesId, p.ts) || o.storedAt?.(p.seriesId, p.ts))) {
          duplicates.add(p);
          continue;
        }
        recent.add(p);
      }
      if (!series) continue;
      noteLatest(series, p);
      if (p.num !== null && rollsUp(series.datatype)) o.rollups.add(p.seriesId, p.ts, p.num);
    }
    if (recent) {
      stats.recent_points = recent.size;
      if (recent.size > stats.max_recent_points) stats.max_recent_points = recent.size;
    }
    stats.batches++;
    stats.stored_points += f.points.length - duplicates.size;
    stats.duplicate_points += duplicates.size;
    stats.last_batch_points = f.points.length;
    stats.last_batch_ms = Math.round(r.ms * 10) / 10;
    if (r.ms > stats.max_batch_ms) stats.max_batch_ms = stats.last_batch_ms;
    const settledAt = performance.timeOrigin + performance.now();
    const roundtrip = settledAt - f.sentAt;
    if (roundtrip > stats.max_roundtrip_ms) stats.max_roundtrip_ms = Math.round(roundtrip * 10) / 10;
    const handOver = r.startedAt - f.sentAt;
    const answer = settledAt - r.endedAt;
    if (handOver > stats.max_hand_over_ms) stats.max_hand_over_ms = Math.round(handOver * 10) / 10;
    if (answer > stats.max_answer_ms) stats.max_answer_ms = Math.round(answer * 10) / 10;
    stats.total_roundtrip_ms += roundtrip;
    stats.total_batch_ms += r.ms;
    const applied = new Map<number, StateChange[]>();
    for (const a of r.appliedStates) applied.set(a.msg, a.changes);
    for (const x of r.refusedStates) o.onStatesRefused?.(f.messages[x.msg]!.deviceId, x.count);
    const committedAt = o.now();
    const out: CommittedTelemetry[] = [];
    for (let k = 0; k < f.messages.length; k++) {
      const m = f.messages[k]!;
      const states = applied.get(k) ?? [];
      stats.stored_states += states.length;
      const pts = duplicates.size === 0 ? m.points : m.points.filter((p) => !duplicates.has(p));
      if (pts.length || states.length)
        out.push({ appId: m.appId, deviceId: m.deviceId, receivedAt: m.receivedAt, committedAt, points: pts, states });
    }
    if (o.onSettled) for (const m of f.messages) o.onSettled(m, true);
    if (out.length) o.onCommit(out);
  }

  /** resolves when the batch in flight (if any) has settled */
  const nextSettle = () => new Promise<void>((resolve) => (inFlight ? settled.push(resolve) : resolve()));

  /**
   * Writes everything queued now; with `compact`, compacts every point held into the clustered table; with `rollups`,
   * merges every rollup delta (bounded in rounds).
   */
  async function drain(rollups: boolean, compact: boolean): Promise<void> {
    let failedBefore = stats.failed_batches;
    let committedBefore = stats.batches;
    try {
      compactAll = compact;
      for (let rounds = 0; rounds < 100_000; rounds++) {
        if (inFlight) {
          await nextSettle();
          continue;
        }
        // the database keeps failing (no commit since): give up; what is held stays journaled and the next start
        // replays it, and the messages' own attempts are counted by `failed`
        if (stats.batches !== committedBefore)
          ((committedBefore = stats.batches), (failedBefore = stats.failed_batches));
        if (stats.failed_batches - failedBefore >= 2 * MAX_WRITE_ATTEMPTS) {
          o.log.error('telemetry writer: giving up draining after repeated failures');
          break;
        }
        if (queued() > 0 || (rollups && o.rollups.hasPending) || (compact && recent !== null && recent.size > 0)) {
          if (rollups) lastRollupFlush = -Infinity;
          if (!dispatch()) break;
          continue;
        }
        break;
      }
    } finally {
      compactAll = false;
    }
  }

  return {
    /**
     * Queues a message. Beyond `maxQueuedPoints` QoS 0 messages are shed oldest first (counted); QoS 1 messages, already
     * acknowledged by the broker, are still queued up to `hardMaxQueuedPoints`; beyond that the message is refused
     * (counted and logged) so memory stays bounded whatever the devices do.
     */
    enqueue(m: TelemetryMessage): 'queued' | 'refused' {
      if (closed) return 'refused';
      if (weightOf(m) === 0) return 'queued';
      const outcome = queue.offer(m);
      if (outcome === 'queued') schedule();
      return outcome;
    },
    /**
     * Resolves once everything queued so far is committed (or has failed its attempts) and, unless `compact` is false,
     * compacted into the clustered table.
     */
    flush: (opts: { compact?: boolean } = {}) => drain(false, opts.compact ?? true),
    /** stops the timers, commits everything queued and every rollup delta; later messages are refused */
    async close(): Promise<void> {
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = undefined;
      immediate = undefined;
      closed = true;
      await drain(true, true);
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
