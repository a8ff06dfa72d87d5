// The pipeline on both engines (openTelemetryPipeline): a QoS 1 message acknowledged once stored, a new series created
// once whatever the concurrency, states, the asynchronous reads with the rollup deltas not yet merged overlaid; on
// PostgreSQL also a server outage (the writer pauses, acknowledgements wait, ingest resumes) and two gateways sharing
// one database creating the same series at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../platform/bus/memory.js';
import { openPostgres } from '../../../platform/db/postgres.js';
import { findUp, openDb } from '../../../platform/db/sqlite.js';
import { hasPostgres, startPostgres, testDatabase } from '../../../platform/db/testing/postgres.js';
import { createLogger } from '../../../platform/log.js';
import type { MqttIdentity } from '../../../platform/mqtt/types.js';
import { until } from '../../../platform/testing/until.js';
import * as schema from '../../../schema.js';
import type { DeviceContext, DeviceResolver } from '../../devices/families/index.js';
import { openTelemetryPipeline, type EngineTelemetryPipeline, type OpenTelemetryPipelineOptions } from './pipeline.js';

const log = createLogger('silent');
const T0 = Date.UTC(2024, 0, 1, 16, 58); // 23:58 in Jakarta: rollups cross a minute, an hour and a local day

/** devices 1..9 of app 1 (MQTT family), device 50 of app 2 (Tasmota, topic plug50) */
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

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

type Engine = { sqlite: OpenTelemetryPipelineOptions['sqlite'] } | { postgres: import('pg').Pool };

/** a fresh, migrated database of the engine, closed after the test */
async function database(kind: 'sqlite' | 'postgres', url?: string): Promise<Engine> {
  if (kind === 'sqlite') {
    const handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    cleanup.push(() => handle.close());
    return { sqlite: handle.sqlite };
  }
  const pg = await openPostgres({
    url: url ?? (await testDatabase()),
    migrationsFolder: findUp('drizzle-pg', import.meta.url),
  });
  cleanup.push(() => pg.close());
  return { postgres: pg.pool };
}

async function pipelineOn(engine: Engine, extra: Partial<OpenTelemetryPipelineOptions> = {}) {
  const bus = createMemoryBus(log);
  let clock = T0;
  const pipeline = await openTelemetryPipeline({
    ...engine,
    bus,
    log,
    resolver,
    now: () => clock,
    rollupFlushMs: 50,
    ...extra,
  } as OpenTelemetryPipelineOptions);
  cleanup.push(async () => {
    await pipeline.close();
    await bus.close();
  });
  return { pipeline, tick: (ms: number) => (clock += ms) };
}

/** a hold whose releases are recorded in `released` */
function holds() {
  const released: boolean[] = [];
  return {
    released,
    hold:
      () =>
      (ok = true) =>
        void released.push(ok),
  };
}

async function seriesOf(p: EngineTelemetryPipeline, appId: number, deviceId: number) {
  return (await p.query.seriesOfDevice(appId, deviceId)).map((s) => `${s.sensor}/${s.configtype}/${s.param}`);
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && !hasPostgres)(`telemetry pipeline on ${kind}`, () => {
    it('acknowledges a QoS 1 message once its batch is stored, and reads it back', async () => {
      const { pipeline } = await pipelineOn(await database(kind));
      expect(pipeline.engine).toBe(kind);
      const { released, hold } = holds();
      expect(pipeline.ingest(dev(1), 'd/1/data', json({ _ts: T0, env: { data: { t: 21.5 } } }), 1, hold)).toBe(
        'queued',
      );
      expect(released).toEqual([]);
      await pipeline.flush();
      expect(released).toEqual([true]);
      const s = await pipeline.query.findSeries(1, 1, { sensor: 'env', configtype: 'data', param: 't' });
      expect(s).not.toBeNull();
      expect(await pipeline.query.latestN(s!, 5)).toEqual([{ ts: T0, value: 21.5 }]);
      expect(await pipeline.query.points.last(s!.id)).toEqual([T0, 21.5, null]);
      // another application's device: nothing
      expect(await pipeline.query.findSeries(2, 1, { sensor: 'env', configtype: 'data', param: 't' })).toBeNull();
    });

    it('creates a new series once when many messages name it at once, and stores every point', async () => {
      const { pipeline } = await pipelineOn(await database(kind));
      const { released, hold } = holds();
      for (let i = 0; i < 60; i++)
        pipeline.ingest(
          dev((i % 3) + 1),
          `d/${(i % 3) + 1}/data`,
          json({ _ts: T0 + i * 1000, env: { data: { t: i, h: i * 2 } } }),
          1,
          hold,
        );
      await pipeline.flush();
      expect(released).toHaveLength(60);
      expect(released.every((r) => r)).toBe(true);
      for (const d of [1, 2, 3]) {
        expect(await seriesOf(pipeline, 1, d)).toEqual(['env/data/h', 'env/data/t']);
        const t = (await pipeline.query.findSeries(1, d, { sensor: 'env', configtype: 'data', param: 't' }))!;
        const points = await pipeline.query.range(t, T0, T0 + 60_000);
        expect(points.map((p) => p.value)).toEqual(Array.from({ length: 20 }, (_, k) => k * 3 + d - 1));
      }
      expect(pipeline.metrics()).toMatchObject({ series_created: 6 });
    });

    it('drops the points of the days older than the retention, keeps the rest, hourly while it runs', async () => {
      // the clock stands at T0 (2024-01-01 16:58 UTC); one day kept: 2023-12-31 and later stay, older days go
      const { pipeline, tick } = await pipelineOn(await database(kind), { retentionDays: 1, retentionEveryMs: 50 });
      const days = [5, 2, 1, 0].map((d) => T0 - d * 86_400_000);
      for (const ts of days) pipeline.ingest(dev(5), 'd/5/data', json({ _ts: ts, env: { data: { t: ts } } }), 1);
      await pipeline.flush();
      const t = (await pipeline.query.findSeries(1, 5, { sensor: 'env', configtype: 'data', param: 't' }))!;
      const kept = async () => (await pipeline.query.range(t, 0, T0 + 1)).map((p) => p.ts);
      expect(await kept()).toEqual(days);
      expect(await until(async () => (await kept()).length === 2, 5000)).toBe(true);
      expect(await kept()).toEqual(days.slice(2));
      // the rollups too, once their deltas are merged (on the pipeline's clock: it moves on here) and the next run came
      const hours = async () => (
        tick(100),
        (await pipeline.query.rollups(t, { bucket: 'hour', start: 0, end: T0 + 3_600_000 })).map((b) => b.ts)
      );
      const keptHours = days.slice(2).map((ts) => ts - (ts % 3_600_000));
      await until(async () => JSON.stringify(await hours()) === JSON.stringify(keptHours), 3000);
      expect(await hours()).toEqual(keptHours);
    });

    it('keeps the per-device series cap', async () => {
      const { pipeline } = await pipelineOn(await database(kind), { maxSeriesPerDevice: 2 });
      pipeline.ingest(dev(4), 'd/4/data', json({ _ts: T0, s: { c: { a: 1, b: 2, c: 3 } } }), 1);
      await pipeline.flush();
      expect(await seriesOf(pipeline, 1, 4)).toHaveLength(2);
      expect(pipeline.rejectsOf(4)).toBeDefined();
    });

    it('stores states and reads them back asynchronously, another application finding none', async () => {
      const { pipeline, tick } = await pipelineOn(await database(kind));
      const t = T0;
      pipeline.ingest(dev(50), 'stat/plug50/RESULT', json({ POWER: 'ON' }));
      tick(1000);
      pipeline.ingest(dev(50), 'tele/plug50/STATE', json({ Time: 'x', UptimeSec: 10, POWER: 'ON' }));
      tick(1000);
      pipeline.ingest(dev(50), 'stat/plug50/POWER', Buffer.from('OFF'));
      await pipeline.flush();
      expect(await pipeline.states.list(2, 50)).toEqual([
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
      expect(await pipeline.states.newest(1, 50, 'POWER', 10)).toEqual([]);
      expect(await pipeline.states.remove(1, 50, 'POWER')).toBe(false);
      expect(await pipeline.states.remove(2, 50, 'POWER')).toBe(true);
      expect(await pipeline.states.list(2, 50)).toEqual([]);
    });

    it('answers rollups with the deltas not yet merged overlaid, by minute, hour and local day', async () => {
      // deltas merge only every minute: right after the flush they are all still in memory
      const engine = await database(kind);
      const { pipeline } = await pipelineOn(engine, { rollupFlushMs: 60_000 });
      // 23:58 .. 00:01 in Jakarta, one point every 30 s: 8 points over 4 minutes, two hours and two local days
      for (let i = 0; i < 8; i++)
        pipeline.ingest(dev(5), 'd/5/data', json({ _ts: T0 + i * 30_000, m: { x: { v: i } } }), 1);
      await pipeline.flush();
      expect(pipeline.metrics().pending_rollup_buckets).toBeGreaterThan(0);
      const s = (await pipeline.query.findSeries(1, 5, { sensor: 'm', configtype: 'x', param: 'v' }))!;
      const minutes = await pipeline.query.rollups(s, { bucket: 'minute', start: T0, end: T0 + 10 * 60_000 });
      expect(minutes.map((b) => [b.ts - T0, b.count, b.sum])).toEqual([
        [0, 2, 1],
        [60_000, 2, 5],
        [120_000, 2, 9],
        [180_000, 2, 13],
      ]);
      const days = await pipeline.query.rollups(s, {
        bucket: 'day',
        start: T0 - 3_600_000,
        end: T0 + 3_600_000,
        timeZone: 'Asia/Jakarta',
      });
      expect(days.map((b) => [b.count, b.min, b.max])).toEqual([
        [4, 0, 3],
        [4, 4, 7],
      ]);
      // merged on close: what the tables hold alone (a new pipeline has no deltas) is the same
      await pipeline.close();
      const again = (await pipelineOn(engine)).pipeline;
      expect(again.metrics().pending_rollup_buckets).toBe(0);
      expect(await again.query.rollups(s, { bucket: 'minute', start: T0, end: T0 + 10 * 60_000 })).toEqual(minutes);
    });
  });
}

describe('telemetry pipeline on SQLite while another connection holds the write lock', () => {
  it("holds a message naming a new series (and its device's next) without holding the event loop, then stores both in order", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-series-lock-'));
    const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    const other = new Database(handle.sqlite.name);
    cleanup.push(() => {
      other.close();
      handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const { pipeline } = await pipelineOn({ sqlite: handle.sqlite });
    const { released, hold } = holds();
    other.exec('begin immediate');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    pipeline.ingest(dev(1), 'd/1/data', json({ _ts: T0, env: { data: { t: 1 } } }), 1, hold);
    pipeline.ingest(dev(1), 'd/1/data', json({ _ts: T0 + 1000, env: { data: { t: 2 } } }), 1, hold);
    await new Promise((r) => setTimeout(r, 100));
    expect(released).toEqual([]);
    expect(pipeline.metrics()).toMatchObject({ series_created: 0 });
    other.exec('commit');
    await pipeline.flush();
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(5); // a creation waiting in SQLite's busy handler would have held the event loop
    expect(released).toEqual([true, true]);
    const t = (await pipeline.query.findSeries(1, 1, { sensor: 'env', configtype: 'data', param: 't' }))!;
    expect((await pipeline.query.range(t, T0, T0 + 60_000)).map((p) => p.value)).toEqual([1, 2]);
  });
});

describe.skipIf(!hasPostgres)('telemetry pipeline on PostgreSQL: scale-out and outages', () => {
  it('two gateways on one database naming the same new series at once create it once', async () => {
    const url = await testDatabase();
    const a = await pipelineOn(await database('postgres', url));
    const b = await pipelineOn(await database('postgres', url));
    for (let i = 0; i < 20; i++) {
      const p = i % 2 ? a.pipeline : b.pipeline;
      p.ingest(dev(6), 'd/6/data', json({ _ts: T0 + i * 1000, k: { y: { z: i } } }), 1);
    }
    await Promise.all([a.pipeline.flush(), b.pipeline.flush()]);
    expect(await seriesOf(a.pipeline, 1, 6)).toEqual(['k/y/z']);
    const s = (await b.pipeline.query.findSeries(1, 6, { sensor: 'k', configtype: 'y', param: 'z' }))!;
    expect((await a.pipeline.query.range(s, T0, T0 + 60_000)).map((p) => p.value)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    // both hold the one series, whichever created it
    const created = Number(a.pipeline.metrics().series_created) + Number(b.pipeline.metrics().series_created);
    expect(created).toBe(1);
  });

  it('PostgreSQL + NATS: stores what its own broker received (nothing on tele.>), the PUBACK waiting for the gate too; a message sent again names its points as resent', async () => {
    // the memory bus standing in for NATS: the pipeline decides by the bus's kind
    const bus = { ...createMemoryBus(log), kind: 'nats' as const };
    cleanup.push(() => bus.close());
    const hops: unknown[] = [];
    bus.subscribe('tele.>', (m) => void hops.push(m.data));
    const pipeline = await openTelemetryPipeline({
      ...(await database('postgres')),
      bus,
      log,
      resolver,
      now: () => T0,
    } as OpenTelemetryPipelineOptions);
    cleanup.push(() => pipeline.close());
    expect(pipeline.storesLocally).toBe(true);
    const commits: Array<{ local: boolean; points: number; resent: number }> = [];
    pipeline.subscribe((b, local) => commits.push({ local, points: b.points.length, resent: b.resent?.length ?? 0 }));
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    pipeline.gateAcks((appId, deviceId) => (appId === 1 && deviceId === 1 ? gate : null));
    const { released, hold } = holds();
    const message = json({ _ts: T0, env: { data: { t: 21.5 } } });
    pipeline.ingest(dev(1), 'd/1/data', message, 1, hold);
    pipeline.ingest(dev(2), 'd/2/data', message, 1, hold);
    await pipeline.flush();
    await until(() => released.length === 1);
    // device 2 no rule holds: acknowledged at its commit; device 1 waits for the gate
    expect(released).toEqual([true]);
    open();
    await until(() => released.length === 2);
    expect(hops).toEqual([]);
    expect(commits).toEqual([
      { local: true, points: 1, resent: 0 },
      { local: true, points: 1, resent: 0 },
    ]);
    // the same message again (its PUBACK lost): stored once, named as resent for the rules
    pipeline.ingest(dev(1), 'd/1/data', message, 1, hold);
    await pipeline.flush();
    await until(() => released.length === 3);
    expect(commits[2]).toEqual({ local: true, points: 0, resent: 1 });
    expect(pipeline.metrics()).toMatchObject({ stored_points: 2, duplicate_points: 1 });
  });

  it('pauses while PostgreSQL is down, holds acknowledgements, and resumes within seconds of its return', async () => {
    const server = await startPostgres({ fsync: 'off' });
    cleanup.push(() => server.destroy());
    const engine = (await database('postgres', await server.createDatabase())) as { postgres: import('pg').Pool };
    const { pipeline } = await pipelineOn(engine, { flushIntervalMs: 5 });
    const { released, hold } = holds();
    pipeline.ingest(dev(7), 'd/7/data', json({ _ts: T0, o: { u: { v: 0 } } }), 1, hold);
    await pipeline.flush();
    expect(released).toEqual([true]);

    await server.stop('immediate');
    for (let i = 1; i <= 5; i++)
      pipeline.ingest(dev(7), 'd/7/data', json({ _ts: T0 + i * 1000, o: { u: { v: i } } }), 1, hold);
    // the batches fail as storage faults: nothing is acknowledged while the server is away (a batch holding them
    // was written and failed)
    expect(await until(() => Number(pipeline.metrics().storage_faults) > 0)).toBe(true);
    expect(released).toEqual([true]);

    const back = Date.now();
    await server.start();
    expect(await until(() => released.length === 6, 15_000)).toBe(true);
    expect(Date.now() - back).toBeLessThan(15_000);
    expect(released.every((r) => r)).toBe(true);
    const s = (await pipeline.query.findSeries(1, 7, { sensor: 'o', configtype: 'u', param: 'v' }))!;
    expect((await pipeline.query.range(s, T0, T0 + 60_000)).map((p) => p.value)).toEqual([0, 1, 2, 3, 4, 5]);
  }, 60_000);
});
