// The storage writer: device messages queue in memory and are committed in one transaction per flush (every
// `flushIntervalMs`, or at once when `maxBatchPoints` are waiting), points sorted by (series, ts) so each series' pages
// are touched once. The queue is bounded; see `enqueue` for what happens beyond the bound.
import type Database from 'better-sqlite3';
import type { Logger } from '../../platform/log.js';
import type { StatesStore, StateChange } from '../states/states.store.js';
import { rollsUp } from './datatypes.js';
import type { RollupKeeper } from './rollups.js';
import type { SeriesRegistry } from './series.js';

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
  sqlite: Database.Database;
  series: SeriesRegistry;
  rollups: RollupKeeper;
  states: StatesStore;
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

/**
 * The batch's points ordered by (series, ts), so each series' pages of the clustered table are touched once. Points of
 * one series nearly always arrive in time order: bucket by series, sort the series ids (a typed-array sort), and sort a
 * bucket only when it is out of order — far cheaper than a comparator sort of the whole batch.
 */
export function sortedBySeries(messages: readonly TelemetryMessage[]): TelemetryPoint[] {
  const buckets = new Map<number, TelemetryPoint[]>();
  let total = 0;
  for (const m of messages) {
    for (const p of m.points) {
      const b = buckets.get(p.seriesId);
      if (b) b.push(p);
      else buckets.set(p.seriesId, [p]);
      total++;
    }
  }
  const ids = Float64Array.from(buckets.keys()).sort();
  const out: TelemetryPoint[] = new Array(total);
  let i = 0;
  for (const id of ids) {
    const b = buckets.get(id)!;
    for (let k = 1; k < b.length; k++) {
      if (b[k]!.ts < b[k - 1]!.ts) {
        b.sort((x, y) => x.ts - y.ts);
        break;
      }
    }
    for (const p of b) out[i++] = p;
  }
  return out;
}

export function createTelemetryWriter(o: WriterOptions) {
  const insertPoint = o.sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num, text) VALUES (?, ?, ?, ?) ON CONFLICT (series_id, ts) DO NOTHING');
  const qos0 = new Fifo<TelemetryMessage>();
  const qos1 = new Fifo<TelemetryMessage>();
  let queuedPoints = 0;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let lastRollupFlush = o.now();
  let failedAttempts = 0;
  let closed = false;
  const stats = {
    batches: 0,
    stored_points: 0,
    duplicate_points: 0,
    stored_states: 0,
    shed_qos0_points: 0,
    refused_points: 0,
    failed_points: 0,
    rollup_rows: 0,
    last_batch_points: 0,
    last_batch_ms: 0,
    max_batch_ms: 0,
    max_queued_points: 0,
  };

  const weight = (m: TelemetryMessage) => m.points.length + m.states.length;

  let timerDue = 0;
  function schedule() {
    if (closed || immediate) return;
    if (queuedPoints >= o.maxBatchPoints) {
      if (timer) clearTimeout(timer), (timer = undefined);
      immediate = setImmediate(runFlush);
      return;
    }
    // points wait at most flushIntervalMs; with none queued, the last rollup deltas still reach the disk in rollupFlushMs
    const delay = queuedPoints > 0 ? o.flushIntervalMs : o.rollups.hasPending ? o.rollupFlushMs : -1;
    if (delay < 0) return;
    const due = performance.now() + delay;
    if (timer && timerDue <= due) return;
    if (timer) clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(runFlush, delay);
  }

  function runFlush() {
    timer = undefined;
    immediate = undefined;
    flushOnce();
    schedule();
  }

  /** Takes up to maxBatchPoints from the queues (QoS 1 first: it was acknowledged), commits them. */
  function flushOnce(): number {
    if (queuedPoints === 0 && o.now() - lastRollupFlush < o.rollupFlushMs) return 0;
    const messages: TelemetryMessage[] = [];
    let taken = 0;
    // behind (a turn of the event loop queued more than a batch): take up to three batches in one transaction, so the
    // writer catches up instead of committing one batch per turn while ingest fills the queue
    const limit = o.maxBatchPoints * 3;
    for (const q of [qos1, qos0]) {
      while (q.length > 0 && taken < limit) {
        const m = q.shift()!;
        messages.push(m);
        taken += weight(m);
      }
    }
    const points = sortedBySeries(messages);
    const started = performance.now();
    const duplicates = new Set<TelemetryPoint>();
    const appliedStates = new Map<TelemetryMessage, StateChange[]>();
    const rollupDue = o.now() - lastRollupFlush >= o.rollupFlushMs || closed;
    let rollupRows = 0;
    try {
      o.sqlite.transaction(() => {
        // deltas of points committed earlier; memory is touched only after the commit, so a rollback loses nothing
        if (rollupDue) rollupRows = o.rollups.write();
        for (const p of points) if (insertPoint.run(p.seriesId, p.ts, p.num, p.text).changes === 0) duplicates.add(p);
        for (const m of messages) if (m.states.length) appliedStates.set(m, o.states.apply(m.appId, m.deviceId, m.states));
      })();
    } catch (err) {
      failedAttempts++;
      o.log.error(`telemetry write failed (attempt ${failedAttempts})`, err);
      if (failedAttempts < MAX_WRITE_ATTEMPTS) {
        // back to the queues (order inside a batch does not matter: it is sorted at the next flush)
        for (const m of messages) (m.qos > 0 ? qos1 : qos0).push(m);
        return 0;
      }
      failedAttempts = 0;
      queuedPoints -= taken;
      stats.failed_points += points.length;
      return 0;
    }
    failedAttempts = 0;
    queuedPoints -= taken;
    if (rollupDue) {
      o.rollups.clearWritten();
      stats.rollup_rows += rollupRows;
      lastRollupFlush = o.now();
    }
    for (const p of points) {
      if (duplicates.size && duplicates.has(p)) continue;
      const series = o.series.byId(p.seriesId);
      if (!series) continue;
      if (!series.latest || p.ts >= series.latest.ts) series.latest = { ts: p.ts, num: p.num, text: p.text };
      if (p.num !== null && rollsUp(series.datatype)) o.rollups.add(p.seriesId, p.ts, p.num);
    }
    const ms = performance.now() - started;
    stats.batches++;
    stats.stored_points += points.length - duplicates.size;
    stats.duplicate_points += duplicates.size;
    stats.last_batch_points = points.length;
    stats.last_batch_ms = Math.round(ms * 10) / 10;
    if (ms > stats.max_batch_ms) stats.max_batch_ms = stats.last_batch_ms;
    const committedAt = o.now();
    const committed: CommittedTelemetry[] = [];
    for (const m of messages) {
      const states = appliedStates.get(m) ?? [];
      stats.stored_states += states.length;
      const pts = duplicates.size === 0 ? m.points : m.points.filter((p) => !duplicates.has(p));
      if (pts.length || states.length) committed.push({ appId: m.appId, deviceId: m.deviceId, receivedAt: m.receivedAt, committedAt, points: pts, states });
    }
    if (committed.length) o.onCommit(committed);
    return taken;
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
    /** commits everything queued now (bounded: the queue is bounded and each round takes maxBatchPoints) */
    flush(): void {
      for (let rounds = 0; rounds < 10_000 && queuedPoints > 0; rounds++) if (flushOnce() === 0 && queuedPoints > 0 && failedAttempts === 0) break;
    },
    /** stops the timers, commits everything queued and every rollup delta; later messages are refused */
    close(): void {
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = undefined;
      immediate = undefined;
      closed = true;
      this.flush();
      o.sqlite.transaction(() => {
        stats.rollup_rows += o.rollups.write();
      })();
      o.rollups.clearWritten();
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
