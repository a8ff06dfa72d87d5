import { describe, expect, it } from 'vitest';
import type { TelemetryMessage } from '../message.js';
import { BatchDispatch, ROLLUP_CHUNK_ROWS, type DispatchOptions, type InFlight } from './dispatch.js';
import { createRollupKeeper, ROLLUP_ROW } from './rollups.js';
import { emptyWriteResult, type WriteBatch } from './write-batch.js';
import { WriteQueue } from './write-queue.js';
import type { WriteDone } from './writer-thread.js';

const msg = (qos: 0 | 1, seriesIds: number[]): TelemetryMessage => ({
  appId: 1,
  deviceId: 1,
  qos,
  receivedAt: 0,
  states: [],
  points: seriesIds.map((seriesId) => ({ seriesId, ts: 1, num: 1, text: null })),
});
const result = emptyWriteResult;
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
/**
 * after the immediate an answer set for the next batch: immediates run in the order they were set, whereas a 0 ms timer
 * may come first on a slow host (it is due 1 ms later, and the loop's next turn may start later than that)
 */
const nextImmediate = () => new Promise((r) => setImmediate(r));

/** a dispatch over an executor that holds each batch until the test answers it */
function setUp(extra: Partial<DispatchOptions> = {}) {
  const sent: { batch: WriteBatch; done: WriteDone }[] = [];
  const settled: InFlight[] = [];
  const queue = new WriteQueue({ maxQueuedPoints: 10_000, hardMaxQueuedPoints: 20_000 });
  const rollups = createRollupKeeper('t');
  const d = new BatchDispatch({
    executor: { threaded: false, submit: (batch, done) => void sent.push({ batch, done }), close: async () => {} },
    queue,
    rollups,
    recent: null,
    compaction: null,
    now: () => 0,
    flushIntervalMs: 1,
    maxBatchPoints: 4,
    rollupFlushMs: 60_000,
    retryAt: () => 0,
    settle: (f, _err, _r) => {
      queue.settled(f.weight);
      settled.push(f);
    },
    ...extra,
  });
  /** answers the oldest unanswered batch as committed */
  const answer = () => {
    const s = sent[settled.length]!;
    s.done(null, result(s.batch.id));
  };
  return { d, queue, rollups, sent, settled, answer };
}

describe('batch dispatch', () => {
  it('hands the queue to the store after flushIntervalMs, QoS 1 first, at most maxBatchPoints per batch, one batch at a time', async () => {
    const { d, queue, sent, answer } = setUp({ flushIntervalMs: 20 });
    queue.offer(msg(0, [1, 2]));
    queue.offer(msg(1, [3]));
    d.schedule();
    await tick(5);
    expect(sent).toHaveLength(0);
    await tick(60);
    expect(sent.map((s) => Array.from(s.batch.series))).toEqual([[3, 1, 2]]);
    expect(d.inFlight?.weight).toBe(3);
    // in flight: nothing else goes until it is answered, however much waits
    for (const [qos, s] of [
      [0, 5],
      [0, 6],
      [1, 7],
      [1, 8],
      [1, 9],
    ] as const)
      queue.offer(msg(qos, [s]));
    d.schedule();
    expect(d.dispatch()).toBe(false);
    await tick(60);
    expect(sent).toHaveLength(1);
    answer();
    expect(d.inFlight).toBeNull();
    // the answer found more queued: the next batches go at once, without waiting for the timer
    await nextImmediate();
    answer();
    await nextImmediate();
    expect(sent.map((s) => Array.from(s.batch.series))).toEqual([[3, 1, 2], [7, 8, 9, 5], [6]]);
    expect(sent.map((s) => s.batch.id)).toEqual([1, 2, 3]);
  });

  it('sends at once, before the flush interval, when maxBatchPoints wait', async () => {
    const { d, queue, sent } = setUp({ flushIntervalMs: 60_000 });
    queue.offer(msg(0, [1, 2, 3, 4]));
    d.schedule();
    await nextImmediate();
    expect(sent).toHaveLength(1);
  });

  it('sends nothing before the storage-fault pause ends, however much waits', async () => {
    let retryAt = performance.now() + 80;
    const { d, queue, sent } = setUp({ retryAt: () => retryAt });
    queue.offer(msg(1, [1, 2, 3, 4, 5]));
    d.schedule();
    await tick(30);
    expect(sent).toHaveLength(0);
    for (let i = 0; i < 50 && sent.length === 0; i++) await tick(10);
    expect(sent).toHaveLength(1);
    retryAt = 0;
  });

  it(`merges a rollup round in chunks of about ${ROLLUP_CHUNK_ROWS} rows of whole series, one chunk per batch`, async () => {
    let clock = 0;
    const { d, rollups, sent, answer } = setUp({ now: () => clock, rollupFlushMs: 1000 });
    // 1,200 series with one point each: a minute and an hour row each, 500 series per chunk
    for (let s = 1; s <= 1200; s++) rollups.add(s, 1, 1);
    expect(d.dispatch()).toBe(false); // the round is not due before rollupFlushMs
    clock = 1000;
    const rows = () => sent.map((s) => (s.batch.rollups ? s.batch.rollups.minute.length / ROLLUP_ROW : 0));
    expect(d.dispatch()).toBe(true);
    answer(); // the round runs on: the next chunk goes at once
    rollups.snapshotStored();
    await nextImmediate();
    answer();
    rollups.snapshotStored();
    await nextImmediate();
    answer();
    rollups.snapshotStored();
    expect(rows()).toEqual([500, 500, 200]);
    expect(rollups.hasPending).toBe(false);
  });

  it('settled() resolves once the batch in flight is answered, and at once with none', async () => {
    const { d, queue, answer } = setUp();
    await d.settled();
    queue.offer(msg(0, [1]));
    expect(d.dispatch()).toBe(true);
    let resolved = false;
    void d.settled().then(() => (resolved = true));
    await tick(5);
    expect(resolved).toBe(false);
    answer();
    await tick(0);
    expect(resolved).toBe(true);
  });

  it('after stop, sets no timer any more: what is queued goes only through dispatch (the drain)', async () => {
    const { d, queue, sent } = setUp();
    d.stop();
    queue.offer(msg(0, [1]));
    d.schedule();
    await tick(20);
    expect(sent).toHaveLength(0);
    expect(d.hurrying).toBe(true);
    expect(d.dispatch()).toBe(true);
    expect(sent).toHaveLength(1);
  });
});
