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
import type { BatchExecutor } from './writer-thread.js';
import type { Generation, RecentPoints } from '../read/recent.js';
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

/** Default round period: at 4 points/s per series a page takes ~20 points per write (docs/decisions.md). */
export const COMPACT_EVERY_MS = 5000;
export const MAX_RECENT_POINTS = 400_000;
/**
 * A round is compacted over this share of the period, at an even pace: a chunk per batch as large as the schedule
 * asks (a few ms of sorted inserts), so compaction never takes the writer (nor a core) in one burst and new points
 * are never stuck behind a long chunk.
 */
const COMPACT_SPREAD = 0.6;
/** the least points worth a chunk (whole series are taken, so a chunk is usually a little larger) */
export const COMPACT_CHUNK_POINTS = 500;
/**
 * The most points a chunk takes while points are being written (behind schedule or catching up): at 2–5 µs a point
 * a chunk holds the writer 5–12 ms, so a new point never waits behind more than that. Drains take what is left.
 */
export const COMPACT_MAX_CHUNK_POINTS = 2500;
/**
 * With more points than this waiting for the writer (~23 ms of traffic at the target rate: it fell behind them), a
 * batch takes no compaction chunk, so new points never queue behind the round's background work while the machine is
 * short of time; the schedule catches up with the next batches (chunks of at most COMPACT_MAX_CHUNK_POINTS). Past
 * COMPACT_YIELD_UNTIL of the period the round no longer yields, so it still ends before the next one is due.
 */
export const COMPACT_YIELD_POINTS = 1500;
const COMPACT_YIELD_UNTIL = 0.9;
/** with nothing else to write, compaction goes on this often */
const COMPACT_TICK_MS = 20;

interface InFlight {
  messages: TelemetryMessage[];
  /** the batch's points in batch order (index = point index of the batch) */
  points: TelemetryPoint[];
  weight: number;
  rollups: RollupSnapshot | null;
  /** the compaction chunk's series (frozen order positions [from, to)), its points and whether it ends the round */
  chunk: { from: number; to: number; last: boolean; points: number } | null;
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
    compacted_points: 0,
    compaction_rounds: 0,
  };
  const recent = o.recent;
  const compactEveryMs = o.compactEveryMs ?? COMPACT_EVERY_MS;
  const maxRecent = o.maxRecentPoints ?? MAX_RECENT_POINTS;
  const chunkPoints = o.compactChunkPoints ?? COMPACT_CHUNK_POINTS;
  const maxChunkPoints = o.compactMaxChunkPoints ?? COMPACT_MAX_CHUNK_POINTS;
  let lastFreeze = o.now();
  /** the frozen round's series in id order, and how many of them are compacted (or in flight) */
  let frozenOrder: Float64Array = new Float64Array(0);
  let frozenNext = 0;
  /** points of the frozen round, and how many of them are compacted or in flight */
  let frozenTotal = 0;
  let frozenSent = 0;
  /** drain: compact whatever is held now */
  let compactAll = false;

  const queued = () => queue.messages;
  // a rollup round merges every series pending when it starts, in chunks of ROLLUP_CHUNK_ROWS, one chunk per batch
  let roundLeft = 0;
  const rollupDue = () =>
    o.rollups.hasPending && (closed || roundLeft > 0 || o.now() - lastRollupFlush >= o.rollupFlushMs);
  /** work for the next batch right now: messages queued, the rest of a rollup round, compaction behind its schedule */
  const pressing = () =>
    queued() > 0 || (roundLeft > 0 && o.rollups.hasPending) || worthAChunk(compactionDue()) || freezeDue();
  /** points of the frozen round the schedule wants compacted now (all of them when draining or far behind) */
  function compactionDue(): number {
    if (!recent?.frozen) return 0;
    const left = frozenTotal - frozenSent;
    if (compactAll || closed) return left;
    // far behind (memory past its bound): catch up, a bounded chunk with every batch
    if (recent.size > maxRecent) return Math.min(left, maxChunkPoints);
    // points wait for the writer (it fell behind them): they go first while the round has time to spare
    if (queue.points > COMPACT_YIELD_POINTS && o.now() - lastFreeze < COMPACT_YIELD_UNTIL * compactEveryMs) return 0;
    const share = Math.min(1, (o.now() - lastFreeze) / (COMPACT_SPREAD * compactEveryMs));
    return Math.min(left, maxChunkPoints, Math.max(0, Math.ceil(frozenTotal * share) - frozenSent));
  }
  /** `due` points make a chunk: enough of them, or the rest of the round */
  const worthAChunk = (due: number) => due >= chunkPoints || (due > 0 && due === frozenTotal - frozenSent);
  const freezeDue = () =>
    recent !== null &&
    recent.frozen === null &&
    recent.active.points > 0 &&
    (compactAll || closed || recent.active.points >= maxRecent || o.now() - lastFreeze >= compactEveryMs);

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
    if (!pressing() && recent && recent.active.points > 0) {
      const untilRound = Math.max(0, compactEveryMs - (o.now() - lastFreeze));
      delay = delay < 0 ? untilRound : Math.min(delay, untilRound);
    }
    if (!pressing() && recent?.frozen) delay = delay < 0 ? COMPACT_TICK_MS : Math.min(delay, COMPACT_TICK_MS);
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

  /** The next chunk of the frozen round: whole series in id order, `want` points or a little more. */
  function nextChunk(
    frozen: Generation,
    want: number,
  ): { columns: PointColumns; from: number; to: number; last: boolean; points: number } {
    const from = frozenNext;
    let to = from;
    let n = 0;
    while (to < frozenOrder.length && n < want) n += frozen.count(frozenOrder[to++]!);
    frozenNext = to;
    frozenSent += n;
    return {
      columns: frozen.columns(frozenOrder.subarray(from, to)),
      from,
      to,
      last: to >= frozenOrder.length,
      points: n,
    };
  }

  /** Hands up to maxBatchPoints (QoS 1 first: it was acknowledged), any due rollup deltas and compaction chunk. */
  function dispatch(): boolean {
    if (inFlight) return false;
    if (freezeDue()) {
      const frozen = recent!.freeze();
      lastFreeze = o.now();
      frozenOrder = frozen.seriesIds().sort();
      frozenNext = 0;
      frozenTotal = frozen.points;
      frozenSent = 0;
      stats.compaction_rounds++;
    }
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
        const c = nextChunk(compacting, compactNow);
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
    if (f.chunk) ((frozenNext = f.chunk.from), (frozenSent -= f.chunk.points)); // the chunk goes again with a later batch
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
    if (f.chunk) {
      const frozen = recent!.frozen!;
      for (let k = f.chunk.from; k < f.chunk.to; k++) {
        const id = frozenOrder[k]!;
        stats.compacted_points += frozen.count(id);
        frozen.release(id);
      }
      if (f.chunk.last) recent!.compacted();
    }
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
