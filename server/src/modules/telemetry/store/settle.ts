// Settle: what the store's answer to a batch means. Committed: the points (less duplicates) reach the journal's
// memory side, the latest values and the rollup deltas, every message is settled as stored (its held acknowledgement
// goes) and the listeners hear what was stored. Failed on storage (disk full, read-only, I/O): the batch waits again
// and the next one goes after a pause doubling from STORAGE_RETRY_MIN_MS to STORAGE_RETRY_MAX_MS until the storage
// takes writes; failed otherwise: retried, and given up unacknowledged after MAX_WRITE_ATTEMPTS.
import { isStorageFault } from '../../../platform/db/storage-fault.js';
import type { Logger } from '../../../platform/log.js';
import type { StateChange } from '../../states/states.store.js';
import { rollsUp } from '../datatypes.js';
import { NO_STATES, type CommittedTelemetry, type TelemetryMessage, type TelemetryPoint } from '../message.js';
import type { RecentPoints } from '../read/recent.js';
import type { CompactionSchedule } from './compaction.js';
import type { InFlight } from './dispatch.js';
import type { RollupKeeper } from './rollups.js';
import { noteLatest, type SeriesRegistry } from './series.js';
import type { WriteResult } from './write-batch.js';
import type { WriteQueue } from './write-queue.js';
import type { WriterStats } from './writer-stats.js';

export const MAX_WRITE_ATTEMPTS = 3;
/** a storage fault is retried after this, doubling up to STORAGE_RETRY_MAX_MS, until the storage takes writes again */
export const STORAGE_RETRY_MIN_MS = 100;
export const STORAGE_RETRY_MAX_MS = 5000;

export interface SettleOptions {
  queue: WriteQueue;
  series: Pick<SeriesRegistry, 'byId'>;
  rollups: RollupKeeper;
  recent: RecentPoints | null;
  compaction: CompactionSchedule | null;
  /** with a journal: whether the clustered table holds (series, ts) (the duplicate check of a point not newest) */
  storedAt?: (seriesId: number, ts: number) => boolean;
  stats: WriterStats;
  log: Logger;
  now: () => number;
  onCommit: (batch: CommittedTelemetry[]) => void;
  onSettled?: (m: TelemetryMessage, stored: boolean) => void;
  /** a commit names the points of a message the store already held (`CommittedTelemetry.resent`) */
  keepResent?: boolean;
  onStatesRefused?: (deviceId: number, count: number) => void;
}

export class BatchSettle {
  /** storage faulting: the next batch waits until then (performance.now() time); 0 when the storage takes writes */
  retryAt = 0;
  private failedAttempts = 0;
  /** storage faulting since (performance.now() time), and the pause before the next retry */
  private faultSince = 0;
  private retryDelay = 0;

  constructor(private readonly o: SettleOptions) {}

  /** The store's answer to `f`: committed with `r`, or failed with `err`. */
  settle(f: InFlight, err: Error | null, r?: WriteResult): void {
    if (err || !r) this.failed(f, err ?? new Error('no result'));
    else this.committed(f, r);
  }

  private failed(f: InFlight, err: Error): void {
    const { o } = this;
    o.stats.failed_batches++;
    if (f.rollups) o.rollups.snapshotFailed();
    if (f.chunk) o.compaction!.chunkFailed(f.chunk); // the chunk goes again with a later batch
    this.failedAttempts++;
    if (isStorageFault(err)) {
      o.stats.storage_faults++;
      // said once, with what is held; then retried with a growing pause until the storage takes writes again
      if (this.faultSince === 0) {
        this.faultSince = performance.now();
        o.stats.storage_faulting = true;
        o.log.error(
          `telemetry storage failing, ingest stops acknowledging: ${o.queue.points} points held (${o.queue.messages + f.messages.length} messages), retrying until it recovers: ${err.message.split('\n')[0]}`,
        );
      }
      this.retryDelay =
        this.retryDelay === 0 ? STORAGE_RETRY_MIN_MS : Math.min(STORAGE_RETRY_MAX_MS, this.retryDelay * 2);
      this.retryAt = performance.now() + this.retryDelay;
      o.queue.requeue(f.messages);
      return;
    }
    o.log.error(`telemetry write failed (attempt ${this.failedAttempts})`, err);
    if (this.failedAttempts < MAX_WRITE_ATTEMPTS) {
      o.queue.requeue(f.messages);
      return;
    }
    this.failedAttempts = 0;
    o.queue.settled(f.weight);
    o.stats.failed_points += f.points.length;
    // given up: never acknowledged (the device sends it again)
    for (const m of f.messages) o.onSettled?.(m, false);
  }

  private committed(f: InFlight, r: WriteResult): void {
    const { o } = this;
    this.recovered();
    o.queue.settled(f.weight);
    if (f.rollups) {
      o.rollups.snapshotStored();
      o.stats.rollup_rows += r.rollupRows;
    }
    if (f.chunk) o.compaction!.chunkStored(f.chunk);
    const duplicates = this.keep(f, r);
    this.count(f, r, duplicates);
    for (const x of r.refusedStates) o.onStatesRefused?.(f.messages[x.msg]!.deviceId, x.count);
    const out = this.stored(f, r, duplicates);
    if (o.onSettled) for (const m of f.messages) o.onSettled(m, true);
    if (out.length) o.onCommit(out);
  }

  /** a commit: the storage takes writes (again), attempts and pauses start over */
  private recovered(): void {
    this.failedAttempts = 0;
    if (this.faultSince !== 0) {
      this.o.log.warn(
        `telemetry storage writable again after ${Math.round((performance.now() - this.faultSince) / 100) / 10} s: ingest acknowledges again (${this.o.queue.points} points held)`,
      );
      this.faultSince = 0;
      this.o.stats.storage_faulting = false;
    }
    this.retryDelay = 0;
    this.retryAt = 0;
  }

  /**
   * The committed points reach the journal's memory side, the latest values and the rollup deltas; returns the
   * duplicates (the store's, and with a journal a point not newest already held or stored: the first one stays).
   */
  private keep(f: InFlight, r: WriteResult): Set<TelemetryPoint> {
    const { series: registry, recent, rollups, storedAt, stats } = this.o;
    const duplicates = new Set<TelemetryPoint>();
    for (let k = 0; k < r.duplicates.length; k++) duplicates.add(f.points[r.duplicates[k]!]!);
    for (const p of f.points) {
      if (duplicates.size && duplicates.has(p)) continue;
      const series = registry.byId(p.seriesId);
      if (recent) {
        const newest = !series?.latest || p.ts > series.latest.ts;
        if (!newest && (recent.has(p.seriesId, p.ts) || storedAt?.(p.seriesId, p.ts))) {
          duplicates.add(p);
          continue;
        }
        recent.add(p);
      }
      if (!series) continue;
      noteLatest(series, p);
      if (p.num !== null && rollsUp(series.datatype)) rollups.add(p.seriesId, p.ts, p.num);
    }
    if (recent) {
      stats.recent_points = recent.size;
      if (recent.size > stats.max_recent_points) stats.max_recent_points = recent.size;
    }
    return duplicates;
  }

  /** the batch's counts and times (the transaction, the hand-over to the writer, the answer's way back) */
  private count(f: InFlight, r: WriteResult, duplicates: Set<TelemetryPoint>): void {
    const { stats } = this.o;
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
  }

  /** what each message stored (points less duplicates, the state changes applied), for the listeners */
  private stored(f: InFlight, r: WriteResult, duplicates: Set<TelemetryPoint>): CommittedTelemetry[] {
    const { stats, now } = this.o;
    const applied = new Map<number, StateChange[]>();
    for (const a of r.appliedStates) applied.set(a.msg, a.changes);
    const committedAt = now();
    const out: CommittedTelemetry[] = [];
    for (let k = 0; k < f.messages.length; k++) {
      const m = f.messages[k]!;
      const states = applied.get(k) ?? NO_STATES;
      stats.stored_states += states.length;
      const pts = duplicates.size === 0 ? m.points : m.points.filter((p) => !duplicates.has(p));
      // gateways storing locally: the points of a message sent again still reach the rules (evaluated once there)
      const resent =
        this.o.keepResent && pts.length < m.points.length ? m.points.filter((p) => duplicates.has(p)) : undefined;
      if (pts.length || states.length || resent) {
        const c: CommittedTelemetry = {
          appId: m.appId,
          deviceId: m.deviceId,
          receivedAt: m.receivedAt,
          committedAt,
          points: pts,
          states,
        };
        if (resent) c.resent = resent;
        out.push(c);
      }
    }
    return out;
  }
}
