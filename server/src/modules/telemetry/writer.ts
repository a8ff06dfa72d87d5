// The storage writer: device messages queue in memory and are handed to the batch executor (writer thread, or inline
// for an in-memory database) one batch at a time: after `flushIntervalMs`, or at once when `maxBatchPoints` wait or the
// previous batch came back with more queued. One transaction per batch; the queue is bounded (see `enqueue`). What a
// commit stored then updates the latest-value cache and the rollup deltas here, and reaches the listeners.
import type { Logger } from '../../platform/log.js';
import type { StateChange } from '../states/states.store.js';
import { rollsUp } from './datatypes.js';
import type { RollupKeeper, RollupSnapshot } from './rollups.js';
import type { SeriesRegistry } from './series.js';
import type { WriteBatch, WriteResult } from './write-batch.js';
import type { BatchExecutor } from './writer-thread.js';

export interface TelemetryPoint {
  seriesId: number;
  ts: number;
  num: number | null;
  text: string | null;
}

/** One device message, normalised: what travels on the bus subject `tele.<app>.<device>`. */
export interface TelemetryMessage {
  appId: number;
  deviceId: number;
  qos: 0 | 1 | 2;
  receivedAt: number;
  points: TelemetryPoint[];
  states: StateChange[];
}

/** What listeners (live fan-out, rules) receive once a message is committed: only what was stored. */
export interface CommittedTelemetry {
  appId: number;
  deviceId: number;
  receivedAt: number;
  committedAt: number;
  points: readonly TelemetryPoint[];
  states: readonly StateChange[];
}

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
}

/** A FIFO with O(1) shift (arrays' shift is O(n)). */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  get length() {
    return this.items.length - this.head;
  }
  push(v: T) {
    this.items.push(v);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const v = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return v;
  }
}

const MAX_WRITE_ATTEMPTS = 3;
/** rollup rows merged per transaction: ~10 ms of upserts, so a round over 15,000 series never holds the lock long */
export const ROLLUP_CHUNK_ROWS = 4000;

interface InFlight {
  messages: TelemetryMessage[];
  /** the batch's points in batch order (index = point index of the batch) */
  points: TelemetryPoint[];
  weight: number;
  rollups: RollupSnapshot | null;
  sentAt: number;
}

/** The messages' points and states as one batch of columns (typed arrays travel to the writer thread without copying). */
export function toBatch(id: number, messages: readonly TelemetryMessage[], rollups: RollupSnapshot | null): { batch: WriteBatch; points: TelemetryPoint[] } {
  let n = 0;
  for (const m of messages) n += m.points.length;
  const series = new Float64Array(n);
  const ts = new Float64Array(n);
  const num = new Float64Array(n);
  const hasNum = new Uint8Array(n);
  const textAt: number[] = [];
  const texts: string[] = [];
  const states: WriteBatch['states'] = [];
  const points: TelemetryPoint[] = new Array(n);
  let i = 0;
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k]!;
    for (const p of m.points) {
      points[i] = p;
      series[i] = p.seriesId;
      ts[i] = p.ts;
      if (p.num !== null) (num[i] = p.num), (hasNum[i] = 1);
      if (p.text !== null) textAt.push(i), texts.push(p.text);
      i++;
    }
    if (m.states.length) states.push({ msg: k, appId: m.appId, deviceId: m.deviceId, changes: m.states });
  }
  return { batch: { id, series, ts, num, hasNum, textAt: Int32Array.from(textAt), texts, states, rollups }, points };
}

export function createTelemetryWriter(o: WriterOptions) {
  const qos0 = new Fifo<TelemetryMessage>();
  const qos1 = new Fifo<TelemetryMessage>();
  /** points and states waiting, in flight included (what memory holds) */
  let queuedPoints = 0;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let inFlight: InFlight | null = null;
  let nextBatchId = 1;
  let lastRollupFlush = o.now();
  let failedAttempts = 0;
  let closed = false;
  let settled: Array<() => void> = [];
  const stats = {
    batches: 0,
    stored_points: 0,
    duplicate_points: 0,
    stored_states: 0,
    shed_qos0_points: 0,
    refused_points: 0,
    failed_points: 0,
    failed_batches: 0,
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
    max_queued_points: 0,
    writer_thread: o.executor.threaded,
  };

  const weight = (m: TelemetryMessage) => m.points.length + m.states.length;
  const queued = () => qos0.length + qos1.length;
  // a rollup round merges every series pending when it starts, in chunks of ROLLUP_CHUNK_ROWS, one chunk per batch
  let roundLeft = 0;
  const rollupDue = () => o.rollups.hasPending && (closed || roundLeft > 0 || o.now() - lastRollupFlush >= o.rollupFlushMs);
  /** work for the next batch right now: messages queued, or the rest of a rollup round */
  const pressing = () => queued() > 0 || (roundLeft > 0 && o.rollups.hasPending);

  let timerDue = 0;
  function schedule() {
    if (inFlight || immediate) return; // the batch's result schedules the next one
    if (queuedPoints >= o.maxBatchPoints && queued() > 0) {
      if (timer) clearTimeout(timer), (timer = undefined);
      immediate = setImmediate(runDispatch);
      return;
    }
    if (closed) return;
    // points wait at most flushIntervalMs; with none queued, the last rollup deltas still reach the disk in rollupFlushMs
    const delay = pressing() ? o.flushIntervalMs : o.rollups.hasPending ? o.rollupFlushMs : -1;
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

  /** Hands up to maxBatchPoints (QoS 1 first: it was acknowledged) and any due rollup deltas to the executor. */
  function dispatch(): boolean {
    if (inFlight) return false;
    if (queued() === 0 && !rollupDue()) {
      schedule();
      return false;
    }
    const messages: TelemetryMessage[] = [];
    let taken = 0;
    for (const q of [qos1, qos0]) {
      while (q.length > 0 && taken < o.maxBatchPoints) {
        const m = q.shift()!;
        messages.push(m);
        taken += weight(m);
      }
    }
    let snapshot: RollupSnapshot | null = null;
    if (rollupDue()) {
      if (roundLeft <= 0) (roundLeft = o.rollups.pendingSeries), (lastRollupFlush = o.now());
      const before = o.rollups.pendingSeries;
      snapshot = o.rollups.snapshot(ROLLUP_CHUNK_ROWS);
      roundLeft -= before - o.rollups.pendingSeries;
    }
    const { batch, points } = toBatch(nextBatchId++, messages, snapshot);
    const flight: InFlight = { messages, points, weight: taken, rollups: snapshot, sentAt: performance.timeOrigin + performance.now() };
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
      if (pressing() && !immediate) {
        if (timer) clearTimeout(timer), (timer = undefined);
        immediate = setImmediate(runDispatch);
      } else schedule();
    }
  }

  function failed(f: InFlight, err: Error) {
    stats.failed_batches++;
    if (f.rollups) o.rollups.snapshotFailed();
    failedAttempts++;
    o.log.error(`telemetry write failed (attempt ${failedAttempts})`, err);
    if (failedAttempts < MAX_WRITE_ATTEMPTS) {
      // back to the queues (order inside a batch does not matter: it is sorted by the store)
      for (const m of f.messages) (m.qos > 0 ? qos1 : qos0).push(m);
      return;
    }
    failedAttempts = 0;
    queuedPoints -= f.weight;
    stats.failed_points += f.points.length;
  }

  function committed(f: InFlight, r: WriteResult) {
    failedAttempts = 0;
    queuedPoints -= f.weight;
    if (f.rollups) {
      o.rollups.snapshotStored();
      stats.rollup_rows += r.rollupRows;
    }
    const duplicates = new Set<TelemetryPoint>();
    for (let k = 0; k < r.duplicates.length; k++) duplicates.add(f.points[r.duplicates[k]!]!);
    for (const p of f.points) {
      if (duplicates.size && duplicates.has(p)) continue;
      const series = o.series.byId(p.seriesId);
      if (!series) continue;
      if (!series.latest || p.ts >= series.latest.ts) series.latest = { ts: p.ts, num: p.num, text: p.text };
      if (p.num !== null && rollsUp(series.datatype)) o.rollups.add(p.seriesId, p.ts, p.num);
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
    const committedAt = o.now();
    const out: CommittedTelemetry[] = [];
    for (let k = 0; k < f.messages.length; k++) {
      const m = f.messages[k]!;
      const states = applied.get(k) ?? [];
      stats.stored_states += states.length;
      const pts = duplicates.size === 0 ? m.points : m.points.filter((p) => !duplicates.has(p));
      if (pts.length || states.length) out.push({ appId: m.appId, deviceId: m.deviceId, receivedAt: m.receivedAt, committedAt, points: pts, states });
    }
    if (out.length) o.onCommit(out);
  }

  /** resolves when the batch in flight (if any) has settled */
  const nextSettle = () => new Promise<void>((resolve) => (inFlight ? settled.push(resolve) : resolve()));

  /** writes everything queued now and, with `rollups`, every rollup delta (bounded in rounds) */
  async function drain(rollups: boolean): Promise<void> {
    for (let rounds = 0; rounds < 10_000; rounds++) {
      if (inFlight) {
        await nextSettle();
        continue;
      }
      if (queued() > 0 || (rollups && o.rollups.hasPending)) {
        if (rollups) lastRollupFlush = -Infinity;
        if (!dispatch()) break;
        continue;
      }
      break;
    }
  }

  return {
    /**
     * Queues a message. Beyond `maxQueuedPoints` QoS 0 messages are shed oldest first (counted); QoS 1 messages, already
     * acknowledged by the broker, are still queued up to `hardMaxQueuedPoints`; beyond that the message is refused
     * (counted and logged) so memory stays bounded whatever the devices do.
     */
    enqueue(m: TelemetryMessage): 'queued' | 'refused' {
      const w = weight(m);
      if (closed || w === 0) return closed ? 'refused' : 'queued';
      if (queuedPoints + w > o.maxQueuedPoints) {
        while (qos0.length > 0 && queuedPoints + w > o.maxQueuedPoints) {
          const old = qos0.shift()!;
          queuedPoints -= weight(old);
          stats.shed_qos0_points += weight(old);
        }
        const bound = m.qos > 0 ? o.hardMaxQueuedPoints : o.maxQueuedPoints;
        if (queuedPoints + w > bound) {
          stats.refused_points += w;
          return 'refused';
        }
      }
      (m.qos > 0 ? qos1 : qos0).push(m);
      queuedPoints += w;
      if (queuedPoints > stats.max_queued_points) stats.max_queued_points = queuedPoints;
      schedule();
      return 'queued';
    },
    /** resolves once everything queued so far is committed (or has failed its attempts) */
    flush: () => drain(false),
    /** stops the timers, commits everything queued and every rollup delta; later messages are refused */
    async close(): Promise<void> {
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = undefined;
      immediate = undefined;
      closed = true;
      await drain(true);
      await o.executor.close();
    },
    get queuedPoints() {
      return queuedPoints;
    },
    get pressured() {
      return queuedPoints > o.maxQueuedPoints;
    },
    stats,
  };
}

export type TelemetryWriter = ReturnType<typeof createTelemetryWriter>;
