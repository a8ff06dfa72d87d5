import { describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/log.js';
import { createRecentPoints } from './recent.js';
import { createRollupKeeper } from './rollups.js';
import type { SeriesRegistry } from './series.js';
import type { WriteBatch, WriteResult } from './write-batch.js';
import type { BatchExecutor } from './writer-thread.js';
import { createTelemetryWriter, type TelemetryMessage } from './writer.js';

const log = createLogger('silent');
const msg = (points: [number, number][]): TelemetryMessage => ({ appId: 1, deviceId: 1, qos: 1, receivedAt: 0, states: [], points: points.map(([seriesId, ts]) => ({ seriesId, ts, num: ts, text: null })) });

/** an executor that records each batch and answers at once (or fails) */
function executor(fail = () => false) {
  const batches: WriteBatch[] = [];
  const ex: BatchExecutor = {
    threaded: false,
    submit(batch, done) {
      batches.push(batch);
      if (fail()) return done(new Error('disk I/O error'));
      const r: WriteResult = { id: batch.id, duplicates: new Int32Array(0), appliedStates: [], rollupRows: 0, ms: 0, startedAt: 0, endedAt: 0 };
      done(null, r);
    },
    close: async () => {},
  };
  return { ex, batches };
}

function writer(ex: BatchExecutor, extra: { compactChunkPoints?: number } = {}) {
  const recent = createRecentPoints();
  const w = createTelemetryWriter({
    executor: ex,
    series: { byId: () => undefined } as unknown as SeriesRegistry,
    rollups: createRollupKeeper('w'),
    log,
    now: () => 0,
    flushIntervalMs: 1,
    maxBatchPoints: 1000,
    maxQueuedPoints: 10_000,
    hardMaxQueuedPoints: 20_000,
    rollupFlushMs: 60_000,
    onCommit: () => {},
    recent,
    storedAt: () => false,
    compactEveryMs: 60_000,
    ...extra,
  });
  return { w, recent };
}

describe('telemetry writer with a journal', () => {
  it('journals batches in the active half and compacts a frozen round in chunks of whole series, emptying its half last', async () => {
    const { ex, batches } = executor();
    const { w, recent } = writer(ex, { compactChunkPoints: 4 });
    w.enqueue(msg([[3, 1], [1, 1], [2, 1], [1, 2], [3, 2], [2, 2]]));
    await w.flush({ compact: false });
    expect(batches.map((b) => [b.journal, b.compact, b.clearJournal])).toEqual([[{ part: 1, round: 1 }, null, -1]]);
    expect(recent.size).toBe(6);
    await w.flush();
    const rounds = batches.slice(1);
    // new points go to round 2's half while round 1 is compacted: series 1 and 2 (4 points), then 3, which ends it
    expect(rounds.map((b) => [b.journal?.part, Array.from(b.compact!.series), Array.from(b.compact!.ts), b.clearJournal])).toEqual([
      [0, [1, 1, 2, 2], [1, 2, 1, 2], -1],
      [0, [3, 3], [1, 2], 1],
    ]);
    expect(recent.size).toBe(0);
    expect(w.stats).toMatchObject({ compacted_points: 6, compaction_rounds: 1 });
  });

  it('sends a failed chunk again, and stops draining when the database keeps failing', async () => {
    let failing = false;
    const { ex, batches } = executor(() => failing);
    const { w, recent } = writer(ex);
    w.enqueue(msg([[1, 1], [1, 2]]));
    await w.flush({ compact: false });
    failing = true;
    await w.close();
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.length).toBeLessThan(20);
    // nothing compacted: the points stay held (and journaled, for the next start)
    expect(recent.size).toBe(2);
    expect(w.stats.failed_batches).toBe(batches.length - 1);
  });
});
