import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../../platform/db/sqlite.js';
import { createMemoryBus } from '../../../platform/bus/memory.js';
import { createLogger } from '../../../platform/log.js';
import * as schema from '../../../schema.js';
import type { MqttIdentity } from '../../../platform/mqtt/types.js';
import type { DeviceContext, DeviceResolver } from '../../devices/families/index.js';
import { createTelemetryPipeline, type TelemetryPipelineOptions } from './pipeline.js';
import { createTelemetryReads } from '../read/reads.js';

const log = createLogger('silent');
const T0 = Date.UTC(2024, 0, 1, 16, 58); // 23:58 in Jakarta: rollups cross a minute, an hour and a local day

/** devices 1..9 of app 1 (MQTT family), device 50 of app 2 (Tasmota, topic plug50); identity key `device:<id>` */
const resolver: DeviceResolver = {
  resolveDevice(identity: MqttIdentity): DeviceContext | null {
    const id = Number(identity.key.split(':')[1]);
    if (id >= 1 && id <= 9) return { deviceId: id, appId: 1, category: 8 };
    if (id === 50) return { deviceId: 50, appId: 2, category: 9, tasmotaTopic: 'plug50' };
    return null;
  },
};
const dev = (id: number): MqttIdentity => ({ key: `device:${id}` });
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

let cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** the writer mode of the describe block running: on its worker thread (a database file's default) or inline */
let writerThread = true;

function setup(
  extra: Partial<TelemetryPipelineOptions> = {},
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-tele-')),
) {
  const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  const bus = createMemoryBus(log);
  let clock = T0;
  const pipeline = createTelemetryPipeline({
    sqlite: handle.sqlite,
    bus,
    log,
    resolver,
    now: () => clock,
    rollupFlushMs: 50,
    writerThread,
    ...extra,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await pipeline.close();
    await bus.close();
    handle.close();
  };
  cleanup.push(async () => {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    pipeline,
    sqlite: handle.sqlite,
    dir,
    close,
    tick: (ms: number) => (clock += ms),
    at: (ts: number) => (clock = ts),
  };
}

/** deterministic pseudo-random values */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe.each([
  ['on its writer thread', true],
  ['inline', false],
])('telemetry pipeline, writing %s', (_mode, thread) => {
  beforeEach(() => {
    writerThread = thread;
  });
  it('commits many device messages in few transactions and stores every point with its datatype', async () => {
    const { pipeline, sqlite } = setup();
    for (let i = 0; i < 300; i++) {
      const outcome = pipeline.ingest(
        dev((i % 9) + 1),
        `d/${(i % 9) + 1}/data`,
        json({
          _ts: T0 + i * 1000,
          env: { data: { t: i, on: i % 2 === 0, label: `x${i}`, pos: { lat: -6.2, lng: 106.8 } } },
        }),
        1,
      );
      expect(outcome).toBe('queued');
    }
    await pipeline.flush();
    expect(sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(300 * 5);
    const m = pipeline.metrics() as Record<string, number>;
    expect(m.stored_points).toBe(1500);
    expect(m.batches).toBeLessThan(10);
    const s = pipeline.reads.findSeries(1, 1, { sensor: 'env', configtype: 'data', param: 'on' })!;
    expect(s.datatype).toBe('boolean');
    expect(pipeline.reads.latestN(s, 2)).toEqual([
      { ts: T0 + 297_000, value: false },
      { ts: T0 + 288_000, value: true },
    ]);
    const lat = pipeline.reads.findSeries(1, 1, { sensor: 'env', configtype: 'data', param: 'pos', subparam: 'lat' })!;
    expect(pipeline.reads.range(lat, T0, T0 + 9_000)).toEqual([
      { ts: T0, value: -6.2 },
      { ts: T0 + 9_000, value: -6.2 },
    ]);
    // another application never finds the series
    expect(pipeline.reads.findSeries(2, 1, { sensor: 'env', configtype: 'data', param: 'on' })).toBeNull();
    expect(pipeline.reads.latestOfDevice(2, 1)).toEqual([]);
  });

  it('keeps rollups equal to a recomputation from the raw points, out-of-order and duplicate points included', async () => {
    const { pipeline, sqlite, close, dir, at } = setup();
    at(T0 + 3 * 3_600_000); // the points are device-stated times of the last three hours
    const rand = rng(7);
    const sent: Array<[number, number]> = [];
    for (let i = 0; i < 400; i++) {
      // 400 points over ~2 hours 13 minutes, shuffled within ±3 minutes, 20 of them sent twice (QoS 1 redelivery)
      const ts = T0 + i * 20_000 + Math.floor((rand() - 0.5) * 360_000);
      const v = Math.round(rand() * 1000) / 10;
      sent.push([ts, v]);
      pipeline.ingest(dev(2), 'd/2/data', json({ _ts: ts, meter: { data: { kw: v } } }), 1);
      if (i % 20 === 0) pipeline.ingest(dev(2), 'd/2/data', json({ _ts: ts, meter: { data: { kw: v } } }), 1);
      if (i % 37 === 0) await pipeline.flush();
    }
    await pipeline.flush();
    const series = pipeline.reads.findSeries(1, 2, { sensor: 'meter', configtype: 'data', param: 'kw' })!;
    const recompute = (size: number, offset = 0) =>
      sqlite
        .prepare(
          `SELECT ((ts + ${offset}) / ${size}) * ${size} - ${offset} AS ts, count(*) AS count, sum(num) AS sum, min(num) AS min, max(num) AS max,
           (SELECT num FROM telemetry_points q WHERE q.series_id = p.series_id AND ((q.ts + ${offset}) / ${size}) = ((p.ts + ${offset}) / ${size}) ORDER BY ts LIMIT 1) AS first,
           (SELECT num FROM telemetry_points q WHERE q.series_id = p.series_id AND ((q.ts + ${offset}) / ${size}) = ((p.ts + ${offset}) / ${size}) ORDER BY ts DESC LIMIT 1) AS last
           FROM telemetry_points p WHERE series_id = ? GROUP BY (ts + ${offset}) / ${size} ORDER BY 1`,
        )
        .all(series.id) as Array<Record<string, number>>;
    const strip = (rows: Array<Record<string, number>>) =>
      rows.map((r) => ({
        ts: r.ts,
        count: r.count,
        sum: Math.round(r.sum * 1000) / 1000,
        min: r.min,
        max: r.max,
        first: r.first,
        last: r.last,
      }));
    const range = { start: T0 - 3_600_000, end: T0 + 4 * 3_600_000 };
    // read while deltas are still pending (overlay), then after they are merged
    expect(strip(pipeline.reads.rollups(series, { bucket: 'minute', ...range }) as never)).toEqual(
      strip(recompute(60_000)),
    );
    expect(strip(pipeline.reads.rollups(series, { bucket: 'hour', ...range }) as never)).toEqual(
      strip(recompute(3_600_000)),
    );
    const days = pipeline.reads.rollups(series, { bucket: 'day', ...range, timeZone: 'Asia/Jakarta' });
    expect(strip(days as never)).toEqual(strip(recompute(86_400_000, 7 * 3_600_000)));
    expect(days.map((d) => d.ts)).toEqual([Date.UTC(2023, 11, 31, 17), Date.UTC(2024, 0, 1, 17)]);
    expect(days.reduce((n, d) => n + d.count, 0)).toBe(400);
    expect((pipeline.metrics() as Record<string, number>).duplicate_points).toBe(20);
    const hours = strip(recompute(3_600_000));
    const minutes = strip(recompute(60_000));
    await close();
    // after a clean close every delta is on disk: a reader without the live overlay sees the same rollups
    const reopened = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    cleanup.push(() => reopened.close());
    const cold = createTelemetryReads(reopened.sqlite);
    expect(strip(cold.rollups(series, { bucket: 'hour', ...range }) as never)).toEqual(hours);
    expect(strip(cold.rollups(series, { bucket: 'minute', ...range }) as never)).toEqual(minutes);
  });

  it('keeps the latest-value cache equal to what is stored', async () => {
    const { pipeline, sqlite } = setup();
    for (let i = 0; i < 50; i++)
      pipeline.ingest(
        dev(3),
        'd/3/data',
        json({ _ts: T0 + ((i * 7919) % 50) * 1000, s: { data: { a: i, b: `v${i}` } } }),
        0,
      );
    await pipeline.flush();
    const cached = pipeline.reads.latestOfDevice(1, 3);
    const fromDisk = createTelemetryReads(sqlite).latestOfDevice(1, 3);
    expect(cached).toEqual(fromDisk);
    expect(cached.map((c) => [c.param, c.ts, c.data_exist])).toEqual([
      ['a', T0 + 49_000, true],
      ['b', T0 + 49_000, true],
    ]);
  });

  it('stamps receive-time points of one series a millisecond apart, never dropping one', async () => {
    const { pipeline } = setup();
    for (let i = 0; i < 5; i++) pipeline.ingest(dev(4), 'd/4/data', json({ s: { data: { n: i } } }));
    await pipeline.flush();
    const s = pipeline.reads.findSeries(1, 4, { sensor: 's', configtype: 'data', param: 'n' })!;
    expect(pipeline.reads.range(s, T0, T0 + 10)).toEqual([0, 1, 2, 3, 4].map((i) => ({ ts: T0 + i, value: i })));
  });

  it('commits everything queued when closed, even inside the batch window', async () => {
    const { pipeline, close, dir } = setup({ flushIntervalMs: 60_000 });
    for (let i = 0; i < 100; i++) pipeline.ingest(dev(5), 'd/5/data', json({ _ts: T0 + i, s: { data: { n: i } } }), 1);
    pipeline.ingest(dev(5), 'd/5/state', json({ mode: 'auto' }), 1);
    await close();
    expect(pipeline.ingest(dev(5), 'd/5/data', json({ s: { data: { n: 1 } } }))).toBe('closed');
    const reopened = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    cleanup.push(() => reopened.close());
    expect(reopened.sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(100);
    expect(reopened.sqlite.prepare('SELECT sum("count") FROM telemetry_rollup_hour').pluck().get()).toBe(100);
    expect(reopened.sqlite.prepare('SELECT value FROM device_states WHERE device_id = 5').pluck().get()).toBe('"auto"');
  });

  it('drops and counts malformed messages per device without throwing', async () => {
    const { pipeline, sqlite } = setup({ maxPayloadBytes: 1024 });
    expect(pipeline.ingest(dev(6), 'd/6/data', Buffer.from('not json'))).toBe('not_json');
    expect(pipeline.ingest(dev(6), 'd/6/data', json({ s: { data: 'flat' } }))).toBe('bad_shape');
    expect(pipeline.ingest(dev(6), 'd/6/data', Buffer.alloc(2048, 123))).toBe('too_large');
    expect(pipeline.ingest(dev(77), 'd/77/data', json({ s: { data: { n: 1 } } }))).toBe('unknown_device');
    expect(pipeline.ingest(dev(6), 'd/6/data', json({ s: { data: { n: 1 } } }))).toBe('queued');
    // the series is a number now: a string for it is dropped, the other point of the message kept
    expect(pipeline.ingest(dev(6), 'd/6/data', json({ s: { data: { n: 'satu', m: 2 } } }))).toBe('queued');
    await pipeline.flush();
    expect(sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(2);
    expect(pipeline.rejectsOf(6)).toMatchObject({ count: 4, last_reason: 'datatype_mismatch' });
    const m = pipeline.metrics() as { rejected: Record<string, number>; rejected_messages: number };
    expect(m.rejected).toEqual({ not_json: 1, bad_shape: 1, too_large: 1, unknown_device: 1, datatype_mismatch: 1 });
    expect(m.rejected_messages).toBe(4);
  });

  it('stores states with initial and latest time and their history as value periods', async () => {
    const { pipeline, tick } = setup();
    const t = T0;
    pipeline.ingest(dev(50), 'stat/plug50/RESULT', json({ POWER: 'ON' }));
    tick(1000);
    pipeline.ingest(dev(50), 'tele/plug50/STATE', json({ Time: 'x', UptimeSec: 10, POWER: 'ON' }));
    tick(1000);
    pipeline.ingest(dev(50), 'stat/plug50/POWER', Buffer.from('OFF'));
    tick(1000);
    pipeline.ingest(dev(50), 'stat/plug50/RESULT', json({ Alarm: null }));
    await pipeline.flush();
    expect(await pipeline.states.list(2, 50)).toEqual([
      { key: 'Alarm', value: null, is_null: true, initial_ts: t + 3000, latest_ts: t + 3000 },
      { key: 'POWER', value: 'OFF', is_null: false, initial_ts: t + 2000, latest_ts: t + 2000 },
    ]);
    expect(await pipeline.states.newest(2, 50, 'POWER', 10)).toEqual([
      { key: 'POWER', value: 'OFF', is_null: false, initial_ts: t + 2000, latest_ts: t + 2000 },
      { key: 'POWER', value: 'ON', is_null: false, initial_ts: t, latest_ts: t + 1000 },
    ]);
    expect((await pipeline.states.periodic(2, 50, 'POWER', t + 500, t + 5000)).rows.map((r) => r.value)).toEqual([
      'OFF',
      'ON',
    ]);
    expect(await pipeline.states.list(1, 50)).toEqual([]);
    expect(await pipeline.states.remove(1, 50, 'POWER')).toBe(false);
    expect(await pipeline.states.remove(2, 50, 'POWER')).toBe(true);
    expect(await pipeline.states.newest(2, 50, 'POWER', 10)).toEqual([]);
  });

  it('bounds the queue: QoS 0 is shed oldest first, acknowledged QoS 1 is kept up to the hard bound', async () => {
    const { pipeline, sqlite } = setup({
      maxQueuedPoints: 10,
      hardMaxQueuedPoints: 15,
      flushIntervalMs: 60_000,
      maxBatchPoints: 1000,
    });
    for (let i = 0; i < 8; i++) pipeline.ingest(dev(8), 'd/8/data', json({ _ts: T0 + i, q0: { data: { n: i } } }), 0);
    for (let i = 0; i < 16; i++) pipeline.ingest(dev(8), 'd/8/data', json({ _ts: T0 + i, q1: { data: { n: i } } }), 1);
    await new Promise((r) => setImmediate(r)); // the in-process bus delivers on the next turn
    const m = pipeline.metrics() as Record<string, number>;
    expect(m.shed_qos0_points).toBe(8);
    expect(m.refused_points).toBe(1);
    expect(m.queued_points).toBe(15);
    await pipeline.flush();
    const q1 = pipeline.reads.findSeries(1, 8, { sensor: 'q1', configtype: 'data', param: 'n' })!;
    expect(pipeline.reads.range(q1, T0, T0 + 100).map((p) => p.value)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    ]);
    expect(sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(15);
  });

  it('serves journaled points from memory on every read path until a round compacts them, then from the table', async () => {
    const { pipeline, sqlite } = setup({ compactEveryMs: 60_000 });
    for (let i = 0; i < 20; i++)
      pipeline.ingest(dev(2), 'd/2/data', json({ _ts: T0 + i * 1000, s: { data: { n: i, t: `t${i}` } } }), 1);
    await pipeline.flush({ compact: false });
    const count = (table: string) => sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    const journaled = () =>
      sqlite
        .prepare(
          'SELECT (SELECT coalesce(sum(points), 0) FROM telemetry_journal_0) + (SELECT coalesce(sum(points), 0) FROM telemetry_journal_1)',
        )
        .pluck()
        .get();
    expect(count('telemetry_points')).toBe(0);
    expect(journaled()).toBe(40);
    const n = pipeline.reads.findSeries(1, 2, { sensor: 's', configtype: 'data', param: 'n' })!;
    const reads = () => ({
      latestN: pipeline.reads.latestN(n, 3),
      range: pipeline.reads.range(n, T0 + 5000, T0 + 8000),
      newestInRange: pipeline.reads.newestInRange(n, T0, T0 + 15_000, 2),
      latest: pipeline.reads.latestOfDevice(1, 2).map((l) => [l.param, l.ts, l.value]),
      before: pipeline.points.newest(n.id, -Infinity, T0 + 9999, 1),
      oldest: pipeline.points.oldest(n.id, T0 + 18_000, T0 + 60_000, 10),
    });
    const held = reads();
    expect(held).toEqual({
      latestN: [19, 18, 17].map((i) => ({ ts: T0 + i * 1000, value: i })),
      range: [5, 6, 7, 8].map((i) => ({ ts: T0 + i * 1000, value: i })),
      newestInRange: [15, 14].map((i) => ({ ts: T0 + i * 1000, value: i })),
      latest: [
        ['n', T0 + 19_000, 19],
        ['t', T0 + 19_000, 't19'],
      ],
      before: [[T0 + 9000, 9, null]],
      oldest: [
        [T0 + 18_000, 18, null],
        [T0 + 19_000, 19, null],
      ],
    });
    await pipeline.flush();
    expect(count('telemetry_points')).toBe(40);
    expect(journaled()).toBe(0);
    expect(reads()).toEqual(held);
    expect(pipeline.metrics()).toMatchObject({ journal: true, compacted_points: 40, recent_points: 0 });
  });

  it('keeps the first of a (series, ts) sent twice, whether the first is held in memory or compacted', async () => {
    const { pipeline } = setup({ compactEveryMs: 60_000 });
    pipeline.ingest(dev(2), 'd/2/data', json({ _ts: T0, s: { data: { n: 1 } } }));
    pipeline.ingest(dev(2), 'd/2/data', json({ _ts: T0 + 1000, s: { data: { n: 2 } } }));
    await pipeline.flush({ compact: false });
    pipeline.ingest(dev(2), 'd/2/data', json({ _ts: T0, s: { data: { n: 99 } } }));
    await pipeline.flush();
    pipeline.ingest(dev(2), 'd/2/data', json({ _ts: T0 + 1000, s: { data: { n: 98 } } }));
    pipeline.ingest(dev(2), 'd/2/data', json({ _ts: T0 + 500, s: { data: { n: 3 } } }));
    await pipeline.flush({ compact: false });
    const n = pipeline.reads.findSeries(1, 2, { sensor: 's', configtype: 'data', param: 'n' })!;
    expect(pipeline.reads.range(n, T0, T0 + 2000).map((p) => p.value)).toEqual([1, 3, 2]);
    expect(pipeline.metrics()).toMatchObject({ duplicate_points: 2, stored_points: 3 });
  });

  it('compacts on its own every round, and a restart moves what a stopped process left in the journal', async () => {
    const first = setup({ compactEveryMs: 100 });
    for (let i = 0; i < 10; i++)
      first.pipeline.ingest(dev(3), 'd/3/data', json({ _ts: T0 + i, s: { data: { n: i } } }));
    await first.pipeline.flush({ compact: false });
    const storedNow = () => first.sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get();
    // the pipeline's clock moves on: a round starts, and is compacted at its pace
    for (let waited = 0; storedNow() !== 10 && waited < 3000; waited += 20)
      (first.tick(50), await new Promise((r) => setTimeout(r, 20)));
    expect(storedNow()).toBe(10);
    expect((first.pipeline.metrics() as { compaction_rounds: number }).compaction_rounds).toBeGreaterThanOrEqual(1);
    // points journaled and never compacted (as after a crash) are in the table before a new pipeline reads
    for (let i = 10; i < 15; i++)
      first.pipeline.ingest(dev(3), 'd/3/data', json({ _ts: T0 + i, s: { data: { n: i, t: `t${i}` } } }));
    await first.pipeline.flush({ compact: false });
    // journaled too, though dropped as a duplicate: the replay keeps the first as well
    first.pipeline.ingest(dev(3), 'd/3/data', json({ _ts: T0 + 12, s: { data: { n: 99, t: 'late' } } }));
    await first.pipeline.flush({ compact: false });
    expect(
      first.sqlite
        .prepare(
          'SELECT (SELECT coalesce(sum(points), 0) FROM telemetry_journal_0) + (SELECT coalesce(sum(points), 0) FROM telemetry_journal_1)',
        )
        .pluck()
        .get(),
    ).toBe(12);
    const second = setup({}, first.dir);
    const s = second.pipeline.reads.findSeries(1, 3, { sensor: 's', configtype: 'data', param: 'n' })!;
    const t = second.pipeline.reads.findSeries(1, 3, { sensor: 's', configtype: 'data', param: 't' })!;
    expect(second.sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(20);
    expect(second.sqlite.prepare('SELECT count(*) FROM telemetry_journal_0').pluck().get()).toBe(0);
    expect(second.pipeline.reads.latestN(s, 20).map((p) => p.value)).toEqual([
      14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]);
    expect(second.pipeline.reads.latestN(t, 20).map((p) => p.value)).toEqual(['t14', 't13', 't12', 't11', 't10']);
  });

  it('rebuilds, at the next start, the rollups a writer that stopped without closing left short', async () => {
    type Row = {
      series_id: number;
      bucket_ts: number;
      count: number;
      sum: number;
      min: number;
      max: number;
      first: number;
      first_ts: number;
      last: number;
      last_ts: number;
    };
    const rowsOf = (db: typeof first.sqlite, table: string) =>
      db
        .prepare(
          `SELECT series_id, bucket_ts, count, sum, min, max, first, first_ts, last, last_ts FROM ${table} ORDER BY series_id, bucket_ts`,
        )
        .all() as Row[];
    /** the rollup rows the stored points make, folded here point by point */
    const expected = (db: typeof first.sqlite, size: number): Row[] => {
      const out = new Map<string, Row>();
      for (const p of db
        .prepare('SELECT series_id, ts, num FROM telemetry_points WHERE num IS NOT NULL ORDER BY series_id, ts')
        .all() as { series_id: number; ts: number; num: number }[]) {
        const b = p.ts - (p.ts % size);
        const r = out.get(`${p.series_id}:${b}`);
        if (!r)
          out.set(`${p.series_id}:${b}`, {
            series_id: p.series_id,
            bucket_ts: b,
            count: 1,
            sum: p.num,
            min: p.num,
            max: p.num,
            first: p.num,
            first_ts: p.ts,
            last: p.num,
            last_ts: p.ts,
          });
        else
          Object.assign(r, {
            count: r.count + 1,
            sum: r.sum + p.num,
            min: Math.min(r.min, p.num),
            max: Math.max(r.max, p.num),
            last: p.num,
            last_ts: p.ts,
          });
      }
      return [...out.values()];
    };
    const base = Date.now() - (Date.now() % 60_000) - 3 * 60_000; // three minutes ago, on a minute
    const first = setup({ rollupFlushMs: 60_000 });
    first.at(base + 150_000);
    for (let i = 0; i < 9; i++)
      first.pipeline.ingest(
        dev(4),
        'd/4/data',
        json({ _ts: base + i * 20_000, s: { data: { kw: 1.5 * i, on: i % 2 === 0 } } }),
      );
    await first.pipeline.flush();
    // a later batch merges those points' deltas (the rollup period has passed on the pipeline's clock) and leaves its own
    // pending: the process then dies, as if killed, and never merges them
    first.pipeline.ingest(dev(4), 'd/4/data', json({ _ts: base + 170_000, s: { data: { kw: 100, on: true } } }));
    await first.pipeline.flush();
    expect(first.sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(20);
    const short = rowsOf(first.sqlite, 'telemetry_rollup_minute');
    expect(
      short.reduce((n, r) => n + r.count, 0),
      'the last two points are missing from the rollups',
    ).toBe(18);
    expect(short).not.toEqual(expected(first.sqlite, 60_000));

    const second = setup({}, first.dir);
    expect(rowsOf(second.sqlite, 'telemetry_rollup_minute')).toEqual(expected(second.sqlite, 60_000));
    expect(rowsOf(second.sqlite, 'telemetry_rollup_hour')).toEqual(expected(second.sqlite, 3_600_000));
    const kw = second.pipeline.reads.findSeries(1, 4, { sensor: 's', configtype: 'data', param: 'kw' })!;
    const hour = second.pipeline.reads.rollups(kw, { bucket: 'hour', start: base - 3_600_000, end: base + 3_600_000 });
    expect(hour.reduce((n, b) => n + b.count, 0)).toBe(10);
    expect(hour.reduce((m, b) => Math.max(m, b.max), 0)).toBe(100);
    // closed cleanly, it leaves no row: the next start has nothing to rebuild
    expect(second.sqlite.prepare('SELECT count(*) FROM telemetry_writer_state').pluck().get()).toBe(1);
    await second.close();
    const third = setup({}, first.dir);
    expect(third.sqlite.prepare('SELECT writer FROM telemetry_writer_state').pluck().all()).toHaveLength(1);
  });

  it('hands committed messages to subscribers with only what was stored', async () => {
    const { pipeline } = setup();
    const got: Array<{ deviceId: number; points: number; states: number }> = [];
    pipeline.subscribe((b) => got.push({ deviceId: b.deviceId, points: b.points.length, states: b.states.length }));
    pipeline.subscribe(() => {
      throw new Error('a broken listener does not stop the others');
    });
    pipeline.ingest(dev(9), 'd/9/data', json({ _ts: T0, s: { data: { a: 1, b: 2 } } }), 1);
    pipeline.ingest(dev(9), 'd/9/data', json({ _ts: T0, s: { data: { a: 1, c: 3 } } }), 1); // a is a redelivery
    pipeline.ingest(dev(9), 'd/9/state', json({ mode: 'eco' }), 1);
    await pipeline.flush();
    expect(got).toEqual([
      { deviceId: 9, points: 2, states: 0 },
      { deviceId: 9, points: 1, states: 0 },
      { deviceId: 9, points: 0, states: 1 },
    ]);
    expect(
      pipeline.series(pipeline.reads.findSeries(1, 9, { sensor: 's', configtype: 'data', param: 'c' })!.id)?.latest
        ?.num,
    ).toBe(3);
  });
});

describe('telemetry acknowledgements', () => {
  it('does not acknowledge a QoS 1 message whose new series could not be written (the device sends it again)', async () => {
    const { pipeline, sqlite } = setup();
    sqlite.exec(
      `CREATE TRIGGER refuse_series BEFORE INSERT ON telemetry_series BEGIN SELECT RAISE(ABORT, 'database is locked'); END`,
    );
    const released: boolean[] = [];
    const hold =
      () =>
      (acknowledge = true) =>
        void released.push(acknowledge);
    expect(() => pipeline.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1 } } }), 1, hold)).toThrow(/locked/);
    expect(released).toEqual([false]);
    sqlite.exec('DROP TRIGGER refuse_series');
    expect(pipeline.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1 } } }), 1, hold)).toBe('queued');
    await pipeline.flush();
    expect(released).toEqual([false, true]);
  });
});

describe('telemetry backpressure', () => {
  it("pauses the broker's reads while the writer is behind and resumes them once it caught up", async () => {
    const { pipeline } = setup({ maxQueuedPoints: 400, flushIntervalMs: 20 });
    const calls: boolean[] = [];
    pipeline.attachBroker({ on: () => undefined, setReadPaused: (p: boolean) => void calls.push(p) });
    // one synchronous burst: the writer has no turn, the queue passes half its bound (200 points)
    for (let i = 0; i < 120; i++)
      pipeline.ingest(dev(1 + (i % 9)), `d/${1 + (i % 9)}/data`, json({ s: { c: { a: i, b: i, c: i } } }));
    // the memory bus delivers in a setImmediate: one queued after it runs once the burst is in the writer's queue (a
    // setTimeout(0) could fire first, before any delivery, when the test starts in the loop's check phase)
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([true]);
    for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(calls).toEqual([true, false]);
    expect(pipeline.metrics()).toMatchObject({ read_pauses: 1, reads_paused: false });
  });
});
