// Device data end to end (spec 03 sections 2.5, 7 "Device data"): what each family really sends through the real
// broker with MQTT.js clients, read back through the data calls; malformed payloads are dropped and counted.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceDataContract, devicesContract, sensorKeyOf, statesContract, tagsContract, T } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { mqttAttempt, unique } from './fixtures.js';
import {
  loraDevice,
  mqttDevice,
  serialGateway,
  settle,
  startDataGateway,
  tasmotaDevice,
  type AppAuth,
  type Owner,
} from './device-data.kit.js';
import type { MqttClient } from 'mqtt';

let gw: Running;
let auth: AppAuth;
let owner: Owner;
let clients: MqttClient[];
beforeAll(async () => {
  ({ gw, auth, owner, clients } = await startDataGateway());
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

const list = async (id: number) => (await call(gw.url, deviceDataContract.list, { id }, auth)).body;
const rowOf = (rows: any[], sensor: string, configtype: string, param: string) =>
  rows.find((r) => r.sensor === sensor && r.configtype === configtype && r.param === param);

describe('generic MQTT devices (d/<id>/data and d/<id>/state)', () => {
  it('stores params, subparams and states exactly as sent, with the device-stated time', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients, {
      sensors: { env: { data: { humidity: 'number', mode: { datatype: 'string' } } } },
    });
    const ts = Date.now() - 5000;
    await client.publishAsync(
      `d/${device.id}/data`,
      JSON.stringify({
        _ts: ts,
        env: { data: { temperature: 21.5, door: true, power: { r: 220, s: 221 }, label: 'ruang 1', list: [1, 2] } },
      }),
      { qos: 1 },
    );
    await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ mode: 'auto', alarm: null }), { qos: 1 });
    await settle(gw, async () => (await list(device.id)).data.filter((r: any) => r.data_exist).length === 5);
    const body = await list(device.id);
    expect(body.response_result).toBe(0);
    expect(body.device).toMatchObject({ id: device.id, name: device.name, online: true });
    expect(rowOf(body.data, 'env', 'data', 'temperature')).toEqual({
      sensor: 'env',
      configtype: 'data',
      param: 'temperature',
      datatype: 'number',
      subparam_datatypes: {},
      value: 21.5,
      ts,
      data_exist: true,
    });
    expect(rowOf(body.data, 'env', 'data', 'door')).toMatchObject({ datatype: 'boolean', value: true, ts });
    expect(rowOf(body.data, 'env', 'data', 'power')).toEqual({
      sensor: 'env',
      configtype: 'data',
      param: 'power',
      datatype: 'object',
      subparam_datatypes: { r: 'number', s: 'number' },
      value: { r: 220, s: 221 },
      ts,
      data_exist: true,
    });
    expect(rowOf(body.data, 'env', 'data', 'label')).toMatchObject({ datatype: 'string', value: 'ruang 1' });
    expect(rowOf(body.data, 'env', 'data', 'list')).toMatchObject({ datatype: 'array', value: [1, 2] });
    // declared by the sensor configuration, never sent
    expect(rowOf(body.data, 'env', 'data', 'humidity')).toEqual({
      sensor: 'env',
      configtype: 'data',
      param: 'humidity',
      datatype: 'number',
      subparam_datatypes: {},
      value: null,
      ts: null,
      data_exist: false,
    });
    const latest = (await call(gw.url, deviceDataContract.latest, { id: device.id }, auth)).body;
    expect(latest.data).toHaveLength(6);
    expect(latest.data.find((p: any) => p.subparam === 's')).toEqual({
      sensor: 'env',
      configtype: 'data',
      param: 'power',
      subparam: 's',
      datatype: 'number',
      value: 221,
      ts,
    });
    const states = (await call(gw.url, statesContract.list, { device_id: device.id }, auth)).body;
    expect(states).toMatchObject({ response_result: 0, device_id: device.id, device_label: device.name });
    expect(states.states.map((s: any) => [s.key, s.value, s.is_null])).toEqual([
      ['alarm', null, true],
      ['mode', 'auto', false],
    ]);
  });

  it("answers a param's newest N and a time range, subparams folded per timestamp", async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const base = Date.now() - 60_000;
    for (let i = 0; i < 10; i++)
      await client.publishAsync(
        `d/${device.id}/data`,
        JSON.stringify({ _ts: base + i * 1000, m: { data: { v: i, p: { a: i, b: -i } } } }),
        { qos: 1 },
      );
    await settle(
      gw,
      async () =>
        (
          await call(
            gw.url,
            deviceDataContract.ndata,
            { id: device.id, sensor: 'm', configtype: 'data', param: 'v', ndata: 20 },
            auth,
          )
        ).body.data?.length === 10,
    );
    const n = (
      await call(
        gw.url,
        deviceDataContract.ndata,
        { id: device.id, sensor: 'm', configtype: 'data', param: 'v', ndata: 3 },
        auth,
      )
    ).body;
    expect(n.data).toEqual(
      [9, 8, 7].map((i) => ({
        dt: 'number',
        value: i,
        quality: 'good',
        timestamp: base + i * 1000,
        sensor: 'm',
        configtype: 'data',
        param: 'v',
      })),
    );
    const folded = (
      await call(
        gw.url,
        deviceDataContract.ndata,
        { id: device.id, sensor: 'm', configtype: 'data', param: 'p', ndata: 2 },
        auth,
      )
    ).body;
    expect(folded.data.map((r: any) => [r.dt, r.value, r.timestamp])).toEqual([
      ['object', { a: 9, b: -9 }, base + 9000],
      ['object', { a: 8, b: -8 }, base + 8000],
    ]);
    const one = (
      await call(
        gw.url,
        deviceDataContract.ndata,
        { id: device.id, sensor: 'm', configtype: 'data', param: 'p', subparam: 'b', ndata: 1 },
        auth,
      )
    ).body;
    expect(one.data).toEqual([
      { dt: 'number', value: -9, quality: 'good', timestamp: base + 9000, sensor: 'm', configtype: 'data', param: 'p' },
    ]);
    const range = (
      await call(
        gw.url,
        deviceDataContract.periodic,
        { id: device.id, sensor: 'm', configtype: 'data', param: 'v', start: base + 2000, end: base + 4000 },
        auth,
      )
    ).body;
    expect(range).toMatchObject({ response_result: 0, truncated: false });
    expect(range.data.map((r: any) => r.value)).toEqual([4, 3, 2]);
    const none = (
      await call(
        gw.url,
        deviceDataContract.periodic,
        { id: device.id, sensor: 'm', configtype: 'data', param: 'nothing', start: base, end: base + 1 },
        auth,
      )
    ).body;
    expect(none).toMatchObject({ response_result: 0, data: [] });
  });

  it('refuses ndata outside 1..5000 and a range ending before it starts (-10)', async () => {
    const { device } = await mqttDevice(gw, auth, clients);
    for (const ndata of [0, 5001, 2.5, 'x']) {
      expect(
        (
          await call(
            gw.url,
            deviceDataContract.ndata,
            { id: device.id, sensor: 's', configtype: 'c', param: 'p', ndata },
            auth,
          )
        ).body.response_result,
      ).toBe(-10);
    }
    expect(
      (
        await call(
          gw.url,
          deviceDataContract.ndata,
          { id: device.id, sensor: 's', configtype: 'c', param: 'p', ndata: 5000 },
          auth,
        )
      ).body.response_result,
    ).toBe(0);
    expect(
      (
        await call(
          gw.url,
          deviceDataContract.periodic,
          { id: device.id, sensor: 's', configtype: 'c', param: 'p', start: 10, end: 5 },
          auth,
        )
      ).body.response_result,
    ).toBe(-10);
  });
});

describe('Tasmota (what real firmware publishes)', () => {
  it('stores tele/SENSOR energy readings, tele/STATE measurements and switch states, and follows LWT', async () => {
    const { device, client, topic } = await tasmotaDevice(gw, auth, clients);
    await client.publishAsync(
      `tele/${topic}/STATE`,
      JSON.stringify({
        Time: '2024-05-01T10:00:00',
        Uptime: '0T00:10:00',
        UptimeSec: 600,
        Heap: 25,
        SleepMode: 'Dynamic',
        Sleep: 50,
        LoadAvg: 19,
        MqttCount: 1,
        POWER: 'ON',
        Wifi: {
          AP: 1,
          SSId: 'rumah',
          BSSId: 'AA:BB:CC:DD:EE:FF',
          Channel: 6,
          Mode: '11n',
          RSSI: 80,
          Signal: -60,
          LinkCount: 1,
          Downtime: '0T00:00:03',
        },
      }),
      { qos: 1 },
    );
    await client.publishAsync(
      `tele/${topic}/SENSOR`,
      JSON.stringify({
        Time: '2024-05-01T10:00:00',
        ENERGY: {
          TotalStartTime: '2024-01-01T00:00:00',
          Total: 12.345,
          Yesterday: 0.5,
          Today: 0.2,
          Power: 45,
          ApparentPower: 50,
          ReactivePower: 20,
          Factor: 0.9,
          Voltage: 229,
          Current: 0.196,
        },
      }),
      { qos: 1 },
    );
    await client.publishAsync(`stat/${topic}/RESULT`, '{"POWER":"OFF"}', { qos: 1 });
    // 10 ENERGY fields and 6 of tele/STATE (Time, Uptime text and the states POWER and SleepMode are not data rows)
    await settle(gw, async () => (await list(device.id)).data.length >= 16);
    expect((await list(device.id)).data).toHaveLength(16);
    const rows = (await list(device.id)).data;
    expect(rowOf(rows, 'ENERGY', 'data', 'Power')).toMatchObject({ datatype: 'number', value: 45, data_exist: true });
    expect(rowOf(rows, 'ENERGY', 'data', 'Voltage')).toMatchObject({ value: 229 });
    expect(rowOf(rows, 'ENERGY', 'data', 'TotalStartTime')).toMatchObject({
      datatype: 'string',
      value: '2024-01-01T00:00:00',
    });
    expect(rowOf(rows, 'device', 'data', 'UptimeSec')).toMatchObject({ value: 600 });
    expect(rowOf(rows, 'device', 'data', 'Wifi')).toMatchObject({
      datatype: 'object',
      subparam_datatypes: { RSSI: 'number', Signal: 'number', LinkCount: 'number' },
      value: { RSSI: 80, Signal: -60, LinkCount: 1 },
    });
    const states = (await call(gw.url, statesContract.list, { device_id: device.id }, auth)).body.states;
    expect(Object.fromEntries(states.map((s: any) => [s.key, s.value]))).toEqual({
      POWER: 'OFF',
      SleepMode: 'Dynamic',
    });
    await client.publishAsync(`tele/${topic}/LWT`, 'Offline', { qos: 1, retain: true });
    await settle(gw, async () => (await list(device.id)).device.online === false);
    expect((await list(device.id)).device.online).toBe(false);
  });
});

describe('LoRa (ChirpStack v4 uplinks through the network-server integration)', () => {
  it('stores the decoded object, the best gateway RSSI/SNR, at the uplink time', async () => {
    const { device, ns, upTopic, devEui } = await loraDevice(gw, auth, owner.appId, clients);
    const time = new Date(Date.now() - 2000).toISOString();
    const uplink = {
      deduplicationId: '3f1e0c9a-1b4f-4c0e-9a1c-9d8e7f6a5b4c',
      time,
      deviceInfo: {
        tenantId: 't',
        tenantName: 'ChirpStack',
        applicationId: 'a',
        applicationName: 'kebun',
        deviceProfileId: 'p',
        deviceProfileName: 'sensor',
        deviceName: 'node-1',
        devEui,
      },
      devAddr: '01020304',
      adr: true,
      dr: 5,
      fCnt: 12,
      fPort: 2,
      confirmed: false,
      data: 'AQI=',
      object: { temperature: 21.5, humidity: 60 },
      rxInfo: [
        { gatewayId: '0016c001ff10a235', uplinkId: 1, rssi: -90, snr: 2.5 },
        { gatewayId: '0016c001ff10a236', uplinkId: 2, rssi: -57, snr: 9.5 },
      ],
      txInfo: {
        frequency: 923200000,
        modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } },
      },
    };
    await ns.publishAsync(upTopic, JSON.stringify(uplink), { qos: 1 });
    await settle(gw, async () => (await list(device.id)).data.length === 4);
    const rows = (await list(device.id)).data;
    const ts = Date.parse(time);
    expect(rowOf(rows, 'lora', 'data', 'temperature')).toMatchObject({ datatype: 'number', value: 21.5, ts });
    expect(rowOf(rows, 'lora', 'data', 'humidity')).toMatchObject({ value: 60, ts });
    expect(rowOf(rows, 'radio', 'data', 'rssi')).toMatchObject({ value: -57, ts });
    expect(rowOf(rows, 'radio', 'data', 'snr')).toMatchObject({ value: 9.5, ts });
  });

  it("decodes raw bytes with the decoder table of the device's sensor configuration (_decoder)", async () => {
    const decoder = {
      ports: {
        '2': [
          { name: 'temperature', offset: 0, type: 'i16', scale: 0.1 },
          { name: 'open', offset: 2, type: 'bit', bit: 0 },
        ],
      },
    };
    const { device, ns, upTopic, devEui } = await loraDevice(gw, auth, owner.appId, clients, '70b3d57ed00aa001', {
      sensors: { _decoder: decoder },
    });
    await ns.publishAsync(
      upTopic,
      JSON.stringify({ deviceInfo: { devEui }, fPort: 2, data: Buffer.from([0x00, 0xd7, 0x01]).toString('base64') }),
      { qos: 1 },
    );
    await settle(gw, async () => (await list(device.id)).data.length === 2);
    const rows = (await list(device.id)).data;
    expect(rowOf(rows, 'lora', 'data', 'temperature').value).toBeCloseTo(21.5);
    expect(rowOf(rows, 'lora', 'data', 'open')).toMatchObject({ datatype: 'boolean', value: true });
  });
});

describe('serial gateways (gw/<uid>/up frames)', () => {
  it('stores each node as a sensor and each register as a param', async () => {
    const { device, client, uid } = await serialGateway(gw, auth, clients);
    await client.publishAsync(
      `gw/${uid}/up`,
      JSON.stringify([
        { node: 1, registers: { '40001': 231.5, coil1: true } },
        { node: 2, registers: { '40001': 229 } },
      ]),
      { qos: 1 },
    );
    await settle(gw, async () => (await list(device.id)).data.length === 3);
    const rows = (await list(device.id)).data;
    expect(rowOf(rows, 'node1', 'data', '40001')).toMatchObject({ datatype: 'number', value: 231.5 });
    expect(rowOf(rows, 'node1', 'data', 'coil1')).toMatchObject({ datatype: 'boolean', value: true });
    expect(rowOf(rows, 'node2', 'data', '40001')).toMatchObject({ value: 229 });
  });
});

describe('malformed payloads', () => {
  it('drops and counts not-JSON, wrong shapes, wrong types, oversized and unknown-device messages; the broker stays up', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const { ns, devEui } = await loraDevice(gw, auth, owner.appId, clients, '70b3d57ed00bb001');
    const before = structuredClone(gw.app.telemetry.metrics().rejected) as Record<string, number>;
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ env: { data: { t: 20 } } }), { qos: 1 });
    await client.publishAsync(`d/${device.id}/data`, 'bukan json', { qos: 1 });
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ env: 5 }), { qos: 1 });
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ env: { data: { t: 'panas' } } }), { qos: 1 });
    await client.publishAsync(
      `d/${device.id}/data`,
      JSON.stringify({ env: { data: { big: 'x'.repeat(70 * 1024) } } }),
      { qos: 1 },
    );
    // a DevEUI nobody registered, in this application
    await ns.publishAsync(
      `application/${owner.appId}/device/ffffffffffffffff/event/up`,
      JSON.stringify({ deviceInfo: { devEui: 'ffffffffffffffff' }, object: { t: 1 } }),
      { qos: 1 },
    );
    await settle(gw);
    const rejected = gw.app.telemetry.metrics().rejected as Record<string, number>;
    const grew = (k: string) => (rejected[k] ?? 0) - (before[k] ?? 0);
    expect([
      grew('not_json'),
      grew('bad_shape'),
      grew('datatype_mismatch'),
      grew('too_large'),
      grew('unknown_device'),
    ]).toEqual([1, 1, 1, 1, 1]);
    expect(gw.app.telemetry.rejectsOf(device.id)?.count).toBe(4);
    // still up: the same clients and a new one are served, only the good value was stored
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ env: { data: { t: 21 } } }), { qos: 1 });
    await settle(gw, async () => rowOf((await list(device.id)).data, 'env', 'data', 't')?.value === 21);
    expect(
      (
        await call(
          gw.url,
          deviceDataContract.ndata,
          { id: device.id, sensor: 'env', configtype: 'data', param: 't', ndata: 10 },
          auth,
        )
      ).body.data.map((r: any) => r.value),
    ).toEqual([21, 20]);
    expect(devEui).toBe('70b3d57ed00bb001');
    const again = await mqttAttempt(gw.mqttPort, {
      clientId: unique('c'),
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
    });
    expect(again.client).toBeDefined();
    again.client?.end(true);
  });
});

describe('sensor policies and tags', () => {
  it('keeps policies JSON per sensor row; text that is not JSON is -10 "Policy harus dalam bentuk JSON yang benar"', async () => {
    const { device } = await mqttDevice(gw, auth, clients);
    const key = sensorKeyOf({ sensor: 'env', configtype: 'data', param: 't' });
    expect((await call(gw.url, deviceDataContract.policyGet, { device_id: device.id, key }, auth)).body).toEqual({
      response_result: 0,
      policies: {},
      device_id: device.id,
      key,
    });
    const saved = await call(
      gw.url,
      deviceDataContract.policyEdit,
      { device_id: device.id, key, policies: '{"max": 40, "alert": ["email"]}' },
      auth,
    );
    expect(saved.body).toEqual({
      response_result: 0,
      policies: { max: 40, alert: ['email'] },
      device_id: device.id,
      key,
    });
    expect(
      (await call(gw.url, deviceDataContract.policyGet, { device_id: device.id, key }, auth)).body.policies,
    ).toEqual({ max: 40, alert: ['email'] });
    const bad = await call(
      gw.url,
      deviceDataContract.policyEdit,
      { device_id: device.id, key, policies: '{max: 40' },
      auth,
    );
    expect(bad.body).toMatchObject({
      response_result: -10,
      errors: [{ path: 'policies', message: T.devices.policyJson }],
    });
  });

  it('checks sensor tags against the tag categories', async () => {
    const { device } = await mqttDevice(gw, auth, clients);
    const prefix = unique('lok');
    expect(
      (await call(gw.url, tagsContract.add, { name: prefix, prefix, category: 4 }, auth)).body.response_result,
    ).toBe(0);
    const key = 'env.data.t';
    const ok = await call(
      gw.url,
      deviceDataContract.tagsEdit,
      { device_id: device.id, key, tags: { [prefix]: ['lantai 1', 'gudang'] } },
      auth,
    );
    expect(ok.body).toEqual({
      response_result: 0,
      tags: { [prefix]: ['lantai 1', 'gudang'] },
      device_id: device.id,
      key,
    });
    expect((await call(gw.url, deviceDataContract.tagsGet, { device_id: device.id, key }, auth)).body.tags).toEqual({
      [prefix]: ['lantai 1', 'gudang'],
    });
    const bad = await call(
      gw.url,
      deviceDataContract.tagsEdit,
      { device_id: device.id, key, tags: { [prefix]: ['Besar'] } },
      auth,
    );
    expect(bad.body.response_result).toBe(-10);
    expect(
      (await call(gw.url, deviceDataContract.tagsEdit, { device_id: device.id, key, tags: { tidak_ada: ['x'] } }, auth))
        .body.response_result,
    ).toBe(-10);
    // removing the device removes its sensor settings
    expect((await call(gw.url, devicesContract.get, { id: device.id }, auth)).body.response_result).toBe(0);
  });
});
