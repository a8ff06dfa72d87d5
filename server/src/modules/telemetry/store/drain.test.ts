import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../platform/log.js';
import { drain, type DrainOptions } from './drain.js';
import { MAX_WRITE_ATTEMPTS } from './settle.js';

/**
 * A store behind a fake dispatch: each batch takes one queued message (or, with none, a rollup round or the points
 * held) and is answered a moment later, committed unless `fails` says so.
 */
function setUp(
  work: { queued: number; rollups?: boolean; held?: number },
  fails: (n: number) => boolean = () => false,
) {
  const seen: { compactAll: boolean; rollupsDue: boolean }[] = [];
  const stats = { batches: 0, failed_batches: 0 };
  let inFlight: Promise<void> | null = null;
  let rollupsDue = false;
  const batches: DrainOptions['batches'] = {
    get inFlight() {
      return inFlight;
    },
    settled: () => inFlight ?? Promise.resolve(),
    compactAll: false,
    rollupsDueNow: () => void (rollupsDue = true),
    dispatch() {
      if (inFlight) return false;
      const n = seen.length;
      seen.push({ compactAll: batches.compactAll, rollupsDue });
      inFlight = new Promise<void>((r) => setTimeout(r, 1)).then(() => {
        inFlight = null;
        if (fails(n)) return void stats.failed_batches++;
        stats.batches++;
        if (work.queued > 0) work.queued--;
        else if (work.rollups && rollupsDue) work.rollups = false;
        else if (batches.compactAll) work.held = 0;
      });
      return true;
    },
  };
  const o: DrainOptions = {
    batches,
    queued: () => work.queued,
    rollupsPending: () => work.rollups ?? false,
    held: () => work.held ?? 0,
    stats,
    log: createLogger('silent'),
  };
  return { o, seen, stats, batches, work };
}

describe('drain', () => {
  it('hands batch after batch, each once the one before settled, until nothing is queued', async () => {
    const { o, seen, work } = setUp({ queued: 3, rollups: true, held: 10 });
    await drain(o, { rollups: false, compact: false });
    expect(work.queued).toBe(0);
    expect(seen).toHaveLength(3);
    // a flush without rollups or compaction leaves them to their schedule
    expect(seen.every((b) => !b.compactAll && !b.rollupsDue)).toBe(true);
    expect(work).toMatchObject({ rollups: true, held: 10 });
  });

  it('with rollups and compaction (the close): merges every delta and compacts every point held, hurrying the schedule only while it runs', async () => {
    const { o, seen, batches, work } = setUp({ queued: 1, rollups: true, held: 10 });
    await drain(o, { rollups: true, compact: true });
    expect(work).toEqual({ queued: 0, rollups: false, held: 0 });
    expect(seen).toEqual([
      { compactAll: true, rollupsDue: true },
      { compactAll: true, rollupsDue: true },
      { compactAll: true, rollupsDue: true },
    ]);
    expect(batches.compactAll).toBe(false);
  });

  it('waits for the batch already in flight before handing its own', async () => {
    const { o, seen, batches, work } = setUp({ queued: 2 });
    batches.dispatch();
    await drain(o, { rollups: false, compact: false });
    expect(seen).toHaveLength(2);
    expect(work.queued).toBe(0);
  });

  it(`gives up after ${2 * MAX_WRITE_ATTEMPTS} failures without a commit between them; a commit starts the count again`, async () => {
    // fails batches 0–4, commits 5, then fails every one
    const { o, seen, stats, work } = setUp({ queued: 3 }, (n) => n !== 5);
    await drain(o, { rollups: false, compact: false });
    expect(stats.batches).toBe(1);
    expect(seen).toHaveLength(6 + 2 * MAX_WRITE_ATTEMPTS);
    expect(work.queued).toBe(2);
  });

  it('stops when the dispatch has nothing due to send', async () => {
    const { o, batches, seen } = setUp({ queued: 1 });
    batches.dispatch = () => false;
    await drain(o, { rollups: false, compact: false });
    expect(seen).toHaveLength(0);
  });
});
