// Every query function × query type on a dataset with known values: the exact answer, empty windows, counter resets,
// missing devices, another application's device, tags matching none, and expressions that fail on the card. Over 500
// lines for that reason: every case reads the one seeded dataset, which a split would seed again per file.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Component, ConfDashboard, STATE_CONFIG, STATE_SENSOR, T, type CardFilterQuery } from '@sentra/contracts';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import { createLogger } from '../../platform/log.js';
import * as schema from '../../schema.js';
import { createTelemetryPipeline, type TelemetryPipeline } from '../telemetry/ingest/pipeline.js';
import { evaluateCard } from './cardData.js';
import { createCardEngine, type CardEngine } from './cards.module.js';
import { createDashboardGrants } from '../dashboards/grants.js';
import { createDashboardsStore } from '../dashboards/dashboards.store.js';
import { sqliteStore } from '../../platform/db/store.js';
import { seedDevice, seedPoints, seedSeries, seedState } from './testing/seed.js';

const TZ = 'Asia/Jakarta';
const MIDNIGHT = Date.UTC(2024, 2, 14, 17); // 15 March 2024 00:00 in Jakarta (UTC+7)
const at = (h: number, m = 0, s = 0) => MIDNIGHT + h * 3_600_000 + m * 60_000 + s * 1000;
const NOW = at(10, 31, 20);
const H = 3_600_000;

let handle: ReturnType<typeof openDb>;
let pipeline: TelemetryPipeline;
let engine: CardEngine;
let dev1: number;
let dev2: number;
let foreign: number;

beforeAll(() => {
  handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  const { sqlite } = handle;
  sqlite.pragma('foreign_keys = OFF');
  pipeline = createTelemetryPipeline({ sqlite, log: createLogger('error'), now: () => NOW });
  const dashboards = createDashboardsStore(sqliteStore(sqlite, schema));
  const grants = createDashboardGrants({
    dashboards,
    roleOfAccount: async () => undefined,
    roleSelection: async () => undefined,
  });
  engine = createCardEngine(sqliteStore(sqlite, schema), pipeline, { now: () => NOW, grants, dashboards });
  dev1 = seedDevice(sqlite, {
    appId: 1,
    name: 'Meter A',
    label: 'Panel A',
    serialNumber: 'SN-A',
    category: 8,
    categoryText: 'MQTT',
    deviceType: 'MQTT',
    firmwareVersion: '2.1',
    latitude: -6.2,
    longitude: 106.8,
    online: true,
    lastOnlineTs: at(10),
    tags: { gedung: ['gedung_a'] },
  });
  dev2 = seedDevice(sqlite, {
    appId: 1,
    name: 'Meter B',
    serialNumber: 'SN-B',
    latitude: -6.3,
    longitude: 106.9,
    tags: { gedung: ['gedung_b'], fungsi: ['pompa'] },
  });
  foreign = seedDevice(sqlite, { appId: 2, name: 'Milik orang lain', online: true });
  const series = (
    deviceId: number,
    sensor: string,
    configtype: string,
    param: string,
    points: [number, number][],
    subparam = '',
    appId = 1,
  ) => {
    const id = seedSeries(sqlite, { appId, deviceId, sensor, configtype, param, subparam });
    seedPoints(sqlite, id, points);
    return id;
  };
  sqlite.transaction(() => {
    // power: yesterday 23:00 = 5; today 10, 20, 30, 40, 50 every half hour from 08:00
    series(dev1, 'pm', 'meter', 'power', [
      [at(-1), 5],
      [at(8), 10],
      [at(8, 30), 20],
      [at(9), 30],
      [at(9, 30), 40],
      [at(10), 50],
    ]);
    series(dev2, 'pm', 'meter', 'power', [[at(9, 45), 7]]);
    // energy: a cumulative counter with one reset inside the 09:00 hour (130 → 3), silent from yesterday 23:10 to 07:30
    series(dev1, 'pm', 'meter', 'energy', [
      [at(-1, 10), 95],
      [at(7, 30), 100],
      [at(8), 110],
      [at(8, 30), 125],
      [at(9), 130],
      [at(9, 15), 3],
      [at(9, 30), 10],
      [at(10), 12],
    ]);
    // temperature: sub-minute times around the LAST_MINUTE 15 edge (window 10:16:20 .. 10:31:20)
    series(dev1, 'env', 'data', 'temp', [
      [at(10, 16), 100],
      [at(10, 20, 10), 1],
      [at(10, 25, 30), 2],
      [at(10, 31), 3],
    ]);
    for (const [sub, base] of [
      ['r', 210],
      ['s', 211],
      ['t', 212],
    ] as const)
      series(
        dev1,
        'pm',
        'meter',
        'voltage',
        [
          [at(9), base],
          [at(10), base + 10],
        ],
        sub,
      );
    // 30 days of one point every 6 hours (value = day index) for the daily chart
    const daily: [number, number][] = [];
    for (let d = 29; d >= 0; d--) for (let q = 0; q < 4; q++) daily.push([MIDNIGHT - d * 24 * H + q * 6 * H, 30 - d]);
    series(dev1, 'env', 'data', 'level', daily);
    series(foreign, 'pm', 'meter', 'power', [[at(9), 999]], '', 2);
    // device states: a Tasmota plug's POWER on each device, an object state, another application's device
    seedState(sqlite, { appId: 1, deviceId: dev1, key: 'POWER', value: 'ON', since: at(9), ts: at(10, 30) });
    seedState(sqlite, { appId: 1, deviceId: dev2, key: 'POWER', value: 'OFF', since: at(8), ts: at(9, 45) });
    seedState(sqlite, {
      appId: 1,
      deviceId: dev1,
      key: 'last_vend',
      value: { machine: 'w1', amount: 10000 },
      since: at(10),
      ts: at(10),
    });
    seedState(sqlite, { appId: 2, deviceId: foreign, key: 'POWER', value: 'ON', since: at(9), ts: at(9) });
  })();
});
afterAll(async () => {
  await pipeline.close();
  handle.close();
});

const today = { default: { name: 'Hari ini', range: 'TODAY' } };
const dash = (vars: Record<string, unknown> = {}) =>
  ConfDashboard.parse({
    version: '2',
    config: { refresh: 0 },
    var: {
      var_b: 3,
      site: { _varType: 'device', device_id: dev1, sensor: 'pm', config: 'meter', param: 'power' },
      func_total: {
        _varType: 'func',
        query: 'SUM',
        queryType: 'device',
        device_id: dev1,
        sensor: 'pm',
        config: 'meter',
        param: 'power',
      },
      ...vars,
    },
    dashboard: {},
  });

async function evaluate(component: Record<string, unknown>, query: CardFilterQuery = {}, conf = dash()) {
  const c = Component.parse({ key: 'k', x: 0, y: 0, ...component });
  return (await evaluateCard(engine.src, { component: c, conf, appId: 1, tz: TZ, now: NOW, query })).data;
}
const single = async (
  value: Record<string, unknown>,
  filter: Record<string, unknown> = today,
  query: CardFilterQuery = {},
) => await evaluate({ cat: 'SINGLE_VALUE_CARD', w: 1, h: 1, model: { value, filter } }, query);
const power = { queryType: 'device', device_id: 0, sensor: 'pm', config: 'meter', param: 'power' };
const ofDevice = (q: Record<string, unknown>, device = dev1) => ({ ...q, device_id: device });

describe('data and aggregate functions on one series (queryType device)', () => {
  it.each([
    ['LATEST', 50],
    ['AVG', 30],
    ['COUNT', 5],
    ['MAX', 50],
    ['MIN', 10],
    ['SUM', 150],
  ])('%s over today is %s', async (query, expected) => {
    const d = await single(ofDevice({ ...power, query }));
    expect(d).toMatchObject({ success: true, value: expected });
  });
  it('LATEST answers the point time', async () => {
    expect((await single(ofDevice({ ...power, query: 'LATEST' }))).time).toBe(at(10));
  });
  it('an aggregate over today answers the time of its newest point ("Diperbarui"), not the end of its rollup bucket', async () => {
    // at 10:31:20 the newest power point is 10:00:00 and the newest temperature 10:31:00: inside the current hour and minute
    expect((await single(ofDevice({ ...power, query: 'AVG' }))).time).toBe(at(10));
    expect(
      (await single(ofDevice({ ...power, param: 'temp', sensor: 'env', config: 'data', query: 'MAX' }))).time,
    ).toBe(at(10, 31));
    // a window of whole past hours (08:00 to 09:59:59.999, end inclusive): the 09:00 hour's newest point is 09:30
    expect((await single(ofDevice({ ...power, query: 'AVG' }), {}, { start: at(8), end: at(10) - 1 })).time).toBe(
      at(9, 30),
    );
  });
  it('USAGE counts every increase and a reset as the new value (100 → 110 → 125 → 130 ↺ 3 → 10 → 12 = 42)', async () => {
    // the step from yesterday's 95 (23:10) to 07:30's 100 crosses a gap of more than an hour: it adds nothing
    expect((await single(ofDevice({ ...power, param: 'energy', query: 'USAGE' }))).value).toBe(42);
  });
  it('USAGE of yesterday starts at the first point when nothing came before', async () => {
    expect(
      (await single(ofDevice({ ...power, param: 'energy', query: 'USAGE' }), { default: { range: 'LAST_DAY' } })).value,
    ).toBe(0);
  });
  it('an empty window answers null, and COUNT 0', async () => {
    expect(await single(ofDevice({ ...power, query: 'AVG' }), { default: { range: 'LAST_MONTH' } })).toMatchObject({
      success: true,
      value: null,
    });
    expect((await single(ofDevice({ ...power, query: 'COUNT' }), { default: { range: 'LAST_MONTH' } })).value).toBe(0);
    expect(
      (await single(ofDevice({ ...power, query: 'USAGE' }), { default: { range: 'LAST_MONTH' } })).value,
    ).toBeNull();
  });
  it('REALTIME aggregates the last N points (30, 40, 50)', async () => {
    expect((await single(ofDevice({ ...power, query: 'AVG' }), { live: { ndata: 3 } })).value).toBe(40);
    expect((await single(ofDevice({ ...power, query: 'USAGE', param: 'energy' }), { live: { ndata: 3 } })).value).toBe(
      9,
    );
  });
  it('a rolling range cuts raw points at its exact edges (LAST_MINUTE 15: 1, 2, 3; not the 10:16:00 point)', async () => {
    const q = ofDevice({ ...power, sensor: 'env', config: 'data', param: 'temp' });
    const f = { default: { range: 'LAST_MINUTE', range_param: 15 } };
    expect((await single({ ...q, query: 'AVG' }, f)).value).toBe(2);
    expect((await single({ ...q, query: 'COUNT' }, f)).value).toBe(3);
  });
  it('the request filter wins over the card filter (CUSTOM start/end, end inclusive)', async () => {
    expect((await single(ofDevice({ ...power, query: 'SUM' }), today, { start: at(8), end: at(9) })).value).toBe(60);
  });
  it('a series with no data yet answers null; a subparam of a param chosen whole answers each subparam', async () => {
    expect((await single(ofDevice({ ...power, param: 'belum_ada', query: 'LATEST' }))).value).toBeNull();
    expect((await single(ofDevice({ ...power, param: 'voltage', query: 'LATEST' }))).value).toEqual({
      r: 220,
      s: 221,
      t: 222,
    });
  });
  it(`a missing device or another application's device answers "${T.cards.deviceNotFound}" on the card`, async () => {
    expect(await single({ ...power, device_id: 99999, query: 'LATEST' })).toMatchObject({
      success: false,
      alert: T.cards.deviceNotFound,
    });
    expect(
      await evaluate({
        cat: 'SINGLE_VALUE_CARD',
        w: 1,
        h: 1,
        model: { value: { query: 'LABEL', queryType: 'device_id', device_id: foreign } },
      }),
    ).toMatchObject({ success: false, alert: T.cards.deviceNotFound });
    expect(await single({ ...power, device_id: foreign, query: 'LATEST' })).toMatchObject({
      success: false,
      alert: T.cards.deviceNotFound,
    });
  });
});

describe('a card fixed to its own window ("today" stays today)', () => {
  const usage = () => ofDevice({ ...power, param: 'energy', query: 'USAGE' });
  const fixedToday = { default: { name: 'Hari ini', range: 'TODAY', fixed: true } };
  const lastWeek = { type: 'CUSTOM' as const, start: MIDNIGHT - 6 * 24 * H, end: NOW };
  it('keeps today when the view asks for the last 7 days or names another filter', async () => {
    expect(await single(usage(), fixedToday, lastWeek)).toMatchObject({ value: 42, window: { start: MIDNIGHT } });
    const conf = dash({
      kemarin: { _varType: 'filter', id: 'kemarin', name: 'Kemarin', type: 'PERIODIC', range: 'LAST_DAY' },
    });
    const d = await evaluate(
      { cat: 'SINGLE_VALUE_CARD', w: 1, h: 1, model: { value: usage(), filter: fixedToday } },
      { filter: 'kemarin' },
      conf,
    );
    expect(d).toMatchObject({ value: 42, secondary: 'Hari ini' });
  });
  it('without `fixed` the range the view asks for wins', async () => {
    expect((await single(usage(), today, lastWeek)).window).toMatchObject({ start: MIDNIGHT - 6 * 24 * H });
  });
});

describe('device info and presence (queryType device_id and tags)', () => {
  const info = async (query: string, device = dev1) =>
    (
      await evaluate({
        cat: 'SINGLE_VALUE_CARD',
        w: 1,
        h: 1,
        model: { value: { query, queryType: 'device_id', device_id: device } },
      })
    ).value;
  it.each([
    ['DEVICE_CATEGORY', 'MQTT'],
    ['LABEL', 'Panel A'],
    ['DEVICE_TYPE', 'MQTT'],
    ['FIRMWARE', '2.1'],
    ['LATITUDE', -6.2],
    ['LONGITUDE', 106.8],
    ['SN', 'SN-A'],
    ['ONLINE', true],
  ])('%s of the device is %s', async (query, expected) => {
    expect(await info(query)).toBe(expected);
  });
  it('LABEL falls back to the name; ONLINE of an offline device is false', async () => {
    expect(await info('LABEL', dev2)).toBe('Meter B');
    expect(await info('ONLINE', dev2)).toBe(false);
  });
  it('a title card with only its text answers success without a value', async () => {
    expect(await evaluate({ cat: 'TITLE', w: 4, h: 1, view: { title: 'Gedung A' } })).toEqual({
      key: 'k',
      cat: 'TITLE',
      success: true,
    });
  });
  it('the title card reads DEVICE_ID', async () => {
    expect(
      (
        await evaluate({
          cat: 'TITLE',
          w: 4,
          h: 1,
          model: { value: { query: 'DEVICE_ID', queryType: 'device_id', device_id: dev1 } },
        })
      ).value,
    ).toBe(dev1);
  });
  const count = async (query: string, tags: string[]) =>
    (await evaluate({ cat: 'SINGLE_VALUE_CARD', w: 1, h: 1, model: { value: { query, queryType: 'tags', tags } } }))
      .value;
  it('TOTAL_DEVICE counts the devices of the tags (none = every device of the application), APP_ONLINE those online', async () => {
    expect(await count('TOTAL_DEVICE', [])).toBe(2);
    expect(await count('APP_ONLINE', [])).toBe(1);
    expect(await count('TOTAL_DEVICE', ['gedung:gedung_b'])).toBe(1);
    expect(await count('APP_ONLINE', ['gedung:gedung_b'])).toBe(0);
    expect(await count('TOTAL_DEVICE', ['pompa', 'gedung_a'])).toBe(2);
  });
  it('tags matching no device count 0', async () => {
    expect(await count('TOTAL_DEVICE', ['tidak_ada'])).toBe(0);
    expect(await count('APP_ONLINE', ['tidak_ada'])).toBe(0);
  });
});

describe('charts (queryType graph)', () => {
  const chart = async (value: Record<string, unknown>, filter: Record<string, unknown>, query: CardFilterQuery = {}) =>
    await evaluate(
      { cat: 'LINE_CHART_CARD', w: 2, h: 2, model: { value: { queryType: 'graph', ...value }, filter } },
      query,
    );
  const hourly = { default: { range: 'TODAY', period: 'hour', interval: 1 } };
  const volts = () =>
    ofDevice({
      sensor: 'pm',
      config: 'meter',
      param: 'voltage',
      subparam: ['r', 's'],
      subparam_label: ['fasa r', 'fasa s'],
    });
  it('an hourly AVG of today: 24 buckets from local midnight, one key per subparam label', async () => {
    const d = await chart({ ...volts(), query: 'AVG' }, hourly);
    expect(d.chart_keys).toEqual(['fasa r', 'fasa s']);
    expect(d.chart_data).toHaveLength(24);
    expect(d.chart_data![9]).toEqual({ ts: at(9), 'fasa r': 210, 'fasa s': 211 });
    expect(d.chart_data![10]).toEqual({ ts: at(10), 'fasa r': 220, 'fasa s': 221 });
    expect(d.chart_data![0]).toEqual({ ts: at(0), 'fasa r': null, 'fasa s': null });
  });
  it.each([
    ['AVG', [15, 35, 50]],
    ['COUNT', [2, 2, 1]],
    ['SUM', [30, 70, 50]],
    ['MAX', [20, 40, 50]],
    ['MIN', [10, 30, 50]],
    ['LAST', [20, 40, 50]],
    ['SAMPLE', [10, 30, 50]],
  ])('%s per hour bucket (08, 09, 10) of power', async (query, expected) => {
    const d = await chart(
      ofDevice({ sensor: 'pm', config: 'meter', param: 'power', param_label: 'daya', query }),
      hourly,
    );
    expect(d.chart_data!.slice(8, 11).map((r) => r.daya)).toEqual(expected);
    expect(d.chart_data![7]!.daya).toBe(query === 'COUNT' ? 0 : null);
  });
  it('USAGE per hour bucket: each step in the hour its time lies in, through the reset inside 09:00 (10, 20, 12, 0)', async () => {
    // 07:30 → 08:00 is the 07:00 hour's usage (10); 08:00 → 09:00 adds 15 + 5; 09:00 ↺ 09:15, 09:30 and → 10:00 add
    // 3 + 7 + 2; the 10:00 reading ends the 09:00 hour and starts the 10:00 one (0). Together the day's 42.
    const d = await chart(ofDevice({ sensor: 'pm', config: 'meter', param: 'energy', query: 'USAGE' }), hourly);
    expect(d.chart_data!.slice(7, 11).map((r) => r.energy)).toEqual([10, 20, 12, 0]);
    expect(d.chart_data![6]!.energy).toBeNull();
  });
  it('a 30-day daily chart: one bucket per local day', async () => {
    const d = await chart(ofDevice({ sensor: 'env', config: 'data', param: 'level', query: 'AVG' }), today, {
      start: MIDNIGHT - 29 * 24 * H,
      end: MIDNIGHT + 24 * H - 1,
      period: 'day',
      interval: 1,
    });
    expect(d.chart_data).toHaveLength(30);
    expect(d.chart_data!.map((r) => r.level)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
  it("CUSTOM 'auto' keeps a chart at 700 points or fewer", async () => {
    const d = await chart(ofDevice({ sensor: 'env', config: 'data', param: 'level', query: 'AVG' }), today, {
      start: MIDNIGHT - 29 * 24 * H,
      end: NOW,
    });
    expect(d.chart_data!.length).toBeLessThanOrEqual(700);
    expect(d.chart_data!.length).toBeGreaterThan(100);
  });
  it('REALTIME: the last N points of each series, oldest first', async () => {
    const d = await chart(ofDevice({ sensor: 'pm', config: 'meter', param: 'power', query: 'AVG' }), {
      live: { ndata: 2 },
    });
    expect(d.chart_data).toEqual([
      { ts: at(9, 30), power: 40 },
      { ts: at(10), power: 50 },
    ]);
  });
  it("a monitoring chart's headline is each series' newest reading, not the last bucket (one source with LATEST)", async () => {
    const monitoring = async (query: string, param = 'power') =>
      await evaluate({
        cat: 'LINE_MONITORING_CHART_CARD',
        w: 2,
        h: 2,
        model: {
          value: {
            queryType: 'graph',
            ...ofDevice({ sensor: 'pm', config: 'meter', param, param_label: 'daya' }),
            query,
          },
          filter: hourly,
        },
      });
    // half-hourly power 10 … 50: the 09:00 bucket's MAX is 40, the newest reading 50 at 10:00
    const d = await monitoring('MAX');
    expect(d.chart_data!.at(-1)).toBeDefined();
    expect(d.latest).toEqual({ daya: { value: 50, time: at(10) } });
    // an amount's headline stays its last bucket: a counter's newest reading is a lifetime total
    expect((await monitoring('USAGE', 'energy')).latest).toBeUndefined();
    expect(
      (await chart(ofDevice({ sensor: 'pm', config: 'meter', param: 'power', query: 'MAX' }), hourly)).latest,
    ).toBeUndefined();
  });
  it('a pie folds the window into one slice per series', async () => {
    const d = await evaluate({
      cat: 'PIE_CHART_CARD',
      w: 2,
      h: 2,
      model: { value: { queryType: 'graph', ...volts(), query: 'SUM' }, filter: hourly },
    });
    expect(d.chart_data).toEqual([
      { key: 'fasa r', value: 430 },
      { key: 'fasa s', value: 432 },
    ]);
  });
  it('a period the range does not allow is an error on the card', async () => {
    const d = await chart(
      ofDevice({ sensor: 'pm', config: 'meter', param: 'power', query: 'AVG' }),
      {},
      { range: 'TODAY', period: 'hour', interval: 12 },
    );
    expect(d).toMatchObject({ success: false, alert: T.dashboards.variables.optionNotOffered });
  });
});

describe('three-phase (queryType three_phase)', () => {
  it('LATEST of Data 1, 2, 3', async () => {
    const d = await evaluate({
      cat: 'THREE_PHASE_CARD',
      w: 1,
      h: 2,
      model: {
        value: ofDevice({
          query: 'LATEST',
          queryType: 'three_phase',
          sensor: 'pm',
          config: 'meter',
          param: 'voltage',
          subparam: ['r', 's', 't'],
        }),
      },
    });
    expect(d).toMatchObject({ value_1: 220, value_2: 221, value_3: 222, time: at(10) });
  });
});

describe('list and map cards (queryType device_no_id and none)', () => {
  const list = async (value: Record<string, unknown>, tags: string[] = []) =>
    await evaluate({ cat: 'LIST_CARD', w: 2, h: 2, model: { value, tags, filter: today } });
  it('LATEST of every device of the tags', async () => {
    const d = await list({ query: 'LATEST', queryType: 'device_no_id', sensor: 'pm', config: 'meter', param: 'power' });
    expect(d.table_keys).toEqual(['device_id', 'label', 'value', 'time']);
    expect(d.table_data).toEqual([
      { device_id: dev1, label: 'Panel A', value: 50, time: at(10) },
      { device_id: dev2, label: 'Meter B', value: 7, time: at(9, 45) },
    ]);
    expect(d.devices).toEqual([dev1, dev2]);
  });
  it('a device without the series has no value in its row, and is not looked up again (it came from the directory)', async () => {
    const lookups = vi.spyOn(engine.src.directory, 'device');
    try {
      const d = await list({
        query: 'LATEST',
        queryType: 'device_no_id',
        sensor: 'env',
        config: 'data',
        param: 'temp',
      });
      expect(d.table_data!.map((r) => r.value)).toEqual([3, null]);
      const phase = await list({
        query: 'LATEST',
        queryType: 'device_no_id',
        sensor: 'pm',
        config: 'meter',
        param: 'voltage',
        subparam: 'r',
      });
      expect(phase.table_data!.map((r) => r.value)).toEqual([220, null]);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });
  it.each([
    ['AVG', [30, 7]],
    ['COUNT', [5, 1]],
    ['SUM', [150, 7]],
    ['MAX', [50, 7]],
    ['MIN', [10, 7]],
    // power read as a counter: 10 → 50 in today's half hours; yesterday's 23:00 reading lies beyond a 9-hour gap
    ['USAGE', [40, 0]],
  ])('%s per device over today', async (query, expected) => {
    const d = await list({ query, queryType: 'device_no_id', sensor: 'pm', config: 'meter', param: 'power' });
    expect(d.table_data!.map((r) => r.value)).toEqual(expected);
  });
  it.each([
    ['DEVICE_CATEGORY', ['MQTT', 'MQTT']],
    ['FIRMWARE', ['2.1', '1.0']],
    ['DEVICE_ID', [0, 0]],
    ['LABEL', ['Panel A', 'Meter B']],
    ['LATEST_UPDATE', [at(18), at(9, 45)]],
    ['LATITUDE', [-6.2, -6.3]],
    ['LONGITUDE', [106.8, 106.9]],
    ['SN', ['SN-A', 'SN-B']],
    ['DEVICE_TYPE', ['MQTT', 'MQTT']],
    ['ONLINE', [true, false]],
  ])('%s of every device (queryType none)', async (query, expected) => {
    const d = await list({ query, queryType: 'none' });
    const want = query === 'DEVICE_ID' ? [dev1, dev2] : expected;
    expect(d.table_data!.map((r) => r.value)).toEqual(want);
  });
  it(`tags matching no device give no rows and "${T.dashboards.component.noDataByTags}"`, async () => {
    const d = await list(
      { query: 'LATEST', queryType: 'device_no_id', sensor: 'pm', config: 'meter', param: 'power' },
      ['tidak_ada'],
    );
    expect(d).toMatchObject({ success: true, table_data: [], devices: [], alert: T.dashboards.component.noDataByTags });
  });
  it('a map card marks each device at its registry position with its LATEST value and its time', async () => {
    const d = await evaluate({
      cat: 'MAP_CARD',
      w: 2,
      h: 1,
      model: {
        latitude: { query: 'LATITUDE', queryType: 'none' },
        longitude: { query: 'LONGITUDE', queryType: 'none' },
        value: { query: 'LATEST', queryType: 'device_no_id', sensor: 'pm', config: 'meter', param: 'power' },
        tags: ['gedung_a'],
      },
    });
    expect(d.map_marker).toEqual([
      { device_id: dev1, label: 'Panel A', latitude: -6.2, longitude: 106.8, online: true, value: 50, time: at(10) },
    ]);
  });
});

describe('condition functions (queryType condition and condition_bool)', () => {
  const cond = async (query: string, condition: string, extra: Record<string, unknown> = {}) =>
    await evaluate({
      cat: 'SINGLE_VALUE_CARD',
      w: 1,
      h: 1,
      model: {
        value: { query, queryType: query === 'IFELSE' ? 'condition_bool' : 'condition', condition, ...extra },
        filter: today,
      },
    });
  it('MATH over a function variable (SUM of power today = 150) and a device variable (LATEST = 50)', async () => {
    expect((await cond('MATH', '{func_total} / 5 + {site}')).value).toBe(80);
  });
  it('BOOL is the truth of the condition', async () => {
    expect((await cond('BOOL', '{var_b} > 2')).value).toBe(true);
    expect((await cond('BOOL', '{site} < 10')).value).toBe(false);
  });
  it('FORMAT fills the template', async () => {
    expect((await cond('FORMAT', 'Daya {site} W, total {func_total}')).value).toBe('Daya 50 W, total 150');
  });
  it('IFELSE answers the true or the false value (numbers or templates)', async () => {
    expect(
      (await cond('IFELSE', '{site} > 40', { true_condition: 'Tinggi ({site})', false_condition: 'Rendah' })).value,
    ).toBe('Tinggi (50)');
    expect((await cond('IFELSE', '{site} > 60', { true_condition: 1, false_condition: 0 })).value).toBe(0);
  });
  it('a bad expression is an error on the card, not an exception', async () => {
    expect(await cond('MATH', '{site} * (2')).toMatchObject({
      success: false,
      alert: expect.stringMatching(/^Ekspresi tidak valid/),
    });
    expect(await cond('BOOL', '{tidak_ada} > 1')).toMatchObject({
      success: false,
      alert: T.cards.unknownVariable('tidak_ada'),
    });
    expect(await cond('MATH', 'process.exit(1)')).toMatchObject({ success: false });
  });
  it('a variable referring to itself is an error on the card', async () => {
    const conf = dash({
      loop: { _varType: 'obj', queryType: 'condition', condition: '{loop} + 1', true_condition: 1, false_condition: 0 },
    });
    const d = await evaluate(
      {
        cat: 'SINGLE_VALUE_CARD',
        w: 1,
        h: 1,
        model: { value: { query: 'MATH', queryType: 'condition', condition: '{loop}' } },
      },
      {},
      conf,
    );
    expect(d).toMatchObject({ success: false, alert: T.cards.variableCycle('loop') });
  });
  it('a request variable override replaces the dashboard variable (a dropdown selection)', async () => {
    const d = await evaluate(
      {
        cat: 'SINGLE_VALUE_CARD',
        w: 1,
        h: 1,
        model: { value: { query: 'MATH', queryType: 'condition', condition: '{var_b} * 2' } },
      },
      { vars: { var_b: 21 } },
    );
    expect(d.value).toBe(42);
  });
});

describe('device states (sensor STATE_SENSOR, param = the state key)', () => {
  const state = (key: string, extra: Record<string, unknown> = {}, device: number = dev1) => ({
    query: 'LATEST',
    queryType: 'device',
    device_id: device,
    sensor: STATE_SENSOR,
    config: STATE_CONFIG,
    param: key,
    ...extra,
  });
  const full = async (component: Record<string, unknown>, query: CardFilterQuery = {}) =>
    await evaluateCard(engine.src, {
      component: Component.parse({ key: 'k', x: 0, y: 0, ...component }),
      conf: dash(),
      appId: 1,
      tz: TZ,
      now: NOW,
      query,
    });
  it("LATEST answers the state's value and the time it was last reported, and depends on that state", async () => {
    const r = await full({ cat: 'SINGLE_VALUE_CARD', w: 1, h: 1, model: { value: state('POWER') } });
    expect(r.data).toMatchObject({ success: true, value: 'ON', time: at(10, 30) });
    // raw values only: the card prints them with its display rules
    expect(r.data).not.toHaveProperty('primary');
    expect([...r.deps]).toEqual([`s:${dev1}|POWER`]);
  });
  it('a subparam picks one field of an object state', async () => {
    expect((await single(state('last_vend', { subparam: 'amount' }))).value).toBe(10000);
    expect((await single(state('last_vend'))).value).toEqual({ machine: 'w1', amount: 10000 });
    expect((await single(state('last_vend', { subparam: 'tidak_ada' }))).value).toBeNull();
  });
  it(`a state never reported answers null; a missing or another application's device "${T.cards.deviceNotFound}"`, async () => {
    expect(await single(state('Dimmer'))).toMatchObject({ success: true, value: null });
    expect(await single(state('POWER', {}, 99999))).toMatchObject({ success: false, alert: T.cards.deviceNotFound });
    expect(await single(state('POWER', {}, foreign))).toMatchObject({ success: false, alert: T.cards.deviceNotFound });
  });
  it(`an aggregate or a chart of a state is "${T.cards.stateLatestOnly}" on the card`, async () => {
    expect(await single(state('POWER', { query: 'AVG' }))).toMatchObject({
      success: false,
      alert: T.cards.stateLatestOnly,
    });
    const chart = await evaluate({
      cat: 'LINE_CHART_CARD',
      w: 2,
      h: 2,
      model: { value: state('POWER', { queryType: 'graph', query: 'LAST' }), filter: today },
    });
    expect(chart).toMatchObject({ success: false, alert: T.cards.stateLatestOnly });
  });
  it('BOOL and IFELSE read a state through a device variable', async () => {
    const conf = dash({
      plug: { _varType: 'device', device_id: dev1, sensor: STATE_SENSOR, config: STATE_CONFIG, param: 'POWER' },
    });
    const cond = async (value: Record<string, unknown>) =>
      (await evaluate({ cat: 'SINGLE_VALUE_CARD', w: 1, h: 1, model: { value } }, {}, conf)).value;
    expect(await cond({ query: 'BOOL', queryType: 'condition', condition: "{plug} == 'ON'" })).toBe(true);
    expect(
      await cond({
        query: 'IFELSE',
        queryType: 'condition_bool',
        condition: "{plug} == 'OFF'",
        true_condition: 'Mati',
        false_condition: 'Nyala sejak 09:00',
      }),
    ).toBe('Nyala sejak 09:00');
  });
  it('a list card reads the state of every device (queryType device_no_id), depending on that state anywhere', async () => {
    const r = await full({
      cat: 'LIST_CARD',
      w: 2,
      h: 2,
      model: {
        value: {
          query: 'LATEST',
          queryType: 'device_no_id',
          sensor: STATE_SENSOR,
          config: STATE_CONFIG,
          param: 'POWER',
        },
        tags: [],
      },
    });
    expect(r.data.table_data).toEqual([
      { device_id: dev1, label: 'Panel A', value: 'ON', time: at(10, 30) },
      { device_id: dev2, label: 'Meter B', value: 'OFF', time: at(9, 45) },
    ]);
    expect(r.deps.has('sa:1|POWER')).toBe(true);
  });
  it("a toggle card's status line and switch read the plug's POWER, and the target is the same state", async () => {
    const target = { device_id: dev1, sensor: STATE_SENSOR, config: STATE_CONFIG, param: 'POWER' };
    const r = await full({ cat: 'INPUT_TOGGLE_CARD', w: 1, h: 1, model: { status: state('POWER'), config: target } });
    expect(r.data).toMatchObject({ success: true, status: 'ON', value: 'ON', enable: true, time: at(10, 30) });
    expect(r.data).not.toHaveProperty('primary');
    expect(r.deps).toEqual(new Set([`dev:${dev1}`, `s:${dev1}|POWER`]));
  });
  it('a command card by tags lists the devices of its tags and is enabled while one is online; one by device follows it', async () => {
    const target = { sensor: 'relay', config: 'out', param: 'pump' };
    const byTags = await full({
      cat: 'BUTTON_TAGS_CARD',
      w: 1,
      h: 1,
      model: { tags: ['gedung:gedung_b'], config: target },
    });
    expect(byTags.data).toMatchObject({ success: true, devices: [dev2], enable: false });
    expect(byTags.deps.has('app:1')).toBe(true);
    const all = await full({ cat: 'INPUT_TOGGLE_TAGS_CARD', w: 1, h: 1, model: { tags: [], config: target } });
    expect(all.data).toMatchObject({ success: true, enable: true });
    expect([...(all.data.devices as number[])].sort()).toEqual([dev1, dev2].sort());
    const one = await full({ cat: 'BUTTON_CARD', w: 1, h: 1, model: { config: { ...target, device_id: dev1 } } });
    expect(one.data).toMatchObject({ success: true, enable: true });
    expect(one.data).not.toHaveProperty('devices');
    expect(one.deps.has(`dev:${dev1}`)).toBe(true);
  });
});
