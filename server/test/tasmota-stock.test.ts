// Stock Tasmota on the embedded broker (issue 27): the firmware's whole connect sequence on ONE MQTT.js connection,
// as its MQTT driver (xdrv_02_mqtt.ino, MqttConnected) and discovery driver (xdrv_12_discovery.ino) send it, then
// console commands on that same connection. Before issue 27 the empty POWER query and the discovery publishes closed
// the connection 10–35 ms after CONNACK, so the device never kept its cmnd/<topic>/# subscription.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { Result, T, commandsContract, deviceDataContract, deviceFamilyCalls } from '@sentra/contracts';
import { call, onlineOf, type Running } from './harness.js';
import { addDevice, mqttAttempt, unique, until } from './fixtures.js';
import { startDataGateway, type AppAuth } from './device-data.kit.js';

let gw: Running;
let auth: AppAuth;
let clients: MqttClient[];
beforeAll(async () => {
  ({ gw, auth, clients } = await startDataGateway());
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

const MAC = 'A4CF12ABCDEF';
const CLIENT = 'DVES_ABCDEF';

/** the three subscriptions of MqttConnected, each its own SUBSCRIBE; answers the granted QoS (128: refused) */
async function subscribe(client: MqttClient, filter: string): Promise<number> {
  return client.subscribeAsync(filter, { qos: 0 }).then(
    (granted) => granted[0]!.qos,
    // MQTT.js reports a SUBACK 128 as an error carrying the packet
    (err: { packet?: { granted?: number[] } }) => err.packet?.granted?.[0] ?? -1,
  );
}

/** the retained discovery config of xdrv_12_discovery.ino (TasDiscoverMessage), for a Sonoff Basic */
const discoveryConfig = (topic: string) => ({
  ip: '192.168.1.50',
  dn: 'Tasmota',
  fn: ['Lampu Teras', null, null, null, null, null, null, null],
  hn: 'tasmota-ABCDEF-3567',
  mac: MAC,
  md: 'Sonoff Basic',
  ty: 0,
  if: 0,
  cam: 0,
  ofln: 'Offline',
  onln: 'Online',
  state: ['OFF', 'ON', 'TOGGLE', 'HOLD'],
  sw: '14.3.0',
  t: topic,
  ft: '%prefix%/%topic%/',
  tp: ['cmnd', 'stat', 'tele'],
  rl: [1, 0, 0, 0, 0, 0, 0, 0],
  swc: [-1, -1, -1, -1, -1, -1, -1, -1],
  swn: [null, null, null, null, null, null, null, null],
  btn: [0, 0, 0, 0, 0, 0, 0, 0],
  so: { '4': 0, '11': 0, '13': 0, '17': 0, '20': 0, '30': 0, '68': 0, '73': 0, '82': 0, '114': 0, '117': 0 },
  lk: 0,
  lt_st: 0,
  bat: 0,
  dslp: 0,
  sho: [],
  sht: [],
  ver: 1,
});
const energy = {
  TotalStartTime: '2026-01-02T10:00:00',
  Total: 12.345,
  Yesterday: 0.5,
  Today: 0.12,
  Power: 42,
  ApparentPower: 50,
  ReactivePower: 27,
  Factor: 0.84,
  Voltage: 229,
  Current: 0.218,
};

/**
 * A stock Tasmota (SetOption4 0: command answers on RESULT; SetOption4 1 devices answer on the command's own stat
 * topic, set per call by `statOnly`): it keeps its relay, answers cmnd/<topic>/POWER like the firmware does.
 */
function firmware(client: MqttClient, topic: string) {
  const state = { power: 'OFF', statOnly: false, commands: [] as [string, string][] };
  client.on('message', (t, payload) => {
    if (!t.startsWith(`cmnd/${topic}/`)) return;
    const command = t.slice(`cmnd/${topic}/`.length);
    const value = payload.toString();
    state.commands.push([command, value]);
    if (command.toUpperCase() !== 'POWER')
      return void client.publish(`stat/${topic}/RESULT`, JSON.stringify({ Command: 'Unknown' }));
    if (/^(on|1|true)$/i.test(value)) state.power = 'ON';
    else if (/^(off|0|false)$/i.test(value)) state.power = 'OFF';
    else if (/^toggle$/i.test(value)) state.power = state.power === 'ON' ? 'OFF' : 'ON';
    if (!state.statOnly) client.publish(`stat/${topic}/RESULT`, JSON.stringify({ POWER: state.power }));
    client.publish(`stat/${topic}/POWER`, state.power);
  });
  return state;
}

describe('stock Tasmota: its connect sequence and console commands on one connection', () => {
  it('keeps the connection through the whole boot sequence, fills the device info from discovery, and completes a RESULT-answered and a stat/POWER-only command', async () => {
    const device = await addDevice(gw.url, auth, 'tasmota');
    const topic: string = device.topic;
    const droppedBefore = gw.app.broker.metrics().dropped_publishes;

    // CONNECT as MqttReconnect does: client id DVES_<last 3 MAC bytes>, will tele/<topic>/LWT "Offline" QoS 1 retained
    const a = await mqttAttempt(gw.mqttPort, {
      clientId: CLIENT,
      username: device.username,
      password: device.password,
      keepalive: 30,
      clean: true,
      will: { topic: `tele/${topic}/LWT`, payload: Buffer.from('Offline'), qos: 1, retain: true },
    });
    if (!a.client) throw new Error(`refused: ${a.code}`);
    const client = a.client;
    clients.push(client);
    let closes = 0;
    client.on('close', () => closes++);
    const device_ = firmware(client, topic);

    // MqttConnected: LWT Online (retained), the empty POWER query, then its own, group and fallback subscriptions
    client.publish(`tele/${topic}/LWT`, 'Online', { qos: 0, retain: true });
    client.publish(`cmnd/${topic}/POWER`, '', { qos: 0 });
    const granted = [
      await subscribe(client, `cmnd/${topic}/#`),
      await subscribe(client, 'cmnd/tasmotas/#'),
      await subscribe(client, `cmnd/${CLIENT}_fb/#`),
    ];
    // its own command topic is granted; the group and fallback topics are refused harmlessly (SUBACK 0x80)
    expect(granted).toEqual([0, 128, 128]);

    // INFO1–3, the relay's state, discovery (retained), STATE and SENSOR
    client.publish(
      `tele/${topic}/INFO1`,
      JSON.stringify({
        Info1: {
          Module: 'Sonoff Basic',
          Version: '14.3.0(release-tasmota)',
          FallbackTopic: `cmnd/${CLIENT}_fb/`,
          GroupTopic: 'cmnd/tasmotas/',
        },
      }),
    );
    client.publish(
      `tele/${topic}/INFO2`,
      JSON.stringify({ Info2: { WebServerMode: 'Admin', Hostname: 'tasmota-ABCDEF-3567', IPAddress: '192.168.1.50' } }),
    );
    client.publish(
      `tele/${topic}/INFO3`,
      JSON.stringify({ Info3: { RestartReason: 'Software/System restart', BootCount: 12 } }),
    );
    client.publish(`stat/${topic}/RESULT`, JSON.stringify({ POWER: 'OFF' }));
    client.publish(`stat/${topic}/POWER`, 'OFF');
    client.publish(`tasmota/discovery/${MAC}/config`, JSON.stringify(discoveryConfig(topic)), { retain: true });
    client.publish(
      `tasmota/discovery/${MAC}/sensors`,
      JSON.stringify({ sn: { Time: '2026-11-27T14:50:00', ENERGY: energy }, ver: 1 }),
      { retain: true },
    );
    client.publish(
      `tele/${topic}/STATE`,
      JSON.stringify({
        Time: '2026-11-27T14:50:00',
        Uptime: '0T00:00:12',
        UptimeSec: 12,
        Heap: 27,
        SleepMode: 'Dynamic',
        Sleep: 50,
        LoadAvg: 19,
        MqttCount: 1,
        POWER: 'OFF',
        Wifi: {
          AP: 1,
          SSId: 'lab',
          BSSId: 'AA:BB:CC:DD:EE:FF',
          Channel: 6,
          Mode: '11n',
          RSSI: 76,
          Signal: -62,
          LinkCount: 1,
          Downtime: '0T00:00:03',
        },
      }),
    );
    await client.publishAsync(`tele/${topic}/SENSOR`, JSON.stringify({ Time: '2026-11-27T14:50:00', ENERGY: energy }), {
      qos: 0,
    });

    // discovery filled the device's info
    expect(
      await until(
        async () =>
          (await call(gw.url, deviceFamilyCalls.tasmota.get, { id: device.id }, auth)).body.data?.tasmota_discovery
            ?.mac === MAC,
        3000,
      ),
    ).toBe(true);
    const info = (await call(gw.url, deviceFamilyCalls.tasmota.get, { id: device.id }, auth)).body.data;
    expect(info.tasmota_discovery).toMatchObject({
      mac: MAC,
      ip: '192.168.1.50',
      hostname: 'tasmota-ABCDEF-3567',
      model: 'Sonoff Basic',
      version: '14.3.0',
      relays: [1, 0, 0, 0, 0, 0, 0, 0],
      friendly_names: ['Lampu Teras', null, null, null, null, null, null, null],
    });
    expect(info.tasmota_discovery.sensors).toEqual({ ENERGY: energy });
    expect(info.online).toBe(true);
    // SENSOR and STATE are stored; INFO1–3, the empty POWER query and discovery are no telemetry and no rejects
    const newest = async (sensor: string, param: string, subparam?: string) =>
      (
        await call(
          gw.url,
          deviceDataContract.ndata,
          { id: device.id, sensor, configtype: 'data', param, ...(subparam ? { subparam } : {}), ndata: 1 },
          auth,
        )
      ).body.data?.[0]?.value;
    expect(await until(async () => (await newest('ENERGY', 'Power')) === 42, 5000)).toBe(true);
    expect(gw.app.telemetry.rejectsOf(device.id)).toBeUndefined();

    // a console command (the REST call) answered by RESULT
    const on = await call(
      gw.url,
      commandsContract.configure,
      { id: device.id, sensor: 'relay', configtype: 'config', param: 'POWER', value: true },
      auth,
    );
    expect(on.body).toMatchObject({ response_result: Result.OK, data: { reply: { POWER: 'ON' } } });

    // a device answering only on stat/<topic>/POWER (SetOption4 1): the command completes all the same
    device_.statOnly = true;
    const off = await call(
      gw.url,
      commandsContract.configure,
      { id: device.id, sensor: 'relay', configtype: 'config', param: 'POWER', value: false },
      auth,
    );
    expect(off.body).toMatchObject({ response_result: Result.OK, data: { reply: { POWER: 'OFF' } } });
    expect(device_.commands).toEqual([
      ['POWER', 'ON'],
      ['POWER', 'OFF'],
    ]);

    // the same connection all along: never closed by the broker, nothing dropped
    expect(closes).toBe(0);
    expect(client.connected).toBe(true);
    expect(gw.app.broker.metrics().dropped_publishes).toBe(droppedBefore);
    expect(await onlineOf(gw, device.id)).toBe(1);
  });

  it('clears the discovery info on the empty retained messages of SetOption19 changes, and keeps discovery to the MAC it named', async () => {
    const device = await addDevice(gw.url, auth, 'tasmota');
    const client = (
      await mqttAttempt(gw.mqttPort, {
        clientId: unique('DVES_'),
        username: device.username,
        password: device.password,
      })
    ).client!;
    clients.push(client);
    await client.publishAsync(`tasmota/discovery/${MAC}/config`, JSON.stringify(discoveryConfig(device.topic)), {
      qos: 1,
      retain: true,
    });
    await client.publishAsync(
      `tasmota/discovery/${MAC}/sensors`,
      JSON.stringify({ sn: { Time: 'x', ENERGY: { Power: 3 } }, ver: 1 }),
      { qos: 1, retain: true },
    );
    const discovery = async () =>
      (await call(gw.url, deviceFamilyCalls.tasmota.get, { id: device.id }, auth)).body.data.tasmota_discovery;
    expect(await until(async () => (await discovery())?.sensors?.ENERGY?.Power === 3)).toBe(true);

    // another MAC's discovery is not this device's: dropped and counted, the connection stays up
    const before = gw.app.broker.metrics().dropped_publishes_by_client[`device:${device.id}`] ?? 0;
    await client.publishAsync('tasmota/discovery/001122334455/config', JSON.stringify(discoveryConfig(device.topic)), {
      qos: 1,
      retain: true,
    });
    expect(
      await until(
        () => (gw.app.broker.metrics().dropped_publishes_by_client[`device:${device.id}`] ?? 0) === before + 1,
      ),
    ).toBe(true);
    expect((await discovery()).mac).toBe(MAC);

    await client.publishAsync(`tasmota/discovery/${MAC}/config`, '', { qos: 1, retain: true });
    await client.publishAsync(`tasmota/discovery/${MAC}/sensors`, '', { qos: 1, retain: true });
    expect(await until(async () => (await discovery()) === null)).toBe(true);
    expect(client.connected).toBe(true);
  });
});

describe('broker authorisation: a publish outside the rights is dropped and counted, the connection stays up', () => {
  it('drops a Tasmota publish under another topic and a generic device publish on another device, counting each per device', async () => {
    const tasmota = await addDevice(gw.url, auth, 'tasmota');
    const generic = await addDevice(gw.url, auth, 'mqtt');
    const t = (
      await mqttAttempt(gw.mqttPort, {
        clientId: unique('DVES_'),
        username: tasmota.username,
        password: tasmota.password,
      })
    ).client!;
    const g = (
      await mqttAttempt(gw.mqttPort, {
        clientId: unique('g'),
        username: generic.store_mqtt_username,
        password: generic.store_mqtt_password,
      })
    ).client!;
    clients.push(t, g);
    let closes = 0;
    t.on('close', () => closes++);
    g.on('close', () => closes++);
    const watcherTopic = `tele/${tasmota.topic}/SENSOR`;
    await t.subscribeAsync(`tele/${tasmota.topic}/#`);
    const heard: string[] = [];
    t.on('message', (topic) => heard.push(topic));

    // QoS 0, 1 and 2, each acknowledged as the client expects, then dropped
    await t.publishAsync('tele/someone_else/SENSOR', '{"ENERGY":{"Power":1}}', { qos: 0 });
    await t.publishAsync('cmnd/tasmotas/POWER', 'ON', { qos: 1 });
    await t.publishAsync('$SYS/broker/x', '1', { qos: 2 });
    await g.publishAsync(`d/${generic.id + 1000}/data`, '{"x":{"data":{"t":1}}}', { qos: 1 });
    await g.publishAsync(watcherTopic, '{"ENERGY":{"Power":2}}', { qos: 1 });

    const m = () => gw.app.broker.metrics().dropped_publishes_by_client;
    expect(await until(() => m()[`device:${tasmota.id}`] === 3 && m()[`device:${generic.id}`] === 2)).toBe(true);
    // what was dropped reached nobody, and both connections still work
    await t.publishAsync(watcherTopic, '{"ENERGY":{"Power":5}}', { qos: 1 });
    expect(await until(() => heard.length === 1)).toBe(true);
    expect(heard).toEqual([watcherTopic]);
    await g.publishAsync(`d/${generic.id}/data`, '{"x":{"data":{"t":1}}}', { qos: 1 });
    expect(closes).toBe(0);
    expect(t.connected && g.connected).toBe(true);
  });
});

describe('Tasmota registration with the Topic the device already has', () => {
  it('keeps the given Topic, refuses it a second time and refuses what Tasmota would not take, and still generates one when none is given', async () => {
    const topic = unique('tasmota_');
    const kept = await addDevice(gw.url, auth, 'tasmota', { topic });
    expect(kept.topic).toBe(topic);
    expect(kept.full_topic).toBe('%prefix%/%topic%/');

    const add = deviceFamilyCalls.tasmota.adds.tasmota!;
    const again = await call(gw.url, add, { serial_number: unique('SN-'), name: unique('Alat '), topic }, auth);
    expect(again.body).toEqual({ response_result: Result.CONFLICT, message: T.devices.serverTopicTaken });

    for (const bad of ['a/b', 'a+b', 'lampu#1', 'dua kata', 'x'.repeat(33), '1', 'tasmotas', `${CLIENT}_fb`]) {
      const r = await call(gw.url, add, { serial_number: unique('SN-'), name: unique('Alat '), topic: bad }, auth);
      expect(r.status, bad).toBe(400);
      expect(r.body.response_result, bad).toBe(Result.INVALID);
      expect(r.body.errors, bad).toEqual([{ path: 'topic', message: T.devices.tasmotaTopicInvalid }]);
    }

    const generated = await addDevice(gw.url, auth, 'tasmota');
    expect(generated.topic).toMatch(/^sentra_[0-9a-f]{12}$/);

    // the kept Topic is the device's on the broker: its own telemetry topic is its right
    const c = (
      await mqttAttempt(gw.mqttPort, { clientId: unique('DVES_'), username: kept.username, password: kept.password })
    ).client!;
    clients.push(c);
    const before = gw.app.broker.metrics().dropped_publishes;
    await c.publishAsync(`tele/${topic}/LWT`, 'Online', { qos: 1, retain: true });
    expect(await until(async () => (await onlineOf(gw, kept.id)) === 1)).toBe(true);
    expect(gw.app.broker.metrics().dropped_publishes).toBe(before);
  });
});
