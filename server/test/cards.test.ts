// The card calls and the live push on the real gateway: real MQTT.js devices publish, real socket.io clients watch
// a dashboard; GET /fetch/web/g, the CSV download and command cards (replying, silent and offline devices).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import { CARD_LIVE, Result, T, cardsContract, type CardPush } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { addDashboard, addDevice, memberWithRole, tenantWithApp, until } from './fixtures.js';
import { mqttDevice, settle, startDataGateway, type AppAuth } from './device-data.kit.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

let gw: Running;
let auth: AppAuth;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
const clients: MqttClient[] = [];
const sockets: Socket[] = [];
let meter: { device: { id: number }; client: MqttClient };
let silent: { device: { id: number }; client: MqttClient };
let sleeper: { id: number };
let dashboardId: number;

const power = (id: number) => ({ device_id: id, sensor: 'pm', config: 'meter', param: 'power' });
const publish = (c: MqttClient, id: number, value: number) =>
  c.publishAsync(`d/${id}/data`, JSON.stringify({ pm: { meter: { power: value } } }), { qos: 1 });

beforeAll(async () => {
  const started = await startDataGateway();
  gw = started.gw;
  auth = started.auth;
  owner = started.owner;
  meter = await mqttDevice(gw, auth, clients);
  silent = await mqttDevice(gw, auth, clients);
  sleeper = await addDevice(gw.url, auth, 'mqtt');
  // the meter answers every command; the silent device never does
  await meter.client.subscribeAsync(`d/${meter.device.id}/cmd`, { qos: 1 });
  meter.client.on('message', (topic, payload) => {
    if (topic !== `d/${meter.device.id}/cmd`) return;
    const cmd = JSON.parse(payload.toString());
    meter.client.publish(`d/${meter.device.id}/cmd/res`, JSON.stringify({ id: cmd.id, ok: true }), { qos: 1 });
  });
  await silent.client.subscribeAsync(`d/${silent.device.id}/cmd`, { qos: 1 });
  for (const v of [10, 20, 30]) await publish(meter.client, meter.device.id, v);
  await settle(
    gw,
    async () =>
      (await gw.app.telemetry.query.findSeries(owner.appId, meter.device.id, {
        sensor: 'pm',
        configtype: 'meter',
        param: 'power',
      })) !== null,
  );
  const m = meter.device.id;
  const conf = {
    version: '2',
    config: { refresh: 0 },
    var: { func_total: { _varType: 'func', query: 'SUM', queryType: 'device', ...power(m) } },
    dashboard: {
      daya: {
        key: 'daya',
        cat: 'SINGLE_VALUE_CARD',
        x: 0,
        y: 0,
        w: 1,
        h: 1,
        model: { value: { query: 'LATEST', queryType: 'device', ...power(m) } },
        view: { unit: 'W', decimal: 1 },
      },
      rata: {
        key: 'rata',
        cat: 'SINGLE_VALUE_CARD',
        x: 1,
        y: 0,
        w: 1,
        h: 1,
        model: {
          value: { query: 'AVG', queryType: 'device', ...power(m) },
          filter: { default: { name: 'Hari ini', range: 'TODAY' } },
        },
      },
      aktif: {
        key: 'aktif',
        cat: 'SINGLE_VALUE_CARD',
        x: 2,
        y: 0,
        w: 1,
        h: 1,
        model: { value: { query: 'APP_ONLINE', queryType: 'tags', tags: [] } },
      },
      rumus: {
        key: 'rumus',
        cat: 'SINGLE_VALUE_CARD',
        x: 3,
        y: 0,
        w: 1,
        h: 1,
        model: { value: { query: 'MATH', queryType: 'condition', condition: '{func_total} * (' } },
      },
      tren: {
        key: 'tren',
        cat: 'LINE_CHART_CARD',
        x: 0,
        y: 1,
        w: 2,
        h: 2,
        model: {
          value: { query: 'AVG', queryType: 'graph', ...power(m), param_label: 'daya' },
          filter: { default: { name: 'Live', ndata: 5 } },
        },
      },
      pompa: {
        key: 'pompa',
        cat: 'INPUT_TOGGLE_CARD',
        x: 2,
        y: 1,
        w: 1,
        h: 1,
        model: { config: { device_id: m, sensor: 'relay', config: 'out', param: 'pump' } },
      },
      diam: {
        key: 'diam',
        cat: 'BUTTON_CARD',
        x: 3,
        y: 1,
        w: 1,
        h: 1,
        model: { config: { device_id: silent.device.id, sensor: 'relay', config: 'out', param: 'pump' } },
      },
      tidur: {
        key: 'tidur',
        cat: 'BUTTON_CARD',
        x: 2,
        y: 2,
        w: 1,
        h: 1,
        model: { config: { device_id: sleeper.id, sensor: 'relay', config: 'out', param: 'pump' } },
      },
      semua: {
        key: 'semua',
        cat: 'BUTTON_TAGS_CARD',
        x: 3,
        y: 2,
        w: 1,
        h: 1,
        model: { tags: [], config: { sensor: 'relay', config: 'out', param: 'pump' } },
      },
    },
  };
  dashboardId = await addDashboard(gw.url, auth, 'Panel Listrik', conf);
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  clients.forEach((c) => c.end(true));
  await gw.stop();
});

const card = (componentKey: string, query: Record<string, unknown> = {}, who: Parameters<typeof call>[3] = auth) =>
  call(gw.url, cardsContract.get, { dashboardId, componentKey, ...query }, who);

async function viewer(who = sessionAuth(owner, owner.domain)) {
  const { socket, refusal } = await openSocket(gw.url, who);
  if (!socket) throw new Error(JSON.stringify(refusal));
  sockets.push(socket);
  const pushes: (CardPush & { at: number })[] = [];
  socket.on(CARD_LIVE.event, (p: CardPush) => pushes.push({ ...p, at: performance.now() }));
  return { socket, pushes };
}

describe('GET /fetch/web/g/{dashboardId}/{componentKey}', () => {
  it('answers a single value card’s raw value and time (the card prints them)', async () => {
    const r = await card('daya');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      response_result: 0,
      key: 'daya',
      cat: 'SINGLE_VALUE_CARD',
      success: true,
      value: 30,
    });
    // the raw value: the card prints it ('30,00 W') with its display rules
    expect(r.body).not.toHaveProperty('primary');
    expect(typeof r.body.time).toBe('number');
  });
  it('evaluates an aggregate over the card filter, and over the filter the request names', async () => {
    expect((await card('rata')).body).toMatchObject({
      success: true,
      value: 20,
      secondary: 'Hari ini',
      window: { type: 'PERIODIC' },
    });
    expect((await card('rata', { ndata: 2 })).body).toMatchObject({
      value: 25,
      window: { type: 'REALTIME', ndata: 2 },
    });
  });
  it('answers an aggregate of today with the time of its newest point ("Diperbarui"), not the end of the hour', async () => {
    const newest = (await card('daya')).body.time as number;
    expect((await card('rata')).body.time).toBe(newest);
  });
  it('answers a REALTIME chart with the last N points', async () => {
    const r = await card('tren');
    expect(r.body.chart_keys).toEqual(['daya']);
    expect(r.body.chart_data.map((row: Record<string, unknown>) => row.daya)).toEqual([10, 20, 30]);
  });
  it('answers a bad expression as an error on that card (HTTP 200, success false), not a 500', async () => {
    const r = await card('rumus');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      response_result: 0,
      success: false,
      alert: expect.stringMatching(/^Ekspresi tidak valid/),
    });
  });
  it('answers 404 for an unknown card, and for the dashboard of another application', async () => {
    expect((await card('tidak_ada')).status).toBe(404);
    const other = await tenantWithApp(gw.url);
    const r = await card('daya', {}, { tenant: other.tenant, domain: other.domain });
    expect(r).toMatchObject({ status: 404, body: { response_result: Result.NOT_FOUND } });
  });
  it('lets a member in when the role grants the dashboard, and refuses one whose role does not (403)', async () => {
    const granted = await memberWithRole(gw.url, owner, { navs: [dashboardId] });
    const refused = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    expect((await card('daya', {}, { member: granted.member, domain: owner.domain })).body).toMatchObject({
      response_result: 0,
      value: 30,
    });
    expect((await card('daya', {}, { member: refused.member, domain: owner.domain })).status).toBe(403);
  });
  it('answers -10 for a malformed filter query', async () => {
    expect((await card('daya', { vars: '{bukan json' })).status).toBe(400);
  });
  it('reads a range relative to now (span: "7 hari terakhir"), and an absolute one (start, end)', async () => {
    const week = 7 * 86_400_000;
    const before = Date.now();
    const r = (await card('rata', { type: 'CUSTOM', span: week })).body;
    expect(r).toMatchObject({ success: true, value: 20, window: { type: 'CUSTOM' } });
    expect(r.window.end - r.window.start).toBe(week);
    expect(r.window.end).toBeGreaterThanOrEqual(before);
    const end = Date.now();
    expect((await card('rata', { type: 'CUSTOM', start: end - week, end })).body.window).toMatchObject({
      start: end - week,
      end: end + 1,
    });
  });
  it(`refuses a range out of order ("${T.cards.rangeOrder}") or longer than 400 days, on the card or as input`, async () => {
    const now = Date.now();
    expect((await card('rata', { type: 'CUSTOM', start: now, end: now - 3_600_000 })).body).toMatchObject({
      response_result: 0,
      success: false,
      alert: T.cards.rangeOrder,
    });
    expect((await card('rata', { type: 'CUSTOM', start: now - 401 * 86_400_000, end: now })).body).toMatchObject({
      success: false,
      alert: T.cards.rangeTooLong(400),
    });
    // a span is bounded by the contract itself
    expect((await card('rata', { type: 'CUSTOM', span: 401 * 86_400_000 })).status).toBe(400);
    expect((await card('rata', { type: 'CUSTOM', span: 10 })).status).toBe(400);
  });
});

describe("POST /fetch/web/preview/{dashboardId} (the component editor's preview)", () => {
  const unsaved = (over: Record<string, unknown> = {}) => ({
    key: 'baru',
    cat: 'SINGLE_VALUE_CARD',
    x: 0,
    y: 3,
    w: 1,
    h: 1,
    model: { value: { query: 'LATEST', queryType: 'device', ...power(meter.device.id) } },
    view: { unit: 'W' },
    ...over,
  });
  const preview = (
    component: unknown,
    query: Record<string, unknown> = {},
    who: Parameters<typeof call>[3] = auth,
    id = dashboardId,
  ) => call(gw.url, cardsContract.preview, { dashboardId: id, component, ...query } as never, who);

  it('evaluates a card that is not saved, as the card query evaluates a stored one, and stores nothing', async () => {
    const r = await preview(unsaved());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      response_result: 0,
      key: 'baru',
      cat: 'SINGLE_VALUE_CARD',
      success: true,
      value: 30,
    });
    expect((await card('baru')).status).toBe(404);
  });
  it("reads the dashboard's variables and the filter query", async () => {
    const math = await preview(
      unsaved({ model: { value: { query: 'MATH', queryType: 'condition', condition: '{func_total} * 2' } } }),
    );
    expect(math.body).toMatchObject({ success: true, value: 120 });
    const chart = await preview(
      unsaved({
        cat: 'LINE_CHART_CARD',
        w: 2,
        h: 2,
        model: { value: { query: 'AVG', queryType: 'graph', ...power(meter.device.id), param_label: 'daya' } },
      }),
      { ndata: 2 },
    );
    expect(chart.body.chart_data.map((row: Record<string, unknown>) => row.daya)).toEqual([20, 30]);
  });
  it('answers a component the schema refuses with -10 and the field, and a bad expression on the card (success false)', async () => {
    const bad = await preview(unsaved({ key: '1salah' }));
    expect(bad).toMatchObject({ status: 400, body: { response_result: Result.INVALID } });
    expect(bad.body.errors[0].path).toBe('component.key');
    expect(
      (
        await preview(
          unsaved({ model: { value: { query: 'MATH', queryType: 'condition', condition: '{func_total} * (' } } }),
        )
      ).body,
    ).toMatchObject({ success: false });
  });
  it("is the editor's only: 404 for another application's dashboard, 403 for a viewer or a manager without the dashboard", async () => {
    const other = await tenantWithApp(gw.url);
    expect((await preview(unsaved(), {}, { tenant: other.tenant, domain: other.domain })).status).toBe(404);
    const viewer = await memberWithRole(gw.url, owner, { navs: [dashboardId] });
    expect((await preview(unsaved(), {}, { member: viewer.member, domain: owner.domain })).status).toBe(403);
    const elsewhere = await memberWithRole(gw.url, owner, { sys_navs: ['_dashboard_manage_'] });
    expect((await preview(unsaved(), {}, { member: elsewhere.member, domain: owner.domain })).status).toBe(403);
    const editor = await memberWithRole(gw.url, owner, { sys_navs: ['_dashboard_manage_'], navs: [dashboardId] });
    expect((await preview(unsaved(), {}, { member: editor.member, domain: owner.domain })).body).toMatchObject({
      response_result: 0,
      value: 30,
    });
  });
});

describe('live push over socket.io', () => {
  it('pushes a card update within 100 ms of an MQTT publish, and nothing to a client that did not subscribe', async () => {
    const watcher = await viewer();
    const bystander = await viewer();
    const ack = await ask(watcher.socket, 'subscribe', {
      channel: CARD_LIVE.channel,
      params: { dashboard_id: dashboardId },
    });
    expect(ack).toMatchObject({ response_result: 0, room: expect.stringMatching(/^cards\./) });
    // first a full frame of every card
    expect(await until(() => new Set(watcher.pushes.map((p) => p.key)).size === 9)).toBe(true);
    expect(watcher.pushes.find((p) => p.key === 'daya')).toMatchObject({
      mode: 'full',
      dashboard_id: dashboardId,
      data: { value: 30 },
    });
    // time itself: past the card's coalescing window (100 ms), so the update is pushed at once
    await new Promise((r) => setTimeout(r, 150));
    const sent = performance.now();
    await publish(meter.client, meter.device.id, 41);
    expect(await until(() => watcher.pushes.some((p) => p.key === 'daya' && p.data.value === 41))).toBe(true);
    const update = watcher.pushes.find((p) => p.key === 'daya' && p.data.value === 41)!;
    expect(update.at - sent).toBeLessThan(100);
    // only the cards reading that series were recomputed: the presence card was not pushed again
    expect(watcher.pushes.filter((p) => p.key === 'aktif')).toHaveLength(1);
    expect(bystander.pushes).toEqual([]);
    await ask(watcher.socket, 'unsubscribe', { room: ack.room });
  });

  it('sends a REALTIME chart the appended points only', async () => {
    const w = await viewer();
    const ack = await ask(w.socket, 'subscribe', {
      channel: CARD_LIVE.channel,
      params: { dashboard_id: dashboardId, keys: ['tren'] },
    });
    expect(await until(() => w.pushes.length === 1)).toBe(true);
    expect(w.pushes[0]).toMatchObject({ key: 'tren', mode: 'full' });
    // time itself: past the card's coalescing window (100 ms), so the append is pushed at once
    await new Promise((r) => setTimeout(r, 120));
    await publish(meter.client, meter.device.id, 55);
    expect(await until(() => w.pushes.length === 2)).toBe(true);
    expect(w.pushes[1]).toMatchObject({
      key: 'tren',
      mode: 'append',
      data: { chart_data: [{ daya: 55, ts: expect.any(Number) }] },
    });
    await ask(w.socket, 'unsubscribe', { room: ack.room });
  });

  it('pushes device online/offline changes to the cards that read presence', async () => {
    const w = await viewer();
    const ack = await ask(w.socket, 'subscribe', {
      channel: CARD_LIVE.channel,
      params: { dashboard_id: dashboardId, keys: ['aktif'] },
    });
    expect(await until(() => w.pushes.length === 1)).toBe(true);
    expect(w.pushes[0]!.data.value).toBe(2);
    const late = await mqttDevice(gw, auth, clients);
    expect(await until(() => w.pushes.some((p) => p.data.value === 3))).toBe(true);
    late.client.end(true);
    expect(await until(() => w.pushes.at(-1)!.data.value === 2)).toBe(true);
    await ask(w.socket, 'unsubscribe', { room: ack.room });
  });

  it('refuses another tenant (error, no room, no data) and keeps no work for a dashboard nobody watches', async () => {
    const other = await tenantWithApp(gw.url);
    const intruder = await viewer(sessionAuth(other, other.domain));
    expect(
      await ask(intruder.socket, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId } }),
    ).toMatchObject({ response_result: Result.NOT_FOUND });
    expect(
      await ask(intruder.socket, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: 'x' } }),
    ).toMatchObject({ response_result: Result.INVALID });
    // the owner watches the same dashboard: once its viewer has the new value, the room's push went out
    const w = await viewer();
    const ack = await ask(w.socket, 'subscribe', {
      channel: CARD_LIVE.channel,
      params: { dashboard_id: dashboardId, keys: ['daya'] },
    });
    expect(await until(() => w.pushes.length === 1)).toBe(true);
    await publish(meter.client, meter.device.id, 60);
    expect(await until(() => w.pushes.some((p) => p.key === 'daya' && p.data.value === 60))).toBe(true);
    await ask(w.socket, 'unsubscribe', { room: ack.room });
    expect(intruder.pushes).toEqual([]);
    expect(await until(() => gw.app.realtime.viewers('x') === 0 && (cardsLiveStats()?.rooms ?? 0) === 0)).toBe(true);
  });
});

function cardsLiveStats() {
  return gw.app.cards.live?.stats();
}

describe('GET /fetch/web/file/csv/card/{dashboardId}/{componentKey}', () => {
  it("names a download card's CSV of a graph query Chart_ plus the key and a timestamp, as the browser saves it", async () => {
    const m = meter.device.id;
    const unduh = {
      key: 'unduh',
      cat: 'DOWNLOAD_DATA_CARD',
      x: 0,
      y: 0,
      w: 1,
      h: 1,
      model: { value: { query: 'AVG', queryType: 'graph', ...power(m), param_label: 'daya' } },
    };
    const downloads = await addDashboard(gw.url, auth, 'Unduhan', {
      version: '2',
      config: { refresh: 0 },
      dashboard: { unduh },
    });
    const res = await fetch(
      `${gw.url}/fetch/web/file/csv/card/${downloads}/unduh?start=${Date.now() - 3_600_000}&end=${Date.now() + 1000}`,
      {
        headers: {
          'x-tenant-id': String(owner.tenant.id),
          'x-tenant-token': owner.tenant.token,
          'x-app-domain': owner.domain,
        },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="Chart_unduh_\d{8}_\d{6}\.csv"/);
    await res.text();
  });
  it('streams the points of the window as CSV (start and end)', async () => {
    const res = await fetch(
      `${gw.url}/fetch/web/file/csv/card/${dashboardId}/tren?start=${Date.now() - 3_600_000}&end=${Date.now() + 1000}`,
      {
        headers: {
          'x-tenant-id': String(owner.tenant.id),
          'x-tenant-token': owner.tenant.token,
          'x-app-domain': owner.domain,
        },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    // the one rule of contracts: Chart_ for a graph query, the key, YYYYMMDD_HHmmss in the application's time zone
    const stamp = (res.headers.get('content-disposition') ?? '').match(/filename="Chart_tren_(\d{8}_\d{6})\.csv"/)?.[1];
    expect(stamp).toBeDefined();
    expect(
      Math.abs(
        Date.parse(
          `${stamp!.slice(0, 4)}-${stamp!.slice(4, 6)}-${stamp!.slice(6, 8)}T${stamp!.slice(9, 11)}:${stamp!.slice(11, 13)}:${stamp!.slice(13, 15)}+07:00`,
        ) - Date.now(),
      ),
    ).toBeLessThan(60_000);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('time,ts,daya');
    expect(lines.slice(1).map((l) => Number(l.split(',')[2]))).toEqual(expect.arrayContaining([10, 20, 30, 41, 55]));
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+07:00,\d+,/);
  });
});

describe('POST /fetch/web/p/{dashboardId}/{componentKey}', () => {
  const press = (componentKey: string, body: Record<string, unknown> = {}) =>
    call(gw.url, cardsContract.command, { dashboardId, componentKey, ...body }, auth);
  it(`answers "${T.dashboards.commands.success}" when the device replies`, async () => {
    const r = await press('pompa', { value: true });
    expect(r.body).toEqual({ response_result: 0, message: T.dashboards.commands.success });
  });
  it('answers -32 "(timeout)" for a device that never replies', async () => {
    const r = await press('diam');
    expect(r).toMatchObject({
      status: 400,
      body: {
        response_result: Result.DEVICE_TIMEOUT,
        message: `${T.dashboards.commands.failed} ${T.dashboards.commands.timeout}`,
      },
    });
  });
  it('answers -30 "(perangkat sedang offline)" for a device that is not connected', async () => {
    const r = await press('tidur');
    expect(r).toMatchObject({
      status: 400,
      body: {
        response_result: Result.DEVICE_OFFLINE,
        message: `${T.dashboards.commands.failed} ${T.dashboards.commands.offline}`,
      },
    });
  });
  it('sends a tag card to every matching device and reports each', async () => {
    const r = await press('semua', { value: 1 });
    expect(r.body.response_result).not.toBe(0);
    const byDevice = Object.fromEntries(
      r.body.results.map((x: { device_id: number; response_result: number }) => [x.device_id, x.response_result]),
    );
    expect(byDevice[meter.device.id]).toBe(0);
    expect(byDevice[silent.device.id]).toBe(Result.DEVICE_TIMEOUT);
    expect(byDevice[sleeper.id]).toBe(Result.DEVICE_OFFLINE);
  });
  it('refuses a card that is not a command card', async () => {
    expect((await press('daya')).status).toBe(400);
  });
});
