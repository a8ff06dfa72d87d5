// Absent series are remembered for a list card's sake: answered absent without a query while no series becomes known
// to the process and for at most ABSENT_KEPT_MS; a series found is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import * as schema from '../../schema.js';
import { sqliteTelemetryQuery } from '../telemetry/read/query.js';
import type { PointReads } from '../telemetry/read/point-reads.js';
import type { TelemetryReads } from '../telemetry/read/reads.js';
import { createSeriesKeys } from '../telemetry/read/series-keys.js';
import { ABSENT_KEPT_MS, createSeriesReads, type CardTelemetry } from './seriesReads.js';
import { seedDevice, seedSeries } from './testing/seed.js';

let handle: ReturnType<typeof openDb>;
beforeAll(() => {
  handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  handle.sqlite.pragma('foreign_keys = OFF');
});
afterAll(() => handle.close());

function reads() {
  let clock = 1_000_000;
  const keys = createSeriesKeys(handle.sqlite);
  // the series lookups only: these tests read no points or rollups
  const query = sqliteTelemetryQuery({} as TelemetryReads, keys, {} as PointReads);
  const telemetry = { seriesLearnt: 0, series: () => undefined, query } as CardTelemetry & { seriesLearnt: number };
  const r = createSeriesReads(telemetry, { now: () => clock });
  return { r, telemetry, advance: (ms: number) => (clock += ms) };
}

describe('series reads of absent series', async () => {
  it('answers a series absent until the process learns of a series, then finds it', async () => {
    const { r, telemetry } = reads();
    const device = seedDevice(handle.sqlite, { appId: 1, name: 'Meter C' });
    expect(await r.series(1, device, 'pm', 'meter', 'power')).toBeNull();
    expect(await r.seriesOfParam(1, device, 'pm', 'meter', 'voltage')).toEqual([]);
    // created behind the process's back (another gateway): still absent here until the process learns of a series
    const power = seedSeries(handle.sqlite, {
      appId: 1,
      deviceId: device,
      sensor: 'pm',
      configtype: 'meter',
      param: 'power',
      subparam: '',
    });
    const phase = seedSeries(handle.sqlite, {
      appId: 1,
      deviceId: device,
      sensor: 'pm',
      configtype: 'meter',
      param: 'voltage',
      subparam: 'r',
    });
    expect(await r.series(1, device, 'pm', 'meter', 'power')).toBeNull();
    expect(await r.seriesOfParam(1, device, 'pm', 'meter', 'voltage')).toEqual([]);
    telemetry.seriesLearnt++;
    expect((await r.series(1, device, 'pm', 'meter', 'power'))?.id).toBe(power);
    expect((await r.seriesOfParam(1, device, 'pm', 'meter', 'voltage')).map((s) => s.id)).toEqual([phase]);
  });

  it('keeps an absent series apart from an absent param, whatever the subparam is called', async () => {
    const { r } = reads();
    const device = seedDevice(handle.sqlite, { appId: 1, name: 'Meter E' });
    const phase = seedSeries(handle.sqlite, {
      appId: 1,
      deviceId: device,
      sensor: 'pm',
      configtype: 'meter',
      param: 'voltage',
      subparam: 'r',
    });
    // a subparam named like anything (here '*') that the device lacks says nothing about the param's other subparams
    expect(await r.series(1, device, 'pm', 'meter', 'voltage', '*')).toBeNull();
    expect(await r.series(1, device, 'pm', 'meter', 'voltage', '')).toBeNull();
    expect((await r.seriesOfParam(1, device, 'pm', 'meter', 'voltage')).map((s) => s.id)).toEqual([phase]);
  });

  it(`asks again after ${ABSENT_KEPT_MS} ms whatever the process learnt`, async () => {
    const { r, advance } = reads();
    const device = seedDevice(handle.sqlite, { appId: 1, name: 'Meter D' });
    expect(await r.series(1, device, 'env', 'data', 'temp')).toBeNull();
    const temp = seedSeries(handle.sqlite, {
      appId: 1,
      deviceId: device,
      sensor: 'env',
      configtype: 'data',
      param: 'temp',
      subparam: '',
    });
    advance(ABSENT_KEPT_MS - 1);
    expect(await r.series(1, device, 'env', 'data', 'temp')).toBeNull();
    advance(1);
    expect((await r.series(1, device, 'env', 'data', 'temp'))?.id).toBe(temp);
  });
});
