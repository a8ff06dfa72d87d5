// The compaction schedule (with a journal): a round freezes the points held every `everyMs` (or sooner once
// `maxRecentPoints` are held) and hands them to the writer in chunks of whole series in id order, one chunk per batch,
// at an even pace over COMPACT_SPREAD of the period, so compaction never takes the writer (nor a core) in one burst.
// A chunk's series are released from memory once its batch committed; a failed chunk goes again with a later batch.
import type { PointColumns } from './write-batch.js';
import type { RecentPoints } from '../read/recent.js';

/** Round period: at 4 points/s per series a page takes ~20 points per write (docs/decisions/telemetry-storage.md). */
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
 * The most points a chunk takes while points are being written (behind schedule or catching up), unless the batch it
 * rides with appends more: at 2–5 µs a point a chunk holds the writer 5–12 ms, so a new point never waits behind more
 * than that. Drains take what is left.
 */
export const COMPACT_MAX_CHUNK_POINTS = 2500;
/**
 * A chunk may always take this many times the points its batch appends to the journal. One batch is in flight at a
 * time, so the batch rate is what the round trip to the writer allows (40–70 a second on two busy cores): with a fixed
 * cap, compaction's pace was at most that rate × COMPACT_MAX_CHUNK_POINTS, below what 150,000 points/s appends, the
 * journal's memory grew to its bound and held device reads (backpressure) for hundreds of ms at a time. Tied to
 * the batch, compaction outpaces the journal whatever the batch rate, and a chunk costs a batch at most about twice
 * its own points' time (a quarter more than the batch appends: enough to catch up, not enough to make batches grow
 * on themselves).
 */
export const COMPACT_KEEP_UP = 1.25;
/**
 * With more points than this still waiting for the writer once a batch took its share (it fell behind them by more
 * than a batch), the batch takes no compaction chunk, so new points never queue behind the round's background work
 * while the machine is short of time; the schedule catches up with the next batches. Past COMPACT_YIELD_UNTIL of the
 * period the round no longer yields, so it still ends before the next one is due.
 */
export const COMPACT_YIELD_POINTS = 1500;
const COMPACT_YIELD_UNTIL = 0.9;
/** with nothing else to write, compaction goes on this often */
export const COMPACT_TICK_MS = 20;

export interface CompactionOptions {
  now: () => number;
  /** a round starts this often (default COMPACT_EVERY_MS), or sooner once `maxRecentPoints` are held */
  everyMs?: number;
  maxRecentPoints?: number;
  /** the least points a chunk is sent for, unless they end the round */
  chunkPoints?: number;
  /** the most points a chunk takes while points are written; drains take the rest */
  maxChunkPoints?: number;
  /** points waiting for the writer: past COMPACT_YIELD_POINTS they go first */
  queuedPoints: () => number;
  /** draining or closing: every point held is compacted now */
  hurry: () => boolean;
}

/** A chunk handed to a batch: frozen order positions [from, to), its points and whether it ends the round. */
export interface CompactionChunk {
  from: number;
  to: number;
  last: boolean;
  points: number;
}

export class CompactionSchedule {
  readonly everyMs: number;
  readonly maxRecent: number;
  private readonly chunkPoints: number;
  private readonly maxChunkPoints: number;
  private lastFreeze: number;
  /** the frozen round's series in id order, and how many of them are compacted (or in flight) */
  private frozenOrder: Float64Array = new Float64Array(0);
  private frozenNext = 0;
  /** points of the frozen round, and how many of them are compacted or in flight */
  private frozenTotal = 0;
  private frozenSent = 0;
  rounds = 0;
  compactedPoints = 0;

  constructor(
    private readonly recent: RecentPoints,
    private readonly o: CompactionOptions,
  ) {
    this.everyMs = o.everyMs ?? COMPACT_EVERY_MS;
    this.maxRecent = o.maxRecentPoints ?? MAX_RECENT_POINTS;
    this.chunkPoints = o.chunkPoints ?? COMPACT_CHUNK_POINTS;
    this.maxChunkPoints = o.maxChunkPoints ?? COMPACT_MAX_CHUNK_POINTS;
    this.lastFreeze = o.now();
  }

  /**
   * Points of the frozen round the schedule wants compacted now (all of them when draining or far behind), for a batch
   * that appends `batchPoints` (of the `queuedPoints` not yet stored; the rest wait for a later batch).
   */
  due(batchPoints = 0): number {
    if (!this.recent.frozen) return 0;
    const left = this.frozenTotal - this.frozenSent;
    if (this.o.hurry()) return left;
    const most = Math.max(this.maxChunkPoints, Math.ceil(batchPoints * COMPACT_KEEP_UP));
    // far behind (memory past its bound): catch up, a bounded chunk with every batch
    if (this.recent.size > this.maxRecent) return Math.min(left, most);
    const since = this.o.now() - this.lastFreeze;
    // points wait for the writer beyond this batch (it fell behind them): they go first while the round has time to spare
    if (this.o.queuedPoints() - batchPoints > COMPACT_YIELD_POINTS && since < COMPACT_YIELD_UNTIL * this.everyMs)
      return 0;
    const share = Math.min(1, since / (COMPACT_SPREAD * this.everyMs));
    return Math.min(left, most, Math.max(0, Math.ceil(this.frozenTotal * share) - this.frozenSent));
  }

  /** `due` points make a chunk: enough of them, or the rest of the round */
  worthAChunk(due: number): boolean {
    return due >= this.chunkPoints || (due > 0 && due === this.frozenTotal - this.frozenSent);
  }

  /** a round may start: none running, points held, and its period passed (or memory full, or draining) */
  freezeDue(): boolean {
    const { recent } = this;
    return (
      recent.frozen === null &&
      recent.active.points > 0 &&
      (this.o.hurry() || recent.active.points >= this.maxRecent || this.o.now() - this.lastFreeze >= this.everyMs)
    );
  }

  /** Starts a round when one is due. */
  freezeIfDue(): void {
    if (!this.freezeDue()) return;
    const frozen = this.recent.freeze();
    this.lastFreeze = this.o.now();
    this.frozenOrder = frozen.seriesIds().sort();
    this.frozenNext = 0;
    this.frozenTotal = frozen.points;
    this.frozenSent = 0;
    this.rounds++;
  }

  /** ms until the next round is due with nothing else to write (-1: no points held), at most COMPACT_TICK_MS mid-round */
  idleDelay(delay: number): number {
    if (this.recent.active.points > 0) {
      const untilRound = Math.max(0, this.everyMs - (this.o.now() - this.lastFreeze));
      delay = delay < 0 ? untilRound : Math.min(delay, untilRound);
    }
    if (this.recent.frozen) delay = delay < 0 ? COMPACT_TICK_MS : Math.min(delay, COMPACT_TICK_MS);
    return delay;
  }

  /** The next chunk of the frozen round: whole series in id order, `want` points or a little more. */
  nextChunk(want: number): CompactionChunk & { columns: PointColumns } {
    const frozen = this.recent.frozen!;
    const from = this.frozenNext;
    let to = from;
    let n = 0;
    while (to < this.frozenOrder.length && n < want) n += frozen.count(this.frozenOrder[to++]!);
    this.frozenNext = to;
    this.frozenSent += n;
    return {
      columns: frozen.columns(this.frozenOrder.subarray(from, to)),
      from,
      to,
      last: to >= this.frozenOrder.length,
      points: n,
    };
  }

  /** the chunk's batch failed: it goes again with a later batch */
  chunkFailed(c: CompactionChunk): void {
    this.frozenNext = c.from;
    this.frozenSent -= c.points;
  }

  /** the chunk's batch committed: its series leave memory, and the last chunk ends the round */
  chunkStored(c: CompactionChunk): void {
    const frozen = this.recent.frozen!;
    for (let k = c.from; k < c.to; k++) {
      const id = this.frozenOrder[k]!;
      this.compactedPoints += frozen.count(id);
      frozen.release(id);
    }
    if (c.last) this.recent.compacted();
  }
}
