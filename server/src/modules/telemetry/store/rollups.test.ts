import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { findUp } from '../../../platform/db/sqlite.js';
import { createTelemetryReads, type SeriesView } from '../read/reads.js';
import { createRollupKeeper } from './rollups.js';
import { createBatchStore } from './write-batch.js';
import { toBatch } from './batch.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0);
const series: SeriesView = {
  id: 5,
  deviceId: 1,
  sensor: 's',
  configtype: 'c',
  param: 'p',
  subparam: '',
  datatype: 'number',
};

function setup() {
  const sqlite = new Database(':memory:');
  migrate(drizzle(sqlite), { migrationsFolder: findUp('drizzle', import.meta.url) });
  const rollups = createRollupKeeper('w-test');
  const reads = createTelemetryReads(sqlite, { rollups });
  const store = createBatchStore(sqlite);
  const minute = () =>
    reads.rollups(series, { bucket: 'minute', start: T0, end: T0 + 60_000 }).map((b) => [b.count, b.sum, b.min, b.max]);
  return { rollups, store, minute, reads };
}

describe('rollup deltas in flight', () => {
  it('count exactly once before, during and after the writer stores them', () => {
    const { rollups, store, minute } = setup();
    rollups.add(5, T0 + 1000, 2);
    rollups.add(5, T0 + 2000, 4);
    expect(minute()).toEqual([[2, 6, 2, 4]]);
    const snapshot = rollups.snapshot()!;
    expect(rollups.snapshot()).toBeNull(); // one in flight at a time
    rollups.add(5, T0 + 3000, 10); // arrives while the snapshot is being written
    expect(minute()).toEqual([[3, 16, 2, 10]]);
    // the writer thread committed, its answer not yet handled: the table and the generation say so
    store.write(toBatch(1, [], snapshot).batch);
    expect(minute()).toEqual([[3, 16, 2, 10]]);
    rollups.snapshotStored();
    expect(minute()).toEqual([[3, 16, 2, 10]]);
  });

  it('fold back into the pending deltas when the write fails', () => {
    const { rollups, minute } = setup();
    rollups.add(5, T0 + 1000, 2);
    rollups.snapshot();
    rollups.add(5, T0 + 2000, 3);
    rollups.snapshotFailed();
    expect(rollups.pendingBuckets).toBe(2); // the minute and the hour bucket, merged
    expect(minute()).toEqual([[2, 5, 2, 3]]);
    expect(rollups.snapshot()!.minute.slice(2, 4)).toEqual(Float64Array.from([2, 5]));
  });

  it('keep one bucket per minute across flushes and minute boundaries, late points included, each counted once', () => {
    const { rollups, store, minute, reads } = setup();
    const second = () =>
      reads
        .rollups(series, { bucket: 'minute', start: T0 + 60_000, end: T0 + 120_000 })
        .map((b) => [b.count, b.sum, b.min, b.max]);
    rollups.add(5, T0 + 59_000, 1);
    rollups.add(5, T0 + 61_000, 2); // the next minute, the first still pending
    let s = rollups.snapshot()!;
    expect([s.minute.length / 10, s.hour.length / 10]).toEqual([2, 1]);
    store.write(toBatch(1, [], s).batch);
    rollups.snapshotStored();
    rollups.add(5, T0 + 62_000, 4);
    rollups.add(5, T0 + 30_000, 8); // late, for the first minute
    expect(rollups.pendingBuckets).toBe(3);
    expect([minute(), second()]).toEqual([[[2, 9, 1, 8]], [[2, 6, 2, 4]]]);
    s = rollups.snapshot()!;
    expect(Array.from(s.minute.filter((_, i) => i % 10 === 1)).sort()).toEqual([T0, T0 + 60_000]);
    store.write(toBatch(2, [], s).batch);
    rollups.snapshotStored();
    expect([minute(), second(), rollups.pendingBuckets]).toEqual([[[2, 9, 1, 8]], [[2, 6, 2, 4]], 0]);
  });

  it('hold a third bucket of a series beside the two kept in columns (a late point), through a failed write too', () => {
    const { rollups, store, minute, reads } = setup();
    const range = () =>
      reads.rollups(series, { bucket: 'minute', start: T0, end: T0 + 180_000 }).map((b) => [b.ts - T0, b.count, b.sum]);
    rollups.add(5, T0 + 61_000, 2);
    rollups.add(5, T0 + 121_000, 3);
    rollups.add(5, T0 + 1_000, 1); // late, a third minute
    rollups.add(5, T0 + 2_000, 4);
    expect(range()).toEqual([
      [0, 2, 5],
      [60_000, 1, 2],
      [120_000, 1, 3],
    ]);
    rollups.snapshot();
    rollups.add(5, T0 + 3_000, 1);
    rollups.snapshotFailed();
    expect([rollups.pendingBuckets, minute()]).toEqual([4, [[3, 6, 1, 4]]]);
    const s = rollups.snapshot()!;
    expect(s.minute.length / 10).toBe(3);
    store.write(toBatch(1, [], s).batch);
    rollups.snapshotStored();
    expect([range(), rollups.hasPending]).toEqual([
      [
        [0, 3, 6],
        [60_000, 1, 2],
        [120_000, 1, 3],
      ],
      false,
    ]);
  });

  it('go to the writer in chunks of whole series, each counted once throughout', () => {
    const { rollups, store, minute } = setup();
    for (let id = 1; id <= 10; id++) rollups.add(id, T0 + id, id);
    rollups.add(5, T0 + 100, 1);
    const first = rollups.snapshot(4)!; // two series: their minute and hour rows
    expect(first.minute.length / 10 + first.hour.length / 10).toBe(4);
    expect(rollups.pendingSeries).toBe(8);
    const once = [[2, 6, 1, 5]]; // series 5, the one `minute` reads: pending, in flight or stored, counted once
    expect(minute()).toEqual(once);
    store.write(toBatch(1, [], first).batch);
    rollups.snapshotStored();
    let chunks = 1;
    for (let s = rollups.snapshot(4); s; s = rollups.snapshot(4), chunks++) {
      expect(minute()).toEqual(once);
      store.write(toBatch(chunks + 1, [], s).batch);
      expect(minute()).toEqual(once);
      rollups.snapshotStored();
    }
    expect(minute()).toEqual(once);
    expect(chunks).toBe(5);
    expect(rollups.hasPending).toBe(false);
  });
});
