// Drain: everything queued now is written (a flush, or the close before the connection goes), batch after batch
// without waiting for timers; with `compact` every point held is compacted into the clustered table, with `rollups`
// every rollup delta merged. A database that keeps failing ends it: what is held stays journaled and the next start
// replays it.
import type { Logger } from '../../../platform/log.js';
import { MAX_WRITE_ATTEMPTS } from './settle.js';

export interface DrainOptions {
  /** the batches (BatchDispatch) */
  batches: {
    readonly inFlight: unknown;
    /** resolves when the batch in flight (if any) has settled */
    settled(): Promise<void>;
    /** hands the next batch; false when nothing is due */
    dispatch(): boolean;
    compactAll: boolean;
    rollupsDueNow(): void;
  };
  /** messages waiting for a batch, rollup deltas pending, points held in memory (not compacted) */
  queued(): number;
  rollupsPending(): boolean;
  held(): number;
  stats: { readonly batches: number; readonly failed_batches: number };
  log: Logger;
}

/** the most batches one drain hands (bounds the loop whatever the store answers) */
const MAX_DRAIN_ROUNDS = 100_000;

export async function drain(o: DrainOptions, what: { rollups: boolean; compact: boolean }): Promise<void> {
  const { batches, stats } = o;
  let failedBefore = stats.failed_batches;
  let committedBefore = stats.batches;
  try {
    batches.compactAll = what.compact;
    for (let rounds = 0; rounds < MAX_DRAIN_ROUNDS; rounds++) {
      if (batches.inFlight) {
        await batches.settled();
        continue;
      }
      // the database keeps failing (no commit since): give up; what is held stays journaled and the next start
      // replays it, and the messages' own attempts are counted by the settling
      if (stats.batches !== committedBefore) ((committedBefore = stats.batches), (failedBefore = stats.failed_batches));
      if (stats.failed_batches - failedBefore >= 2 * MAX_WRITE_ATTEMPTS) {
        o.log.error('telemetry writer: giving up draining after repeated failures');
        break;
      }
      if (o.queued() > 0 || (what.rollups && o.rollupsPending()) || (what.compact && o.held() > 0)) {
        if (what.rollups) batches.rollupsDueNow();
        if (!batches.dispatch()) break;
        continue;
      }
      break;
    }
  } finally {
    batches.compactAll = false;
  }
}
