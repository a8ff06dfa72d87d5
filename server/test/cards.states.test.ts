// Cards reading device states on the real gateway: a Tasmota plug (a real MQTT.js client speaking Tasmota's topics)
// reports POWER, a socket.io viewer of the dashboard receives the toggle card's new state, and the toggle's command
// goes out as cmnd/<topic>/POWER and comes back as stat/<topic>/RESULT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import { CARD_LIVE, STATE_CONFIG, STATE_SENSOR, T, cardsContract, type CardPush } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { addDashboard, until } from './fixtures.js';
import { settle, startDataGateway, tasmotaDevice, type AppAuth, type Owner } from './device-data.kit.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

let gw: Running;
let auth: AppAuth;
let owner: Owner;
let plug: { device: { id: number }; client: MqttClient; topic: string };
let dashboardId: number;
const clients: MqttClient[] = [];
const sockets: Socket[] = [];
const commands: string[] = [];

const power = (id: number) => ({ device_id: id, sensor: STATE_SENSOR, config: STATE_CONFIG, param: 'POWER' });

beforeAll(async () => {
  ({ gw, auth, owner } = await startDataGateway());
  plug = await tasmotaDevice(gw, auth, clients);
  const { client, topic } = plug;
  // answers cmnd/<topic>/POWER as the firmware does: RESULT, then POWER
  await client.subscribeAsync(`cmnd/${topic}/POWER`, { qos: 0 });
  client.on('message', (t, payload) => {
    if (t !== `cmnd/${topic}/POWER`) return;
    const next = payload.toString().toUpperCase() === 'ON' ? 'ON' : 'OFF';
    commands.push(payload.toString());
    client.publish(`stat/${topic}/RESULT`, JSON.stringify({ POWER: next }));
    client.publish(`stat/${topic}/POWER`, next);
  });
  await client.publishAsync(`stat/${topic}/RESULT`, JSON.stringify({ POWER: 'OFF' }), { qos: 1 });
  await settle(gw, async () =>
    (await gw.app.telemetry.states.list(owner.appId, plug.device.id)).some((s) => s.key === 'POWER'),
  );
  const id = plug.device.id;
  const conf = {
    version: '2',
    config: { refresh: 0 },
    var: { stopkontak: { _varType: 'device', ...power(id) } },
    dashboard: {
      lampu: {
        key: 'lampu',
        cat: 'INPUT_TOGGLE_CARD',
        x: 0,
        y: 0,
        w: 1,
        h: 1,
        model: { status: { query: 'LATEST', queryType: 'device', ...power(id) }, config: power(id) },
        view: { title: 'Lampu teras' },
      },
      nyala: {
        key: 'nyala',
        cat: 'SINGLE_VALUE_CARD',
        x: 1,
        y: 0,
        w: 1,
        h: 1,
        model: {
          value: {
            query: 'IFELSE',
            queryType: 'condition_bool',
            condition: "{stopkontak} == 'ON'",
            true_condition: 'Menyala',
            false_condition: 'Padam',
          },
        },
      },
      semua: {
        key: 'semua',
        cat: 'LIST_CARD',
        x: 2,
        y: 0,
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
      },
    },
  };
  dashboardId = await addDashboard(gw.url, auth, 'Stopkontak', conf);
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  clients.forEach((c) => c.end(true));
  await gw.stop();
});

const card = (componentKey: string) => call(gw.url, cardsContract.get, { dashboardId, componentKey }, auth);

async function viewer() {
  const { socket, refusal } = await openSocket(gw.url, sessionAuth(owner, owner.domain));
  if (!socket) throw new Error(JSON.stringify(refusal));
  sockets.push(socket);
  const pushes: CardPush[] = [];
  socket.on(CARD_LIVE.event, (p: CardPush) => pushes.push(p));
  const ack = await ask(socket, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId } });
  expect(ack).toMatchObject({ response_result: 0 });
  expect(await until(() => new Set(pushes.map((p) => p.key)).size === 3)).toBe(true);
  return { socket, pushes, room: ack.room as string };
}
const latest = (pushes: CardPush[], key: string) => pushes.filter((p) => p.key === key).at(-1)?.data;

describe('cards reading a device state (Tasmota POWER)', () => {
  it("GET answers the toggle card's state, a condition over it and a list of every device's state", async () => {
    expect((await card('lampu')).body).toMatchObject({
      response_result: 0,
      success: true,
      status: 'OFF',
      enable: true,
    });
    expect((await card('nyala')).body).toMatchObject({ success: true, value: 'Padam' });
    expect((await card('semua')).body.table_data).toEqual([
      expect.objectContaining({ device_id: plug.device.id, value: 'OFF' }),
    ]);
  });

  it('pushes the new state to a subscribed socket.io viewer when the plug reports POWER (a button press on the plug)', async () => {
    const w = await viewer();
    expect(latest(w.pushes, 'lampu')).toMatchObject({ status: 'OFF' });
    // time itself: past the card's coalescing window (100 ms), so the new state is pushed at once
    await new Promise((r) => setTimeout(r, 120));
    await plug.client.publishAsync(`stat/${plug.topic}/POWER`, 'ON', { qos: 1 });
    expect(await until(() => latest(w.pushes, 'lampu')?.status === 'ON')).toBe(true);
    expect(await until(() => latest(w.pushes, 'nyala')?.value === 'Menyala')).toBe(true);
    expect(
      await until(
        () => (latest(w.pushes, 'semua')?.table_data as { value: unknown }[] | undefined)?.[0]?.value === 'ON',
        2000,
      ),
    ).toBe(true);
    await ask(w.socket, 'unsubscribe', { room: w.room });
  });

  it('switches the plug from the toggle card (cmnd/<topic>/POWER OFF), and the state it reports comes back to the viewer', async () => {
    const w = await viewer();
    expect(latest(w.pushes, 'lampu')).toMatchObject({ status: 'ON' });
    const r = await call(gw.url, cardsContract.command, { dashboardId, componentKey: 'lampu', value: false }, auth);
    expect(r.body).toEqual({ response_result: 0, message: T.dashboards.commands.success });
    expect(commands.at(-1)).toBe('OFF');
    expect(await until(() => latest(w.pushes, 'lampu')?.status === 'OFF')).toBe(true);
    // each card is pushed on its own: the condition card's frame may come a moment after the toggle's
    expect(await until(() => latest(w.pushes, 'nyala')?.value === 'Padam')).toBe(true);
    await ask(w.socket, 'unsubscribe', { room: w.room });
  });

  it("downloads the state's values of the window as a CSV column: the one in effect at the start, then each change", async () => {
    const csv = async (key: string, start: number) => {
      const res = await fetch(
        `${gw.url}/fetch/web/file/csv/card/${dashboardId}/${key}?start=${start}&end=${Date.now() + 1000}`,
        {
          headers: {
            'x-tenant-id': String(owner.tenant.id),
            'x-tenant-token': owner.tenant.token,
            'x-app-domain': owner.domain,
          },
        },
      );
      expect(res.status).toBe(200);
      return (await res.text())
        .trim()
        .split('\n')
        .map((l) => l.split(','));
    };
    // the store answers newest first (as Lihat State shows them); the CSV is oldest first
    const changes = (
      await gw.app.telemetry.states.periodic(owner.appId, plug.device.id, 'POWER', 0, Date.now() + 1000)
    ).rows.reverse();
    // OFF, ON (the button), OFF (the toggle card): three periods
    expect(changes.map((c) => c.value)).toEqual(['OFF', 'ON', 'OFF']);
    const all = await csv('lampu', Date.now() - 3_600_000);
    expect(all[0]).toEqual(['time', 'ts', 'POWER']);
    expect(all.slice(1).map((r) => r[2])).toEqual(['OFF', 'ON', 'OFF']);
    expect(all.slice(1).map((r) => Number(r[1]))).toEqual(changes.map((c) => c.initial_ts));
    // from just after the button press: ON, as it was at the start, then OFF
    const since = await csv('lampu', changes[1]!.initial_ts + 1);
    expect(since.slice(1).map((r) => [Number(r[1]), r[2]])).toEqual([
      [changes[1]!.initial_ts + 1, 'ON'],
      [changes[2]!.initial_ts, 'OFF'],
    ]);
    // a list card of every device's state is written long: one row per device and change
    const list = await csv('semua', Date.now() - 3_600_000);
    expect(list[0]).toEqual(['time', 'ts', 'device_id', 'label', 'series', 'value']);
    expect(list.slice(1).map((r) => [Number(r[2]), r.at(-1)])).toEqual([
      [plug.device.id, 'OFF'],
      [plug.device.id, 'ON'],
      [plug.device.id, 'OFF'],
    ]);
  });
});
