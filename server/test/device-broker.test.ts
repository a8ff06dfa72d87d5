// Devices on the broker with real MQTT.js clients (docs/conventions.md "Device topics"): each signs in with its own
// credentials and uses only its own topics; presence follows connections; removed or disabled devices are kicked and
// refused.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { credentialsContract, deviceFamilyCalls, devicesContract, loraContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';
import { eventually } from '../src/platform/testing/until.js';

let gw: Running;
let auth: { tenant: { id: number; token: string }; domain: string };
let appId: number;
const open: MqttClient[] = [];
beforeAll(async () => {
  gw = await startGateway();
  const owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
  appId = owner.appId;
});
afterEach(() => {
  open.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

async function connect(opts: Parameters<typeof mqttAttempt>[1]) {
  const a = await mqttAttempt(gw.mqttPort, { clientId: unique('c'), ...opts });
  if (!a.client) throw new Error(`refused: ${a.code}`);
  open.push(a.client);
  return a.client;
}
/** a publish outside the client's rights: dropped and counted for that device, the connection stays up (issue 27) */
async function dropped(c: MqttClient, topic: string, payload: string) {
  const before = gw.app.broker.metrics().dropped_publishes;
  await c.publishAsync(topic, payload, { qos: 1 });
  expect(await until(() => gw.app.broker.metrics().dropped_publishes === before + 1)).toBe(true);
  expect(c.connected).toBe(true);
}
const asMqtt = (d: Record<string, any>) => ({
  username: d.store_mqtt_username as string,
  password: d.store_mqtt_password as string,
});
const getDevice = async (id: number) => (await call(gw.url, devicesContract.get, { id }, auth)).body.data;

describe('MQTT devices', () => {
  it('refuses unknown usernames, wrong passwords and anonymous clients (CONNACK 5)', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    expect((await mqttAttempt(gw.mqttPort, { username: 'siapa', password: 'x' })).code).toBe(5);
    expect((await mqttAttempt(gw.mqttPort, { username: d.store_mqtt_username, password: 'salah' })).code).toBe(5);
    expect((await mqttAttempt(gw.mqttPort, {})).code).toBe(5);
  });
  it("cannot publish to another device's topic (dropped, counted, still connected): the other device's subscriber receives nothing", async () => {
    const a = await addDevice(gw.url, auth, 'mqtt');
    const b = await addDevice(gw.url, auth, 'mqtt');
    const bClient = await connect(asMqtt(b));
    const received: string[] = [];
    bClient.on('message', (topic) => received.push(topic));
    await bClient.subscribeAsync(`d/${b.id}/#`);
    const aClient = await connect(asMqtt(a));
    await expect(aClient.subscribeAsync(`d/${b.id}/#`)).rejects.toThrow(/Subscribe error/);
    await expect(aClient.subscribeAsync('d/+/cmd')).rejects.toThrow(/Subscribe error/);
    await expect(aClient.subscribeAsync('#')).rejects.toThrow(/Subscribe error/);
    await dropped(aClient, `d/${b.id}/cmd`, '{"id":"x","param":"relay","value":true}');
    // its own topic works on the same connection, and B got nothing of A's attempt
    await aClient.publishAsync(`d/${a.id}/data`, '{}', { qos: 1 });
    // B's own message comes through to its subscription: a delivery of A's attempt would have come by then too
    await bClient.publishAsync(`d/${b.id}/data`, '{}', { qos: 1 });
    await eventually(() => expect(received).toContain(`d/${b.id}/data`));
    expect(received).toEqual([`d/${b.id}/data`]);
  });
  it('is online while connected and offline with last_offline_ts after disconnecting', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    const c = await connect(asMqtt(d));
    expect(await until(async () => (await getDevice(d.id)).online === true)).toBe(true);
    const on = await getDevice(d.id);
    expect(on.last_online_ts).toBeGreaterThan(Date.now() - 10_000);
    c.end(true);
    expect(await until(async () => (await getDevice(d.id)).online === false)).toBe(true);
    expect((await getDevice(d.id)).last_offline_ts).toBeGreaterThanOrEqual(on.last_online_ts);
  });
  it('kicks a removed device at once and refuses it afterwards', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    const c = await connect(asMqtt(d));
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    expect((await call(gw.url, deviceFamilyCalls.mqtt.remove, { id: d.id }, auth)).body.response_result).toBe(0);
    await closed;
    expect((await mqttAttempt(gw.mqttPort, asMqtt(d))).code).toBe(5);
  });
  it('kicks a disabled device and refuses it until enabled again', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    const c = await connect(asMqtt(d));
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    expect((await call(gw.url, devicesContract.edit, { id: d.id, disabled: true }, auth)).body.data).toMatchObject({
      disabled: true,
      online: false,
    });
    await closed;
    expect((await mqttAttempt(gw.mqttPort, asMqtt(d))).code).toBe(5);
    await call(gw.url, devicesContract.edit, { id: d.id, disabled: false }, auth);
    await connect(asMqtt(d));
  });
});

describe('Tasmota devices', () => {
  it('publish tele/stat and subscribe cmnd under their own topic only; LWT Offline marks them offline', async () => {
    const t = await addDevice(gw.url, auth, 'tasmota');
    const other = await addDevice(gw.url, auth, 'tasmota');
    const c = await connect({
      username: t.username,
      password: t.password,
      will: { topic: `tele/${t.topic}/LWT`, payload: Buffer.from('Offline'), qos: 1, retain: true },
    });
    await c.subscribeAsync(`cmnd/${t.topic}/#`);
    await expect(c.subscribeAsync(`cmnd/${other.topic}/#`)).rejects.toThrow(/Subscribe error/);
    await c.publishAsync(`tele/${t.topic}/LWT`, 'Online', { qos: 1, retain: true });
    await c.publishAsync(`tele/${t.topic}/SENSOR`, '{"ENERGY":{"Power":12}}', { qos: 1 });
    await c.publishAsync(`stat/${t.topic}/RESULT`, '{"POWER":"ON"}', { qos: 1 });
    expect(await until(async () => (await getDevice(t.id)).online === true)).toBe(true);
    await c.publishAsync(`tele/${t.topic}/LWT`, 'Offline', { qos: 1, retain: true });
    expect(await until(async () => (await getDevice(t.id)).online === false)).toBe(true);
    await dropped(c, `cmnd/${other.topic}/POWER`, 'ON');
    await dropped(c, `cmnd/${t.topic}/Backlog`, 'Power ON');
  });
});

describe('LoRa network-server integration', () => {
  it("signs in with an application credentials pair and reports uplinks of that application's LoRa devices only", async () => {
    const pair = await call(
      gw.url,
      credentialsContract.create,
      { credentials_id: unique('ns'), scopes: { navs: [] }, details: {} },
      auth,
    );
    expect(pair.body.response_result).toBe(0);
    const { credentials_id, credentials_secret } = pair.body.data;
    const server = await call(
      gw.url,
      loraContract.add,
      { mac: 'AA:BB:CC:00:00:01', name: 'ChirpStack', server: 'chirpstack:1700' },
      auth,
    );
    const d = await addDevice(gw.url, auth, 'lora', {
      dev_eui: '70B3D57ED0001234',
      otaa_key: 'A'.repeat(32),
      network_server_id: server.body.data.id,
    });
    expect((await mqttAttempt(gw.mqttPort, { username: credentials_id, password: 'salah' })).code).toBe(5);
    const ns = await connect({ username: credentials_id, password: credentials_secret });
    await ns.subscribeAsync(`application/${appId}/device/+/command/down`);
    await expect(ns.subscribeAsync(`application/${appId + 1}/#`)).rejects.toThrow(/Subscribe error/);
    const uplink = { deviceInfo: { devEui: '70b3d57ed0001234' }, fPort: 1, data: 'AQI=', object: { suhu: 27.5 } };
    await ns.publishAsync(`application/${appId}/device/70b3d57ed0001234/event/up`, JSON.stringify(uplink), { qos: 1 });
    expect(await until(async () => (await getDevice(d.id)).online === true)).toBe(true);
    await dropped(ns, `application/${appId + 1}/device/70b3d57ed0001234/event/up`, '{}');
  });
});

describe('last_online_ts of a device that stays online', () => {
  it('moves with its messages, at most every 10 s, written in the next second', async () => {
    let clock = Date.now();
    const timed = await startGateway({}, { now: () => clock });
    try {
      const owner = await tenantWithApp(timed.url);
      const own = { tenant: owner.tenant, domain: owner.domain };
      const d = await addDevice(timed.url, own, 'mqtt');
      const lastOnline = async () =>
        (await call(timed.url, devicesContract.get, { id: d.id }, own)).body.data.last_online_ts as number | null;
      const c = (await mqttAttempt(timed.mqttPort, { clientId: unique('c'), ...asMqtt(d) })).client!;
      try {
        expect(await until(async () => (await lastOnline()) === clock)).toBe(true);
        const connectedAt = clock;
        clock += 4000;
        await c.publishAsync(`d/${d.id}/data`, '{"s":{"data":{"n":1}}}', { qos: 1 });
        // time for the presence writer (it writes within a second) to store a last-online the rule should not move
        await new Promise((r) => setTimeout(r, 1300));
        expect(await lastOnline()).toBe(connectedAt);
        clock += 7000;
        await c.publishAsync(`d/${d.id}/data`, '{"s":{"data":{"n":2}}}', { qos: 1 });
        expect(await until(async () => (await lastOnline()) === connectedAt + 11_000)).toBe(true);
      } finally {
        c.end(true);
      }
    } finally {
      await timed.stop();
    }
  });
});
