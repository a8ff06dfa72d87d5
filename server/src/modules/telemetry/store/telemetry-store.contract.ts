// What every telemetry store answers, whatever its engine: one suite, run by telemetry-store.sqlite.test.ts and
// telemetry-store.pg.test.ts with the same expectations. Each test opens a store of its own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_STATE_KEYS_PER_DEVICE, type StateChange } from '../../states/states.store.js';
import type { TelemetryMessage, TelemetryPoint } from '../message.js';
import { toBatch } from './batch.js';
import { BUCKET_MS, bucketOf, createRollupKeeper, type RollupBucket, type RollupSnapshot } from './rollups.js';
import { DAY_MS, type TelemetryStore } from './telemetry-store.js';
import type { WriteBatch, WriteResult } from './write-batch.js';

export interface StoreUnderTest {
  store: TelemetryStore;
  /** SQL both engines run ('?' placeholders) */
  run(sql: string, params?: unknown[]): Promise<void>;
  rows(sql: string, params?: unknown[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

export const append = (store: TelemetryStore, batch: WriteBatch): Promise<WriteResult> =>
  new Promise((resolve, reject) => store.executor.submit(batch, (err, r) => (err ? reject(err) : resolve(r!))));

export const message = (
  points: TelemetryPoint[],
  states: StateChange[] = [],
  device = { appId: 1, deviceId: 1 },
): TelemetryMessage => ({ ...device, qos: 1, receivedAt: 0, points, states });

export const num = (seriesId: number, ts: number, v: number): TelemetryPoint => ({ seriesId, ts, num: v, text: null });

export const batchOf = (id: number, messages: TelemetryMessage[], rollups: RollupSnapshot | null = null) =>
  toBatch(id, messages, rollups).batch;

/** aggregates of points as the rollups keep them, per bucket of `size` */
function expectedBuckets(points: TelemetryPoint[], size: number): RollupBucket[] {
  const out = new Map<number, RollupBucket>();
  for (const p of [...points].sort((a, b) => a.ts - b.ts)) {
    const v = p.num!;
    const at = bucketOf(p.ts, size);
    const b = out.get(at);
    if (!b)
      out.set(at, { bucketTs: at, count: 1, sum: v, min: v, max: v, first: v, firstTs: p.ts, last: v, lastTs: p.ts });
    else {
      b.count++;
      b.sum += v;
      b.min = Math.min(b.min, v);
      b.max = Math.max(b.max, v);
      b.last = v;
      b.lastTs = p.ts;
    }
  }
  return [...out.values()].sort((a, b) => a.bucketTs - b.bucketTs);
}

const SERIES_INSERT =
  'insert into telemetry_series (id, app_id, device_id, sensor, configtype, param, subparam, datatype, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, 0)';

export function telemetryStoreContract(engine: string, open: () => Promise<StoreUnderTest>): void {
  describe(`telemetry store contract: ${engine}`, () => {
    let t: StoreUnderTest;
    beforeEach(async () => {
      t = await open();
    });
    afterEach(async () => {
      await t.close();
    });

    it('reads back what it appended: windows oldest and newest first, limits, the last point, text and null num', async () => {
      const { store } = t;
      const base = 1_700_000_000_000;
      const texts = ['plain', 'quote " and \\ backslash', '{"a":[1,2]}', 'comma, {brace}\nline', 'ünï ✓ NULL'];
      const r = await append(
        store,
        batchOf(1, [
          message(Array.from({ length: 10 }, (_, i) => num(1, base + i * 1000, i - 4.25))),
          message(texts.map((text, i) => ({ seriesId: 2, ts: base + i, num: null, text }))),
          message([{ seriesId: 3, ts: base, num: 1, text: '1' }]),
        ]),
      );
      expect(Array.from(r.duplicates)).toEqual([]);
      expect(r.id).toBe(1);
      expect(await store.points.oldest(1, base + 2000, base + 5000, 10)).toEqual([
        [base + 2000, -2.25, null],
        [base + 3000, -1.25, null],
        [base + 4000, -0.25, null],
        [base + 5000, 0.75, null],
      ]);
      expect(await store.points.oldest(1, base + 2000, base + 5000, 2.7)).toEqual([
        [base + 2000, -2.25, null],
        [base + 3000, -1.25, null],
      ]);
      expect(await store.points.newest(1, base + 2000, base + 5000, 2)).toEqual([
        [base + 5000, 0.75, null],
        [base + 4000, -0.25, null],
      ]);
      expect(await store.points.oldest(1, base + 5000, base + 2000, 10)).toEqual([]);
      expect(await store.points.newest(1, base, base + 9000, 0)).toEqual([]);
      expect(await store.points.oldest(2, base, base + 10, 100)).toEqual(
        texts.map((text, i) => [base + i, null, text]),
      );
      expect(await store.points.last(1)).toEqual([base + 9000, 4.75, null]);
      expect(await store.points.last(3)).toEqual([base, 1, '1']);
      expect(await store.points.last(99)).toBeNull();
      expect(await store.points.latest([3, 99, 1, 2])).toEqual([
        [base, 1, '1'],
        null,
        [base + 9000, 4.75, null],
        [base + 4, null, texts[4]],
      ]);
      expect(await store.points.latest([])).toEqual([]);
    });

    it('answers a replayed batch as duplicates and stores nothing twice; of a (series, ts) twice, the first stays', async () => {
      const { store } = t;
      const first = batchOf(1, [message([num(1, 100, 1), num(1, 200, 2)]), message([num(2, 100, 3)])]);
      expect(Array.from((await append(store, first)).duplicates)).toEqual([]);
      const replay = batchOf(1, [message([num(1, 100, 1), num(1, 200, 2)]), message([num(2, 100, 3)])]);
      expect(Array.from((await append(store, replay)).duplicates).sort()).toEqual([0, 1, 2]);
      // points 0 and 1 share (1, 300): the second is the duplicate; point 2 is stored already
      const r = await append(store, batchOf(2, [message([num(1, 300, 7), num(1, 300, 8), num(1, 100, 9)])]));
      expect(Array.from(r.duplicates)).toEqual([2, 1]);
      expect(await store.points.oldest(1, 0, 1000, 10)).toEqual([
        [100, 1, null],
        [200, 2, null],
        [300, 7, null],
      ]);
      expect(await t.rows('select count(*) from telemetry_points')).toEqual([[4]]);
    });

    it('merges rollup snapshots additively: after two, the buckets are the aggregates of every point', async () => {
      const { store } = t;
      const keeper = createRollupKeeper('w1');
      const hour = 1_700_002_800_000; // an hour's start
      const points1 = [num(5, hour + 1_000, 3), num(5, hour + 30_000, -1), num(5, hour + 61_000, 10), num(6, hour, 2)];
      const points2 = [
        num(5, hour + 500, 7), // earlier than the bucket's first: the new first
        num(5, hour + 59_999, 0.5), // the minute's new last
        num(5, hour + 3_600_000 + 5, 4), // the next hour
        num(6, hour, 3), // same timestamp as the stored one (a tie): first stays, last taken from the newer delta
      ];
      const flush = async (id: number, points: TelemetryPoint[]) => {
        for (const p of points) keeper.add(p.seriesId, p.ts, p.num!);
        const snapshot = keeper.snapshot()!;
        const r = await append(store, batchOf(id, [], snapshot));
        keeper.snapshotStored();
        return r;
      };
      expect((await flush(1, points1)).rollupRows).toBe(3 + 2);
      expect((await flush(2, points2)).rollupRows).toBe(3 + 3);

      const all = [...points1, ...points2];
      for (const level of ['minute', 'hour'] as const) {
        for (const s of [5, 6]) {
          const stored = await store.rollups.read(level, s, hour, hour + 2 * 3_600_000, 'w1');
          expect(stored.rows).toEqual(
            expectedBuckets(
              all.filter((p) => p.seriesId === s),
              BUCKET_MS[level],
            ),
          );
          expect(stored.generation).toBe(2);
        }
      }
      // the window's bounds: start included, end excluded
      const minutes = await store.rollups.read('minute', 5, hour + 60_000, hour + 3_600_000, 'w1');
      expect(minutes.rows.map((b) => b.bucketTs)).toEqual([hour + 60_000]);
      expect(await store.rollups.read('minute', 5, hour, hour + 1, 'other')).toMatchObject({ generation: 0 });
      expect((await store.rollups.read('hour', 5, hour, hour + 1)).generation).toBe(0);
      expect(await store.rollups.read('hour', 99, hour, hour + 1, 'w1')).toEqual({ rows: [], generation: 2 });
    });

    it('merges a snapshot holding one bucket twice as two deltas', async () => {
      const row = (count: number, sum: number, first: number, firstTs: number, last: number, lastTs: number) => [
        8,
        60_000,
        count,
        sum,
        Math.min(first, last),
        Math.max(first, last),
        first,
        firstTs,
        last,
        lastTs,
      ];
      const minute = Float64Array.from([...row(2, 3, 1, 60_001, 2, 60_005), ...row(1, 7, 7, 60_000, 7, 60_000)]);
      await append(t.store, batchOf(1, [], { writer: 'w1', generation: 1, minute, hour: new Float64Array(0) }));
      expect((await t.store.rollups.read('minute', 8, 0, 120_000)).rows).toEqual([
        { bucketTs: 60_000, count: 3, sum: 10, min: 1, max: 7, first: 7, firstTs: 60_000, last: 2, lastTs: 60_005 },
      ]);
    });

    it('applies states as value periods: a repeat extends, a change opens, a late report is ignored', async () => {
      const { store } = t;
      const d7 = { appId: 1, deviceId: 7 };
      const r1 = await append(
        store,
        batchOf(1, [
          message(
            [],
            [
              { key: 'a', value: '1', ts: 10 },
              { key: 'b', value: '"x"', ts: 10 },
            ],
            d7,
          ),
          message(
            [],
            [
              { key: 'a', value: '1', ts: 20 },
              { key: 'b', value: '"y"', ts: 15 },
              { key: 'a', value: '2', ts: 5 },
            ],
            d7,
          ),
          message([], [{ key: 'a', value: null, ts: 10 }], { appId: 2, deviceId: 8 }),
        ]),
      );
      expect(r1.appliedStates).toEqual([
        {
          msg: 0,
          changes: [
            { key: 'a', value: '1', ts: 10 },
            { key: 'b', value: '"x"', ts: 10 },
          ],
        },
        {
          msg: 1,
          changes: [
            { key: 'a', value: '1', ts: 20 },
            { key: 'b', value: '"y"', ts: 15 },
          ],
        },
        { msg: 2, changes: [{ key: 'a', value: null, ts: 10 }] },
      ]);
      expect(r1.refusedStates).toEqual([]);
      // in one batch: a change, its repeat and another change at the same time
      await append(
        store,
        batchOf(2, [
          message(
            [],
            [
              { key: 'a', value: '3', ts: 30 },
              { key: 'a', value: '3', ts: 40 },
              { key: 'a', value: '4', ts: 40 },
              { key: 'b', value: '"y"', ts: 16 },
            ],
            d7,
          ),
        ]),
      );
      expect(
        await t.rows(
          'select device_id, app_id, key, value, initial_ts, latest_ts from device_states order by device_id, key',
        ),
      ).toEqual([
        [7, 1, 'a', '4', 40, 40],
        [7, 1, 'b', '"y"', 15, 16],
        [8, 2, 'a', null, 10, 10],
      ]);
      expect(
        await t.rows(
          'select device_id, key, initial_ts, value, latest_ts from device_state_history order by device_id, key, initial_ts',
        ),
      ).toEqual([
        [7, 'a', 10, '1', 20],
        [7, 'a', 30, '3', 40],
        [7, 'a', 40, '4', 40],
        [7, 'b', 10, '"x"', 10],
        [7, 'b', 15, '"y"', 16],
        [8, 'a', 10, null, 10],
      ]);
    });

    it("refuses a device's new keys past its bound and keeps applying the keys it holds", async () => {
      const { store } = t;
      const d9 = { appId: 1, deviceId: 9 };
      const keys = Array.from({ length: MAX_STATE_KEYS_PER_DEVICE + 1 }, (_, i) => ({
        key: `k${i}`,
        value: '1',
        ts: 1,
      }));
      const r = await append(
        store,
        batchOf(1, [message([], keys.slice(0, 600), d9), message([], keys.slice(600), d9)]),
      );
      expect(r.appliedStates.map((a) => a.changes.length)).toEqual([600, MAX_STATE_KEYS_PER_DEVICE - 600]);
      expect(r.refusedStates).toEqual([{ msg: 1, count: 1 }]);
      const next = await append(
        store,
        batchOf(2, [
          message(
            [],
            [
              { key: 'k0', value: '2', ts: 2 },
              { key: 'new', value: '1', ts: 2 },
            ],
            d9,
          ),
          message([], [{ key: 'new', value: '1', ts: 2 }], { appId: 1, deviceId: 10 }),
        ]),
      );
      expect(next.appliedStates).toEqual([
        { msg: 0, changes: [{ key: 'k0', value: '2', ts: 2 }] },
        { msg: 1, changes: [{ key: 'new', value: '1', ts: 2 }] },
      ]);
      expect(next.refusedStates).toEqual([{ msg: 0, count: 1 }]);
      expect(
        await t.rows('select device_id, count(*) from device_states group by device_id order by device_id'),
      ).toEqual([
        [9, MAX_STATE_KEYS_PER_DEVICE],
        [10, 1],
      ]);
    });

    it('stores nothing of a batch that fails part-way (points, rollups, generation, states)', async () => {
      const { store } = t;
      const keeper = createRollupKeeper('w1');
      keeper.add(1, 60_000, 1);
      const bad = batchOf(
        1,
        [
          message([num(1, 60_000, 1)], [{ key: 'ok', value: '1', ts: 1 }]),
          // a timestamp no engine stores (NOT NULL / bigint): fails after the points went in
          message([], [{ key: 'bad', value: '1', ts: Number.NaN }], { appId: 1, deviceId: 2 }),
        ],
        keeper.snapshot(),
      );
      await expect(append(store, bad)).rejects.toThrow();
      expect(await t.rows('select count(*) from telemetry_points')).toEqual([[0]]);
      expect(await t.rows('select count(*) from telemetry_rollup_minute')).toEqual([[0]]);
      expect(await t.rows('select count(*) from telemetry_writer_state')).toEqual([[0]]);
      expect(await t.rows('select count(*) from device_states')).toEqual([[0]]);
      // the store takes the next batch
      expect(Array.from((await append(store, batchOf(2, [message([num(1, 60_000, 1)])]))).duplicates)).toEqual([]);
    });

    it('finds series by key inside their application: one key, a param’s subparams in byte order, a device’s ids', async () => {
      const { store } = t;
      const subparams = ['b', 'B', 'a', '10', '9', '_x', 'ä'];
      let id = 40;
      for (const sub of subparams) await t.run(SERIES_INSERT, [id--, 1, 7, 'env', 'cfg', 'temp', sub, 'number']);
      await t.run(SERIES_INSERT, [50, 1, 7, 'env', 'cfg', 'hum', '', 'number']);
      await t.run(SERIES_INSERT, [60, 2, 8, 'env', 'cfg', 'temp', 'a', 'string']);
      expect(await store.series.byKey(1, 7, 'env', 'cfg', 'hum', '')).toEqual({
        id: 50,
        deviceId: 7,
        sensor: 'env',
        configtype: 'cfg',
        param: 'hum',
        subparam: '',
        datatype: 'number',
      });
      // another application's device is not found through this one
      expect(await store.series.byKey(1, 8, 'env', 'cfg', 'temp', 'a')).toBeUndefined();
      expect((await store.series.byKey(2, 8, 'env', 'cfg', 'temp', 'a'))?.id).toBe(60);
      expect((await store.series.ofParam(1, 7, 'env', 'cfg', 'temp')).map((s) => s.subparam)).toEqual([
        '10',
        '9',
        'B',
        '_x',
        'a',
        'b',
        'ä',
      ]);
      expect(await store.series.ofParam(2, 7, 'env', 'cfg', 'temp')).toEqual([]);
      expect(await store.series.idsOfDevice(1, 7)).toEqual([34, 35, 36, 37, 38, 39, 40, 50]);
      expect(await store.series.idsOfDevice(2, 7)).toEqual([]);
    });

    it('drops whole UTC days older than the day of the cutoff: points and rollups, newer ones kept', async () => {
      const { store } = t;
      const day = Date.UTC(2021, 5, 10);
      const keeper = createRollupKeeper('w1');
      const points = [
        num(1, day - 3 * DAY_MS + 5, 1),
        num(1, day - 2 * DAY_MS, 2),
        num(1, day - 1, 3), // the last millisecond before the cutoff's day
        num(1, day, 4),
        num(1, day + DAY_MS + 7, 5),
        num(2, day - 2 * DAY_MS + 9, 6),
        num(2, day + 5, 7),
      ];
      for (const p of points) keeper.add(p.seriesId, p.ts, p.num!);
      await append(store, batchOf(1, [message(points)], keeper.snapshot()));
      const r = await store.dropOlderThan(day + 6 * 3_600_000);
      expect(r.cutoff).toBe(day);
      expect(await t.rows('select series_id, ts from telemetry_points order by series_id, ts')).toEqual([
        [1, day],
        [1, day + DAY_MS + 7],
        [2, day + 5],
      ]);
      for (const table of ['telemetry_rollup_minute', 'telemetry_rollup_hour'])
        expect(await t.rows(`select series_id, bucket_ts from ${table} order by series_id, bucket_ts`)).toEqual([
          [1, day],
          [1, day + DAY_MS],
          [2, day],
        ]);
      // nothing more to drop
      expect((await store.dropOlderThan(day)).deletedRows).toBe(0);
    });
  });
}
