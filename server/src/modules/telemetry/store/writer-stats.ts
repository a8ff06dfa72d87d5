// What the writer reports (the gateway's metrics and the bench read it): counters the settling of batches keeps, the
// queue's and the compaction schedule's own counts read through.
import type { CompactionSchedule } from './compaction.js';
import type { WriteQueue } from './write-queue.js';

export function createWriterStats(
  queue: WriteQueue,
  compaction: CompactionSchedule | null,
  on: { threaded: boolean; journal: boolean },
) {
  return {
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
    writer_thread: on.threaded,
    journal: on.journal,
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
}

export type WriterStats = ReturnType<typeof createWriterStats>;
