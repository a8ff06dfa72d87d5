import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../platform/log.js';
import { createRecentPoints } from '../read/recent.js';
import { createRollupKeeper } from './rollups.js';
import type { SeriesRegistry } from './series.js';
import { emptyWriteResult, type WriteBatch } from './write-batch.js';
import type { BatchExecutor } from './writer-thread.js';
import { COMPACT_YIELD_POINTS } from './compaction.js';
import { createTelemetryWriter, type TelemetryMessage } from './writer.js';

const log = createLogger('silent');
const msg = (points: [number, number][]): TelemetryMessage => ({
  appId: 1,
  deviceId: 1,
  qos: 1,
  receivedAt: 0,
  states: [],
  points: points.map(([seriesId, ts]) => ({ seriesId, ts, num: ts, text: null })),
});

/** an executor that records each batch and answers at once (or fails) */
function executor(fail = () => false) {
  const batches: WriteBatch[] = [];
  const ex: BatchExecutor = {
    threaded: false,
    submit(batch, done) {
      batches.push(batch);
      if (fail()) return done(new Error('disk I/O error'));
      const r = emptyWriteResult(batch.id);
      done(null, r);
    },
    close: async () => {},
  };
  return { ex, batches };
}

function writer(
  ex: BatchExecutor,
  extra: {
    compactChunkPoints?: number;
    compactMaxChunkPoints?: number;
    now?: () => number;
    onSettled?: (m: TelemetryMessage, stored: boolean) => void;
  } = {},
) {
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
    compactEveryMs: 1000,
    ...extra,
  });
  return { w, recent };
}

describe('telemetry writer with a journal', () => {
  it('journals batches in the active half and compacts a frozen round at an even pace, in whole series, emptying its half last', async () => {
    const { ex, batches } = executor();
    let clock = 0;
    const { w, recent } = writer(ex, { compactChunkPoints: 2, now: () => clock });
    w.enqueue(
      msg([
        [3, 1],
        [1, 1],
        [2, 1],
        [1, 2],
        [3, 2],
        [2, 2],
        [4, 1],
        [4, 2],
      ]),
    );
    await w.flush({ compact: false });
    expect(batches.map((b) => [b.journal, b.compact, b.clearJournal])).toEqual([[{ part: 1, round: 1 }, null, -1]]);
    expect(recent.size).toBe(8);
    // the round starts at 1 s; by 0.15 s into it (a quarter of the 0.6 s it is spread over) 2 of its 8 points are due
    clock = 1000;
    w.enqueue(msg([[9, 1]]));
    await w.flush({ compact: false });
    clock = 1150;
    w.enqueue(msg([[9, 2]]));
    await w.flush({ compact: false });
    const compacted = () =>
      batches
        .filter((b) => b.compact)
        .map((b) => [b.journal?.part, Array.from(b.compact!.series), Array.from(b.compact!.ts), b.clearJournal]);
    expect(compacted()).toEqual([[0, [1, 1], [1, 2], -1]]);
    // past the spread, the rest of the round is due: series 2, 3 and 4 (whole series), and the last chunk empties half 1
    clock = 1700;
    w.enqueue(msg([[9, 3]]));
    await w.flush({ compact: false });
    expect(compacted()).toEqual([
      [0, [1, 1], [1, 2], -1],
      [0, [2, 2, 3, 3, 4, 4], [1, 2, 1, 2, 1, 2], 1],
    ]);
    expect(recent.frozen).toBeNull();
    expect(recent.size).toBe(3);
    // draining compacts what is held at once
    await w.flush();
    expect(recent.size).toBe(0);
    expect(w.stats).toMatchObject({ compacted_points: 11, compaction_rounds: 2 });
  });

  it('never hands the writer more than the largest chunk while points are written, however far behind; a drain takes the rest', async () => {
    const { ex, batches } = executor();
    let clock = 0;
    const { w, recent } = writer(ex, { compactChunkPoints: 1, compactMaxChunkPoints: 4, now: () => clock });
    // ten series of two points, then the round is frozen and its whole spread has passed: all 20 points are due
    w.enqueue(
      msg(
        Array.from(
          { length: 10 },
          (_, s) =>
            [
              [s + 1, 1],
              [s + 1, 2],
            ] as [number, number][],
        ).flat(),
      ),
    );
    await w.flush({ compact: false });
    clock = 1000;
    w.enqueue(msg([[99, 1]]));
    await w.flush({ compact: false });
    clock = 5000;
    for (let i = 0; i < 3; i++) {
      w.enqueue(msg([[99, 2 + i]]));
      await w.flush({ compact: false });
    }
    const chunks = () => batches.filter((b) => b.compact).map((b) => Array.from(b.compact!.series));
    // whole series, at most 4 points each: series 1–2, then 3–4, then 5–6 (one chunk per batch)
    expect(chunks()).toEqual([
      [1, 1, 2, 2],
      [3, 3, 4, 4],
      [5, 5, 6, 6],
    ]);
    // the drain: the rest of the round in one chunk, then the next round (series 99)
    await w.flush();
    expect(chunks().slice(3)).toEqual([
      [7, 7, 8, 8, 9, 9, 10, 10],
      [99, 99, 99, 99],
    ]);
    expect(recent.size).toBe(0);
  });

  it('leaves the chunk out of a batch while more than COMPACT_YIELD_POINTS wait, unless the round runs late', async () => {
    const { ex, batches } = executor();
    let clock = 0;
    const { w } = writer(ex, { compactChunkPoints: 2, now: () => clock });
    /** `n` new points of series 100.. (one message per 500), all waiting at once */
    let next = 0;
    const backlog = (n: number) => {
      for (let k = 0; k < n; k += 500)
        w.enqueue(
          msg(
            Array.from({ length: Math.min(500, n - k) }, (_, i): [number, number] => [
              100 + ((next + i) % 50),
              10_000 + next + i,
            ]),
          ),
        );
      next += n;
    };
    const compactedIn = () => batches.map((b) => (b.compact ? b.compact.series.length : 0));
    for (const [round, late] of [
      [1, false],
      [2, true],
    ] as const) {
      w.enqueue(
        msg([
          [round * 10 + 1, 1],
          [round * 10 + 1, 2],
          [round * 10 + 2, 1],
          [round * 10 + 2, 2],
        ]),
      );
      await w.flush({ compact: false });
      // the round freezes at the next batch after its period; 0.7 s (past the spread: all due) or 0.95 s later
      clock = round * 1000 + 50;
      w.enqueue(msg([[9, clock]]));
      await w.flush({ compact: false });
      clock += late ? 950 : 700;
      batches.length = 0;
      backlog(COMPACT_YIELD_POINTS + 2000);
      await w.flush({ compact: false });
      // batches of 1,000 points (maxBatchPoints): the first leaves 2,500 waiting beyond it (past the bound), the second
      // 1,500 (not past it); the round's 4 points go in one chunk with the second batch; a late round does not yield:
      // from the first batch on (it holds round 1's backlog too: 3,505 points, in chunks of at most 2,500 whole series)
      const chunks = compactedIn();
      expect(
        chunks,
        late ? 'the round runs late: it does not yield' : 'yields to the backlog, then catches up',
      ).toEqual(late ? [2525, 980, 0, 0] : [0, 4, 0, 0]);
    }
  });

  it('sends a failed chunk again, and stops draining when the database keeps failing', async () => {
    let failing = false;
    const { ex, batches } = executor(() => failing);
    const { w, recent } = writer(ex);
    w.enqueue(
      msg([
        [1, 1],
        [1, 2],
      ]),
    );
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

describe('telemetry writer on failing storage', () => {
  it('keeps retrying a batch the disk refuses (never drops it) and settles its messages as stored once it commits', async () => {
    let failures = 5;
    const { ex, batches } = executor(() => failures-- > 0);
    const settled: [TelemetryMessage, boolean][] = [];
    const { w } = writer(ex, { onSettled: (m, stored) => settled.push([m, stored]) });
    const m = msg([
      [1, 1],
      [1, 2],
    ]);
    w.enqueue(m);
    // five failures, each followed by a growing pause (100, 200, 400, 800, 1600 ms: 3.1 s), then the sixth attempt commits
    const deadline = Date.now() + 15_000;
    while (settled.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(settled).toEqual([[m, true]]);
    expect(batches.length).toBe(6);
    expect(w.stats.storage_faults).toBe(5);
    expect(w.stats.failed_points).toBe(0);
    expect(w.stats.storage_faulting).toBe(false);
  });

  it('gives up on a batch failing for another reason after three attempts, unacknowledged', async () => {
    const batches: WriteBatch[] = [];
    const ex: BatchExecutor = {
      threaded: false,
      submit: (b, done) => (batches.push(b), done(new Error('constraint failed'))),
      close: async () => {},
    };
    const settled: boolean[] = [];
    const { w } = writer(ex, { onSettled: (_m, stored) => settled.push(stored) });
    w.enqueue(msg([[1, 1]]));
    await w.flush({ compact: false });
    for (let i = 0; i < 100 && settled.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(settled).toEqual([false]);
    expect(batches.length).toBe(3);
  });
});
