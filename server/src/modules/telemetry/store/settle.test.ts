import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../platform/log.js';
import type { CommittedTelemetry, TelemetryMessage } from '../message.js';
import { createRecentPoints } from '../read/recent.js';
import type { InFlight } from './dispatch.js';
import { createRollupKeeper } from './rollups.js';
import type { SeriesInfo } from './series.js';
import { BatchSettle, MAX_WRITE_ATTEMPTS, STORAGE_RETRY_MAX_MS, STORAGE_RETRY_MIN_MS } from './settle.js';
import { emptyWriteResult, type WriteResult } from './write-batch.js';
import { WriteQueue } from './write-queue.js';
import { createWriterStats } from './writer-stats.js';

const msg = (deviceId: number, points: [number, number][]): TelemetryMessage => ({
  appId: 1,
  deviceId,
  qos: 1,
  receivedAt: 5,
  states: [],
  points: points.map(([seriesId, ts]) => ({ seriesId, ts, num: ts, text: null })),
});
const seriesInfo = (id: number, datatype: SeriesInfo['datatype']): SeriesInfo => ({
  id,
  appId: 1,
  deviceId: 1,
  sensor: 's',
  configtype: 'c',
  param: 'p',
  subparam: '',
  datatype,
  latest: null,
  lastStampedTs: 0,
});
const ok = (extra: Partial<WriteResult> = {}): WriteResult => ({ ...emptyWriteResult(1), ms: 2, ...extra });

function setUp() {
  const logged: string[] = [];
  const log: Logger = {
    debug: () => {},
    info: () => {},
    warn: (m) => void logged.push(`warn ${m}`),
    error: (m) => void logged.push(`error ${m}`),
  };
  const queue = new WriteQueue({ maxQueuedPoints: 1000, hardMaxQueuedPoints: 2000 });
  const recent = createRecentPoints();
  const rollups = createRollupKeeper('t');
  const series = new Map([
    [1, seriesInfo(1, 'number')],
    [2, seriesInfo(2, 'string')],
  ]);
  const stats = createWriterStats(queue, null, { threaded: false, journal: true });
  const commits: CommittedTelemetry[][] = [];
  const settled: [TelemetryMessage, boolean][] = [];
  const refused: [number, number][] = [];
  const s = new BatchSettle({
    queue,
    series: { byId: (id) => series.get(id) },
    rollups,
    recent,
    compaction: null,
    storedAt: (seriesId, ts) => seriesId === 1 && ts === 2,
    stats,
    log,
    now: () => 42,
    onCommit: (b) => void commits.push(b),
    onSettled: (m, stored) => void settled.push([m, stored]),
    onStatesRefused: (deviceId, count) => void refused.push([deviceId, count]),
  });
  /** queues the messages and takes them as one batch in flight */
  const flight = (...messages: TelemetryMessage[]): InFlight => {
    for (const m of messages) queue.offer(m);
    const { messages: taken, weight } = queue.take(10_000);
    return { messages: taken, points: taken.flatMap((m) => m.points), weight, rollups: null, chunk: null, sentAt: 0 };
  };
  return { s, queue, recent, rollups, series, stats, commits, settled, refused, logged, flight };
}

describe('settling a committed batch', () => {
  it('keeps the points in memory, the latest values and the rollup deltas, settles every message as stored and tells the listeners', () => {
    const { s, queue, recent, rollups, series, stats, commits, settled, flight } = setUp();
    const a = msg(7, [
      [1, 10],
      [2, 10],
    ]);
    const b = msg(8, [[1, 11]]);
    const f = flight(a, b);
    s.settle(f, null, ok());
    expect(recent.size).toBe(3);
    expect(series.get(1)!.latest).toEqual({ ts: 11, num: 11, text: null });
    // a number rolls up, a text does not
    expect(rollups.pendingSeries).toBe(1);
    expect(settled).toEqual([
      [a, true],
      [b, true],
    ]);
    expect(commits).toEqual([
      [
        { appId: 1, deviceId: 7, receivedAt: 5, committedAt: 42, points: a.points, states: [] },
        { appId: 1, deviceId: 8, receivedAt: 5, committedAt: 42, points: b.points, states: [] },
      ],
    ]);
    expect(queue.points).toBe(0);
    expect(stats).toMatchObject({ batches: 1, stored_points: 3, duplicate_points: 0, recent_points: 3 });
  });

  it('drops duplicates: those the store named, and a point not newest that is already held or stored (the first one stays)', () => {
    const { s, recent, stats, commits, flight } = setUp();
    s.settle(flight(msg(7, [[1, 10]])), null, ok());
    // point 0 the store found stored; (1, 10) is held; (1, 2) is in the clustered table; (1, 5) is new though older
    const m = msg(7, [
      [2, 1],
      [1, 10],
      [1, 2],
      [1, 5],
    ]);
    s.settle(flight(m), null, ok({ duplicates: Int32Array.from([0]) }));
    expect(commits[1]![0]!.points).toEqual([m.points[3]]);
    expect(recent.size).toBe(2);
    expect(stats).toMatchObject({ stored_points: 2, duplicate_points: 3 });
  });

  it('reports the states the store refused by device, and a message that stored nothing new reaches no listener', () => {
    const { s, commits, refused, settled, flight } = setUp();
    const m: TelemetryMessage = { ...msg(9, []), states: [{ key: 'power', value: 'ON', ts: 1 }] };
    s.settle(flight(m), null, ok({ refusedStates: [{ msg: 0, count: 1 }] }));
    expect(refused).toEqual([[9, 1]]);
    expect(commits).toEqual([]);
    expect(settled).toEqual([[m, true]]);
  });
});

describe('settling a failed batch', () => {
  it('on a storage fault: requeues the batch, pauses 100 ms doubling up to 5 s, says so once, and once when the storage recovers', () => {
    const { s, queue, stats, settled, logged, flight } = setUp();
    const m = msg(7, [[1, 1]]);
    let f = flight(m);
    const pauses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = performance.now();
      s.settle(f, Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
      pauses.push(Math.round((s.retryAt - before) / 100) * 100);
      expect(queue.messages).toBe(1);
      f = { ...f, ...queue.take(10_000) };
    }
    expect(pauses).toEqual([100, 200, 400, 800, 1600, 3200, STORAGE_RETRY_MAX_MS, STORAGE_RETRY_MAX_MS]);
    expect(pauses[0]).toBe(STORAGE_RETRY_MIN_MS);
    expect(stats).toMatchObject({ storage_faults: 8, storage_faulting: true, failed_points: 0 });
    expect(settled).toEqual([]);
    expect(logged.filter((l) => l.startsWith('error telemetry storage failing'))).toHaveLength(1);
    s.settle(f, null, ok());
    expect(s.retryAt).toBe(0);
    expect(stats.storage_faulting).toBe(false);
    expect(logged.at(-1)).toMatch(/^warn telemetry storage writable again after .* s: ingest acknowledges again/);
    expect(settled).toEqual([[m, true]]);
  });

  it(`on another failure: retries, then gives the batch up unacknowledged after ${MAX_WRITE_ATTEMPTS} attempts`, () => {
    const { s, queue, stats, settled, flight } = setUp();
    const m = msg(7, [
      [1, 1],
      [1, 2],
    ]);
    let f = flight(m);
    for (let i = 1; i < MAX_WRITE_ATTEMPTS; i++) {
      s.settle(f, new Error('constraint failed'));
      expect(queue.messages, `attempt ${i} requeues`).toBe(1);
      f = { ...f, ...queue.take(10_000) };
    }
    expect(s.retryAt).toBe(0);
    s.settle(f, new Error('constraint failed'));
    expect(queue.messages).toBe(0);
    expect(queue.points).toBe(0);
    expect(settled).toEqual([[m, false]]);
    expect(stats).toMatchObject({ failed_batches: MAX_WRITE_ATTEMPTS, failed_points: 2 });
  });

  it("puts a failed batch's rollup deltas back as pending", () => {
    const { s, rollups, flight } = setUp();
    rollups.add(1, 1, 1);
    const f = { ...flight(msg(7, [[1, 1]])), rollups: rollups.snapshot() };
    expect(rollups.pendingSeries).toBe(0);
    s.settle(f, new Error('constraint failed'));
    expect(rollups.pendingSeries).toBe(1);
  });
});
