// Hostile input on every entry point a device or a browser reaches ("every MQTT payload is validated; a malformed
// message is counted and dropped, never crashes the broker or the writer"; live updates stay within their tenant):
// each family's topics get a battery of junk at QoS 0 and QoS 1, devices try topics that are not theirs, raw bytes hit
// the MQTT port, and socket.io gets junk on every event. Afterwards every QoS 1 publish was acknowledged, each dropped
// message was counted for its device, nothing of the junk was stored, and valid data still flows and is served.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import mqttPacket from 'mqtt-packet';
import { WebSocket } from 'ws';
import {
  CARD_LIVE,
  Result,
  commandsContract,
  dashboardsContract,
  deviceDataContract,
  statesContract,
  type CardPush,
} from '@sentra/contracts';
import { MAX_PAYLOAD_BYTES } from '../src/modules/devices/families/index.js';
import { MQTT_MAX_PACKET_BYTES } from '../src/platform/mqtt/fast-publish.js';
import { fixedHeader } from '../src/platform/mqtt/testing/packets.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';
import { call, startGateway, type Running } from './harness.js';
import { addDashboard, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';
import {
  loraDevice,
  mqttDevice,
  serialGateway,
  settle,
  tasmotaDevice,
  type AppAuth,
  type Owner,
} from './device-data.kit.js';

let gw: Running;
let owner: Owner;
let auth: AppAuth;
const clients: MqttClient[] = [];
/** another tenant, with devices of its own that nothing of tenant A's junk may reach */
let other: {
  owner: Owner;
  auth: AppAuth;
  device: { id: number };
  client: MqttClient;
  lora: { id: number };
  loraEui: string;
};
const sockets: Socket[] = [];
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype);

beforeAll(async () => {
  // a command waits long enough for a device to send its junk replies before the real one
  gw = await startGateway({}, { commandTimeoutMs: 5000 });
  owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
  const o = await tenantWithApp(gw.url);
  const oAuth = { tenant: o.tenant, domain: o.domain };
  const { device, client } = await mqttDevice(gw, oAuth, clients);
  const lora = await loraDevice(gw, oAuth, o.appId, clients, '70b3d57ed00bb0b0');
  other = { owner: o, auth: oAuth, device, client, lora: lora.device, loraEui: lora.devEui };
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  clients.forEach((c) => c.end(true));
  await gw?.stop();
});

// ---- the junk ----

type Junk = [name: string, payload: string | Buffer];

/** the same "random" bytes on every run (a fixed linear congruential sequence) */
function noise(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0, x = seed; i < n; i++) ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), (b[i] = x >>> 24));
  return b;
}
const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const json = (v: unknown) => JSON.stringify(v);
const keys = (n: number, value: (i: number) => unknown) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));

/** what every topic must survive: none of it is a valid message anywhere */
const COMMON: Junk[] = [
  ['empty', ''],
  ['not JSON', 'suhu=21,5;lembap=60'],
  ['truncated JSON', '{"env":{"data":{"t":2'],
  ['a JSON array', '[1,2,3]'],
  ['a JSON number', '42'],
  ['a JSON string', '"teks"'],
  ['JSON null', 'null'],
  ['NaN and Infinity literals', '{"env":{"data":{"t":NaN,"u":Infinity}}}'],
  ['random bytes', noise(512)],
  [
    'invalid UTF-8',
    Buffer.concat([Buffer.from('{"env":{"data":{"t'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('":1}}}')]),
  ],
  ['nested 10,000 deep', nested(10_000)],
  ['junk exactly the size of the limit', 'x'.repeat(MAX_PAYLOAD_BYTES)],
  ['one byte over the limit', `{"a":"${'x'.repeat(MAX_PAYLOAD_BYTES - 7)}"}`],
  // a packet over MQTT_MAX_PACKET_BYTES closes its connection (below); up to it, the pipeline drops and counts it
  ["a payload 1 KB under the broker's packet limit", Buffer.alloc(MQTT_MAX_PACKET_BYTES - 1024, 0x5b)],
];

// ---- helpers ----

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Each payload at QoS 0, then at QoS 1 (which must be acknowledged); the connection must stay up. */
async function barrage(client: MqttClient, topic: string, junk: Junk[]) {
  for (const [name, payload] of junk) {
    client.publish(topic, payload, { qos: 0 });
    await within(client.publishAsync(topic, payload, { qos: 1 }), 5000, `PUBACK of "${name}" on ${topic}`);
  }
  expect(client.connected).toBe(true);
}

const rejects = (deviceId: number) => gw.app.telemetry.rejectsOf(deviceId)?.count ?? 0;

/**
 * Sends the junk on the topic and checks that every message was counted as dropped for the device: a last not-JSON
 * marker is counted after all of them (one session's messages are ingested in order), so the count is exact.
 */
async function dropsAll(client: MqttClient, deviceId: number, topic: string, junk: Junk[]) {
  const before = rejects(deviceId);
  await barrage(client, topic, junk);
  await client.publishAsync(topic, 'penanda', { qos: 1 });
  const expected = 2 * junk.length + 1;
  await until(() => rejects(deviceId) - before >= expected, 5000);
  const dropped = rejects(deviceId) - before;
  expect(dropped, `messages counted as dropped on ${topic}`).toBe(expected);
}

/** what the data calls serve of a device: its series (with or without points), latest values and states */
async function stored(id: number, who: AppAuth = auth) {
  await settle(gw);
  const list = (await call(gw.url, deviceDataContract.list, { id }, who)).body;
  const latest = (await call(gw.url, deviceDataContract.latest, { id }, who)).body;
  const states = (await call(gw.url, statesContract.list, { device_id: id }, who)).body;
  expect([list.response_result, latest.response_result, states.response_result]).toEqual([0, 0, 0]);
  return {
    series: (list.data as any[]).map((r) => `${r.sensor}/${r.configtype}/${r.param}`).sort(),
    latest: latest.data as any[],
    states: (states.states as any[]).map((s) => [s.key, s.value, s.latest_ts]),
  };
}

/** a second connection that publishes on a topic it may not use: the broker drops and counts it, the connection
 * stays up (issue 27, docs/decisions/tasmota.md) */
async function refusedOn(opts: Parameters<typeof mqttAttempt>[1], topic: string, payload = '{"env":{"data":{"t":1}}}') {
  const a = await mqttAttempt(gw.mqttPort, { clientId: unique('c'), ...opts });
  if (!a.client) throw new Error(`refused: ${a.code}`);
  clients.push(a.client);
  let closed = false;
  a.client.once('close', () => void (closed = true));
  const before = gw.app.broker.metrics().dropped_publishes;
  await within(a.client.publishAsync(topic, payload, { qos: 1 }), 3000, `PUBACK of the dropped publish on ${topic}`);
  expect(await until(() => gw.app.broker.metrics().dropped_publishes === before + 1)).toBe(true);
  expect(closed).toBe(false);
}

/** a second connection that publishes on a topic with a wildcard (malformed, MQTT-3.3.2-2): the broker closes it */
async function closedOn(opts: Parameters<typeof mqttAttempt>[1], topic: string, payload = '{"env":{"data":{"t":1}}}') {
  const a = await mqttAttempt(gw.mqttPort, { clientId: unique('c'), ...opts });
  if (!a.client) throw new Error(`refused: ${a.code}`);
  clients.push(a.client);
  const closed = new Promise<void>((r) => a.client.once('close', () => r()));
  a.client.publish(topic, payload, { qos: 1 });
  await within(closed, 3000, `close after publishing on ${topic}`);
}

/** the newest value of a param through the data call */
async function newest(id: number, sensor: string, configtype: string, param: string, who: AppAuth = auth) {
  const r = await call(gw.url, deviceDataContract.ndata, { id, sensor, configtype, param, ndata: 1 }, who);
  return r.body.data?.[0]?.value;
}

/** a valid message of another tenant's device is still stored and served */
async function otherTenantStillServed() {
  const v = Math.round(Math.random() * 1e6);
  await other.client.publishAsync(`d/${other.device.id}/data`, json({ env: { data: { t: v } } }), { qos: 1 });
  await settle(gw, async () => (await newest(other.device.id, 'env', 'data', 't', other.auth)) === v);
  expect(await newest(other.device.id, 'env', 'data', 't', other.auth)).toBe(v);
}

describe('generic MQTT devices: d/<id>/data, d/<id>/state, d/<id>/cmd/res', () => {
  let device: { id: number } & Record<string, any>;
  let client: MqttClient;
  beforeAll(async () => {
    ({ device, client } = await mqttDevice(gw, auth, clients, {
      sensors: { env: { data: { power: { datatype: 'number', subparams: { r: 'number', s: 'number' } } } } },
    }));
    await client.publishAsync(
      `d/${device.id}/data`,
      json({ env: { data: { t: 21.5, power: { r: 220, s: 221 }, label: 'ruang' } } }),
      { qos: 1 },
    );
    await client.publishAsync(`d/${device.id}/state`, json({ mode: 'auto' }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'env', 'data', 't')) === 21.5);
  });

  it('drops and counts every malformed data message, stores none of it, and acknowledges each QoS 1 publish', async () => {
    const before = await stored(device.id);
    await dropsAll(client, device.id, `d/${device.id}/data`, [
      ...COMMON,
      ['a sensor that is no object', '{"env":21.5}'],
      ['a configtype that is an array', '{"env":{"data":[1,2]}}'],
      ['no sensor', '{}'],
      ['an empty param name', '{"env":{"data":{"":1}}}'],
      ['a 65-character name', json({ env: { data: { ['n'.repeat(65)]: 1 } } })],
      ['text for a number series', '{"env":{"data":{"t":"21,5"}}}'],
      ['a boolean for a number series', '{"env":{"data":{"t":true}}}'],
      ['"NaN" for a number series', '{"env":{"data":{"t":"NaN"}}}'],
      ['a number beyond a double', '{"env":{"data":{"t":1e999}}}'],
      ['a negative number beyond a double in a subparam', '{"env":{"data":{"x":{"y":-1e999}}}}'],
      ['text for a declared number subparam', '{"env":{"data":{"power":{"r":"tinggi"}}}}'],
      ['an object nested 10,000 deep as a value', `{"env":{"data":{"x":{"y":${nested(10_000)}}}}}`],
      ['an array nested 10,000 deep as a value', `{"env":{"data":{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`],
      ['__proto__ as a sensor', '{"__proto__":{"data":{"polluted":1}}}'],
      ['__proto__ as a configtype', '{"env":{"__proto__":{"polluted":1}}}'],
      ['__proto__ as a param', '{"env":{"data":{"__proto__":{"polluted":1}}}}'],
      ['__proto__ as a subparam', '{"env":{"data":{"x":{"__proto__":{"polluted":1}}}}}'],
      ['3,000 sensors, the last one malformed', json({ ...keys(3000, () => ({ data: {} })), zz: 5 })],
      ['a negative _ts', '{"_ts":-1,"env":{"data":{"t":1}}}'],
      ['a _ts that is no time', '{"_ts":"kemarin","env":{"data":{"t":1}}}'],
      ['a _ts without zone', '{"_ts":"2024-01-01T00:00:00","env":{"data":{"t":1}}}'],
      ['a _ts object', '{"_ts":{"$date":1},"env":{"data":{"t":1}}}'],
    ]);
    expect(await stored(device.id)).toEqual(before);
  });

  it('drops and counts every malformed state message', async () => {
    const before = await stored(device.id);
    await dropsAll(client, device.id, `d/${device.id}/state`, [
      ...COMMON,
      ['no key', '{}'],
      ['a reserved key', '{"_mode":"auto"}'],
      ['a 65-character key', json({ ['k'.repeat(65)]: 1 })],
      ['3,000 keys', json(keys(3000, (i) => i))],
      ['a value nested 10,000 deep', `{"mode":${nested(10_000)}}`],
      ['a number beyond a double', '{"mode":1e999}'],
      ['__proto__ as a key', '{"__proto__":{"polluted":1}}'],
      ['a negative _ts', '{"_ts":-5,"mode":"manual"}'],
    ]);
    expect(await stored(device.id)).toEqual(before);
  });

  it('counts malformed command replies and still answers the command with the valid reply that follows them', async () => {
    const replies: Junk[] = [
      ...COMMON,
      ['no id', '{"ok":true}'],
      ['a numeric id', '{"id":42,"ok":true}'],
      ['ok as text', '{"id":"x","ok":"ya"}'],
      ['a reply nested 10,000 deep', `{"id":"x","ok":true,"detail":${nested(10_000)}}`],
    ];
    await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
    const before = rejects(device.id);
    const answered = new Promise<void>((resolve) => {
      client.once('message', async (_topic, payload) => {
        const { id } = JSON.parse(payload.toString());
        // junk shaped around the real id first: none of it may answer the command
        await barrage(client, `d/${device.id}/cmd/res`, [
          ...replies,
          ['the right id, nested 10,000 deep', `{"id":"${id}","ok":true,"detail":${nested(10_000)}}`],
        ]);
        await client.publishAsync(`d/${device.id}/cmd/res`, json({ id, ok: true, code: 'diterima' }), { qos: 1 });
        resolve();
      });
    });
    const r = await call(
      gw.url,
      commandsContract.configure,
      { id: device.id, sensor: 'env', configtype: 'config', param: 'interval', value: 30 },
      auth,
    );
    await answered;
    expect(r.body).toMatchObject({
      response_result: 0,
      data: { device_id: device.id, reply: { ok: true, code: 'diterima' } },
    });
    expect(await until(() => rejects(device.id) - before >= 2 * (replies.length + 1))).toBe(true);
    expect(rejects(device.id) - before).toBe(2 * (replies.length + 1));
  });

  it('takes names of Object.prototype members as plain names, even where the sensor configuration declares subparams', async () => {
    await client.publishAsync(
      `d/${device.id}/data`,
      json({ env: { data: { power: { toString: 1, constructor: 2, r: 222 }, hasOwnProperty: 3 } } }),
      { qos: 1 },
    );
    await client.publishAsync(`d/${device.id}/state`, json({ constructor: 'ya', valueOf: 4 }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'env', 'data', 'hasOwnProperty')) === 3);
    const now = await stored(device.id);
    expect(
      now.latest
        .filter((p) => p.param === 'power')
        .map((p) => [p.subparam, p.value])
        .sort(),
    ).toEqual([
      ['constructor', 2],
      ['r', 222],
      ['s', 221],
      ['toString', 1],
    ]);
    expect(now.states.map(([k, v]) => [k, v])).toEqual(
      expect.arrayContaining([
        ['constructor', 'ya'],
        ['valueOf', 4],
      ]),
    );
  });

  it('stores a point whose device time is far in the past or the future at its receive time, counted as a clock fallback', async () => {
    const fallbacks = () => gw.app.telemetry.metrics().clock_fallbacks as number;
    const before = fallbacks();
    const sent = Date.now();
    // 1 s after 1970, 1990, a year ahead, 1e300 (a negative time was refused above)
    for (const [i, ts] of [1, Date.UTC(1990, 0, 1), sent + 365 * 86_400_000, 1e300].entries()) {
      await client.publishAsync(`d/${device.id}/data`, json({ _ts: ts, clock: { data: { n: i } } }), { qos: 1 });
    }
    await settle(gw, async () => (await newest(device.id, 'clock', 'data', 'n')) === 3);
    expect(fallbacks() - before).toBe(4);
    const rows = (
      await call(
        gw.url,
        deviceDataContract.ndata,
        { id: device.id, sensor: 'clock', configtype: 'data', param: 'n', ndata: 10 },
        auth,
      )
    ).body.data as any[];
    expect(rows.map((r) => r.value)).toEqual([3, 2, 1, 0]);
    for (const r of rows) {
      expect(r.timestamp).toBeGreaterThanOrEqual(sent - 1000);
      expect(r.timestamp).toBeLessThan(Date.now() + 1000);
    }
  });

  it("drops and counts what a device publishes on another device's topics, another tenant's included, and stores nothing there", async () => {
    const creds = { username: device.store_mqtt_username, password: device.store_mqtt_password };
    const before = await stored(other.device.id, other.auth);
    for (const topic of [
      `d/${other.device.id}/data`,
      `d/${other.device.id}/state`,
      `d/${other.device.id}/cmd/res`,
      `d/${device.id}`,
      '$SYS/broker/x',
      `tele/${device.id}/SENSOR`,
      `gw/${device.id}/up`,
    ]) {
      await refusedOn(creds, topic);
    }
    for (const topic of ['d/+/data', `d/${device.id}/#`]) await closedOn(creds, topic);
    expect(await stored(other.device.id, other.auth)).toEqual(before);
    // the device's own connection and the other tenant's device still work
    await client.publishAsync(`d/${device.id}/data`, json({ env: { data: { t: 23.5 } } }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'env', 'data', 't')) === 23.5);
    await otherTenantStillServed();
  });

  it('bounds what one message can create: 3,000 new params make at most 1,000 series, the rest counted', async () => {
    const { device: flood, client: c } = await mqttDevice(gw, auth, clients);
    const before = rejects(flood.id);
    await within(
      c.publishAsync(`d/${flood.id}/data`, json({ m: { data: keys(3000, (i) => i) } }), { qos: 1 }),
      5000,
      'PUBACK',
    );
    expect(await until(() => rejects(flood.id) - before >= 2000, 5000)).toBe(true);
    expect((await stored(flood.id)).series).toHaveLength(1000);
    expect(gw.app.telemetry.rejectsOf(flood.id)?.last_reason).toBe('series_limit');
  });

  it('bounds the state keys a device holds: 1,000 (MAX_STATE_KEYS_PER_DEVICE), the reports of new keys past it counted', async () => {
    const { device: flood, client: c } = await mqttDevice(gw, auth, clients);
    const refusedBefore = gw.app.telemetry.metrics().rejected_states as number;
    // four messages of 256 keys (the most one state message takes), then one more
    for (let m = 0; m < 4; m++)
      await c.publishAsync(
        `d/${flood.id}/state`,
        json(Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`s${m * 256 + i}`, i]))),
        { qos: 1 },
      );
    await c.publishAsync(`d/${flood.id}/state`, json({ s0: 'lagi', baru: 1 }), { qos: 1 });
    expect(await until(() => (gw.app.telemetry.metrics().rejected_states as number) - refusedBefore >= 25, 5000)).toBe(
      true,
    );
    const { states } = await stored(flood.id);
    expect(states).toHaveLength(1000);
    expect(states.find(([key]) => key === 's0')?.[1]).toBe('lagi');
    expect(states.some(([key]) => key === 'baru' || key === 's1000')).toBe(false);
    expect((gw.app.telemetry.metrics().rejected_states as number) - refusedBefore).toBe(25);
    expect(gw.app.telemetry.rejectsOf(flood.id)?.last_reason).toBe('state_limit');
  });
});

describe('Tasmota: tele/<topic>/SENSOR|STATE|LWT, stat/<topic>/RESULT|POWER<n>', () => {
  let device: { id: number } & Record<string, any>;
  let client: MqttClient;
  let topic: string;
  beforeAll(async () => {
    ({ device, client, topic } = await tasmotaDevice(gw, auth, clients));
    await client.publishAsync(
      `tele/${topic}/SENSOR`,
      json({ Time: '2024-05-01T10:00:00', ENERGY: { Power: 45, Voltage: [229, 230] }, TempUnit: 'C' }),
      { qos: 1 },
    );
    await client.publishAsync(`tele/${topic}/STATE`, json({ UptimeSec: 5, POWER: 'ON', Wifi: { RSSI: 80 } }), {
      qos: 1,
    });
    await client.publishAsync(`stat/${topic}/RESULT`, json({ Dimmer: 40 }), { qos: 1 });
    await settle(gw, async () => (await stored(device.id)).states.length === 3);
  });

  const structural: Junk[] = [
    ['a 65-character sensor name', json({ ['S'.repeat(65)]: { Power: 1 } })],
    ['an empty param name', '{"ENERGY":{"":1}}'],
    ['__proto__ as a sensor', '{"__proto__":{"polluted":1}}'],
    ['__proto__ as a param', '{"ENERGY":{"__proto__":{"polluted":1}}}'],
    ['__proto__ as a subparam', '{"ENERGY":{"Phase":{"__proto__":{"polluted":1}}}}'],
  ];

  it('drops and counts every malformed SENSOR message', async () => {
    const before = await stored(device.id);
    await dropsAll(client, device.id, `tele/${topic}/SENSOR`, [
      ...COMMON,
      ...structural,
      ['text for a number series', '{"ENERGY":{"Power":"45 W"}}'],
      ['a number beyond a double', '{"ENERGY":{"Power":1e999}}'],
      ['a unit beyond a double', '{"TempUnit":-1e999}'],
      ['a subparam nested 10,000 deep', `{"ENERGY":{"Phase":{"L1":${nested(10_000)}}}}`],
      ['3,000 top-level settings', json(keys(3000, () => 'C'))],
    ]);
    expect(await stored(device.id)).toEqual(before);
  });

  it('drops and counts every malformed STATE message', async () => {
    const before = await stored(device.id);
    await dropsAll(client, device.id, `tele/${topic}/STATE`, [
      ...COMMON.filter(([name]) => name !== 'nested 10,000 deep'),
      ['a 65-character key', json({ ['K'.repeat(65)]: 'ON' })],
      ['__proto__ as a key', '{"__proto__":"ON"}'],
      ['text for a measurement', '{"UptimeSec":"lama"}'],
      ['text for a Wi-Fi measurement', '{"Wifi":{"RSSI":"kuat"}}'],
      ['a state beyond a double', '{"Dimmer":1e999}'],
      ['3,000 states', json(keys(3000, () => 'ON'))],
    ]);
    // objects STATE does not know (Berry, new firmware blocks) are skipped, however deep: nothing of them is stored
    const was = rejects(device.id);
    await client.publishAsync(`tele/${topic}/STATE`, nested(10_000), { qos: 1 });
    await client.publishAsync(`tele/${topic}/STATE`, json({ constructor: { a: 1 }, toString: { b: 2 } }), { qos: 1 });
    // the marker's PUBACK leaves only after the pipeline handled every earlier message of this connection (in order,
    // docs/decisions/ingest.md): by then the two skipped objects would have been counted if they were dropped
    await client.publishAsync(`tele/${topic}/STATE`, 'penanda', { qos: 1 });
    expect(rejects(device.id) - was).toBe(1);
    expect(await stored(device.id)).toEqual(before);
  });

  it('drops and counts every malformed RESULT, and every LWT and POWER that is not ON/OFF or Online/Offline', async () => {
    const before = await stored(device.id);
    await dropsAll(client, device.id, `stat/${topic}/RESULT`, [
      ...COMMON,
      ['an empty key', '{"":"ON"}'],
      ['__proto__ as a key', '{"__proto__":{"polluted":1}}'],
      ['a value nested 10,000 deep', `{"POWER":${nested(10_000)}}`],
      ['a value beyond a double', '{"Dimmer":1e999}'],
      ['3,000 keys', json(keys(3000, () => 'ON'))],
    ]);
    const text: Junk[] = [...COMMON, ['lowercase', 'online'], ['a word', 'Maybe'], ['with a NUL', 'Online\u0000']];
    await dropsAll(client, device.id, `tele/${topic}/LWT`, text);
    await dropsAll(client, device.id, `stat/${topic}/POWER`, text.concat([['TOGGLE', 'TOGGLE']]));
    await dropsAll(client, device.id, `stat/${topic}/POWER2`, text);
    expect(await stored(device.id)).toEqual(before);
  });

  it('counts a malformed RESULT during a command and answers the command with the RESULT that follows', async () => {
    await client.subscribeAsync(`cmnd/${topic}/#`, { qos: 1 });
    const before = rejects(device.id);
    const answered = new Promise<void>((resolve) => {
      client.once('message', async () => {
        await barrage(client, `stat/${topic}/RESULT`, [
          ['not JSON', 'POWER ON'],
          ['the answer nested 10,000 deep', `{"POWER":${nested(10_000)}}`],
        ]);
        await client.publishAsync(`stat/${topic}/RESULT`, json({ POWER: 'ON' }), { qos: 1 });
        resolve();
      });
    });
    const r = await call(
      gw.url,
      commandsContract.configure,
      { id: device.id, sensor: 'relay', configtype: 'config', param: 'POWER', value: true },
      auth,
    );
    await answered;
    expect(r.body).toMatchObject({ response_result: 0, data: { reply: { POWER: 'ON' } } });
    expect(rejects(device.id) - before).toBe(4);
  });

  it('drops and counts what a Tasmota publishes under another topic, or on its command topic (its empty POWER query aside)', async () => {
    const stranger = await tasmotaDevice(gw, auth, clients);
    const before = await stored(stranger.device.id);
    for (const t of [
      `tele/${stranger.topic}/SENSOR`,
      `stat/${stranger.topic}/RESULT`,
      `cmnd/${topic}/Backlog`,
      `cmnd/${stranger.topic}/POWER`,
      `d/${device.id}/data`,
    ]) {
      await refusedOn({ username: device.username, password: device.password }, t, '{"ENERGY":{"Power":1}}');
    }
    expect(await stored(stranger.device.id)).toEqual(before);
    await client.publishAsync(`tele/${topic}/SENSOR`, json({ ENERGY: { Power: 47 } }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'ENERGY', 'data', 'Power')) === 47);
  });
});

describe('LoRa (ChirpStack v4 integration): application/<app>/device/<devEui>/event/up|status|join|ack', () => {
  let device: { id: number };
  let ns: MqttClient;
  let devEui: string;
  const event = (e: string, eui = devEui) => `application/${owner.appId}/device/${eui}/event/${e}`;
  beforeAll(async () => {
    const decoder = { ports: { '2': [{ name: 'suhu', offset: 0, type: 'i16', scale: 0.1 }] } };
    ({ device, ns, devEui } = await loraDevice(gw, auth, owner.appId, clients, '70b3d57ed00aa0a0', {
      sensors: { _decoder: decoder },
    }));
    await ns.publishAsync(
      event('up'),
      json({ deviceInfo: { devEui }, fPort: 1, object: { lembap: 61 }, rxInfo: [{ rssi: -60, snr: 7 }] }),
      { qos: 1 },
    );
    await ns.publishAsync(
      event('up'),
      json({ deviceInfo: { devEui }, fPort: 2, data: Buffer.from([0x01, 0x13]).toString('base64') }),
      { qos: 1 },
    );
    await ns.publishAsync(event('status'), json({ deviceInfo: { devEui }, batteryLevel: 90 }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'lora', 'data', 'suhu')) === 27.5);
  });

  it('drops and counts every malformed uplink, status, join and ack, base64 junk for the decoder included', async () => {
    const before = await stored(device.id);
    const info = { deviceInfo: { devEui } };
    await dropsAll(ns, device.id, event('up'), [
      ...COMMON,
      ['no deviceInfo', '{"fPort":2,"data":"ARM="}'],
      ['fPort as text', json({ ...info, fPort: '2', data: 'ARM=' })],
      ['fPort beyond 255', json({ ...info, fPort: 256, data: 'ARM=' })],
      [
        "another device's devEui in the payload",
        json({ deviceInfo: { devEui: '0000000000000001' }, object: { lembap: 1 } }),
      ],
      ['data that is not base64', json({ ...info, fPort: 2, data: '!!bukan base64!!' })],
      ['base64 longer than a LoRa frame', json({ ...info, fPort: 2, data: 'A'.repeat(404) })],
      ['base64 junk shorter than the decoder table', json({ ...info, fPort: 2, data: 'AQ==' })],
      [
        'base64 junk on a port the decoder does not know',
        json({ ...info, fPort: 9, data: noise(40).toString('base64') }),
      ],
      ['rxInfo of the wrong type', json({ ...info, object: { lembap: 1 }, rxInfo: 'kuat' })],
      [
        '65 rxInfo entries',
        json({ ...info, object: { lembap: 1 }, rxInfo: Array.from({ length: 65 }, () => ({ rssi: -1 })) }),
      ],
      [
        'an object value nested 10,000 deep',
        `{"deviceInfo":{"devEui":"${devEui}"},"object":{"x":{"y":${nested(10_000)}}}}`,
      ],
      ['an object value beyond a double', `{"deviceInfo":{"devEui":"${devEui}"},"object":{"lembap":1e999}}`],
      ['text for a number series', json({ ...info, object: { lembap: 'basah' } })],
    ]);
    await dropsAll(ns, device.id, event('status'), [
      ...COMMON,
      ['battery as text', json({ ...info, batteryLevel: 'penuh' })],
      ['no deviceInfo', '{"batteryLevel":1}'],
    ]);
    await dropsAll(ns, device.id, event('join'), [
      ...COMMON,
      ['no deviceInfo', '{"devAddr":"01020304"}'],
      ["another device's devEui", json({ deviceInfo: { devEui: '0000000000000001' } })],
    ]);
    await dropsAll(ns, device.id, event('ack'), [
      ...COMMON,
      ['no queue item', json({ ...info, acknowledged: true })],
      ['acknowledged as text', json({ ...info, queueItemId: 'q', acknowledged: 'ya' })],
    ]);
    expect(await stored(device.id)).toEqual(before);
  });

  it("reaches no other tenant's device: its devEui under the own application is unknown, under the other application refused", async () => {
    const before = await stored(other.lora.id, other.auth);
    const unknown = () => (gw.app.telemetry.metrics().rejected as Record<string, number>).unknown_device ?? 0;
    const was = unknown();
    await ns.publishAsync(
      event('up', other.loraEui),
      json({ deviceInfo: { devEui: other.loraEui }, object: { curian: 1 } }),
      { qos: 1 },
    );
    await ns.publishAsync(
      `application/${owner.appId}/device/bukan-eui/event/up`,
      json({ deviceInfo: { devEui: other.loraEui }, object: { curian: 1 } }),
      { qos: 1 },
    );
    expect(await until(() => unknown() - was === 2)).toBe(true);
    const opts = ns.options as { username?: string; password?: string | Buffer };
    await refusedOn(
      { username: opts.username, password: String(opts.password) },
      `application/${other.owner.appId}/device/${other.loraEui}/event/up`,
      json({ deviceInfo: { devEui: other.loraEui }, object: { curian: 1 } }),
    );
    expect(await stored(other.lora.id, other.auth)).toEqual(before);
    await ns.publishAsync(event('up'), json({ deviceInfo: { devEui }, object: { lembap: 62 } }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'lora', 'data', 'lembap')) === 62);
  });
});

describe('serial gateways: gw/<uid>/up and gw/<uid>/res', () => {
  let device: { id: number };
  let client: MqttClient;
  let uid: string;
  let secret: string;
  beforeAll(async () => {
    ({ device, client, uid, secret } = await serialGateway(gw, auth, clients));
    await client.publishAsync(`gw/${uid}/up`, json({ node: 1, registers: { '40001': 231.5, coil1: true } }), {
      qos: 1,
    });
    await settle(gw, async () => (await newest(device.id, 'node1', 'data', '40001')) === 231.5);
  });

  it('drops and counts every malformed frame and reply', async () => {
    const before = await stored(device.id);
    await dropsAll(client, device.id, `gw/${uid}/up`, [
      ...COMMON,
      ['a register as text', '{"node":1,"registers":{"40001":"tinggi"}}'],
      ['node 300', '{"node":300,"registers":{"40001":1}}'],
      ['node as text', '{"node":"1","registers":{"40001":1}}'],
      ['no registers', '{"node":1,"registers":{}}'],
      ['257 registers', json({ node: 1, registers: keys(257, (i) => i) })],
      ['3,000 registers', json({ node: 1, registers: keys(3000, (i) => i) })],
      ['33 frames', json(Array.from({ length: 33 }, () => ({ node: 1, registers: { '40001': 1 } })))],
      ['a register beyond a double', '{"node":1,"registers":{"40001":1e999}}'],
      ['a boolean for a number series', '{"node":1,"registers":{"40001":true}}'],
      ['__proto__ as a register', '{"node":1,"registers":{"__proto__":1}}'],
      ['a negative ts', '{"node":1,"ts":-1,"registers":{"40001":1}}'],
      ['a ts that is no time', '{"node":1,"ts":"kemarin","registers":{"40001":1}}'],
    ]);
    await dropsAll(client, device.id, `gw/${uid}/res`, [
      ...COMMON,
      ['no id', '{"ok":true}'],
      ['ok as a number', '{"id":"x","ok":1}'],
    ]);
    expect(await stored(device.id)).toEqual(before);
  });

  it("drops and counts what a gateway publishes under another gateway's UID", async () => {
    await refusedOn(
      { username: uid, clientId: uid, password: secret },
      `gw/${unique('LAIN')}/up`,
      '{"node":1,"registers":{"40001":1}}',
    );
    // its own connection was taken over by the refused one (same client id): it reconnects and is heard again
    const again = await mqttAttempt(gw.mqttPort, { username: uid, clientId: uid, password: secret });
    clients.push(again.client!);
    await again.client!.publishAsync(`gw/${uid}/up`, json({ node: 1, registers: { '40001': 232 } }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'node1', 'data', '40001')) === 232);
  });
});

describe('raw bytes on the MQTT port', () => {
  /** a raw TCP connection: writes `chunks` (a pause between them) and resolves when the broker closes it, or false */
  function raw(chunks: Buffer[], closeAfterMs = 1500): Promise<boolean> {
    return new Promise((resolve) => {
      const s = net.connect(gw.mqttPort, '127.0.0.1');
      let i = 0;
      const next = () => (i < chunks.length ? s.write(chunks[i++]!, () => setTimeout(next, 20)) : undefined);
      s.on('connect', next);
      // read what the broker answers (a CONNACK), or its close would wait behind the unread bytes
      s.resume();
      s.on('error', () => undefined);
      const timer = setTimeout(() => (s.destroy(), resolve(false)), closeAfterMs);
      s.on('close', () => (clearTimeout(timer), resolve(true)));
    });
  }
  const connect = (username: string, password?: string) =>
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: unique('raw'),
      keepalive: 30,
      username,
      password: password === undefined ? undefined : Buffer.from(password),
    });
  const publish = (topic: string, payload: string, qos: 0 | 1 = 0) =>
    mqttPacket.generate({
      cmd: 'publish',
      topic,
      payload,
      qos,
      messageId: qos ? 7 : undefined,
      retain: false,
      dup: false,
    });

  it('closes connections sending garbage, impossible lengths or broken packets; other clients never notice', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const login = connect(device.store_mqtt_username, device.store_mqtt_password);
    const topic = `d/${device.id}/data`;
    const good = publish(topic, json({ env: { data: { t: 1 } } }));
    let n = 0;
    // a device that keeps publishing through all of it
    const steady = async () => {
      n++;
      await within(
        client.publishAsync(topic, json({ steady: { data: { n } } }), { qos: 1 }),
        3000,
        'PUBACK to the steady device',
      );
    };
    const cases: [string, Buffer[], boolean][] = [
      ['garbage before CONNECT', [noise(256)], true],
      ['a CONNECT claiming 256 MB', [Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]), noise(64)], true],
      ['a remaining length of five bytes', [Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x7f])], true],
      ['half a CONNECT, then nothing', [login.subarray(0, login.length >> 1)], false],
      ['a PUBLISH before CONNECT', [good], true],
      ['after sign-in: a PUBLISH with QoS 3', [login, Buffer.from([0x36, 0x05, 0x00, 0x01, 0x64, 0x00, 0x01])], true],
      [
        'after sign-in: a topic longer than its packet',
        [login, Buffer.from([0x30, 0x04, 0x00, 0x64, 0x64, 0x2f])],
        true,
      ],
      ['after sign-in: an empty topic', [login, Buffer.from([0x30, 0x03, 0x00, 0x00, 0x41])], true],
      ['after sign-in: packet type 0', [login, Buffer.from([0x00, 0x00])], true],
      ['after sign-in: a second CONNECT', [login, login], true],
      [
        'after sign-in: whole PUBLISHes, then half of one',
        [login, Buffer.concat([good, good, good.subarray(0, 5)])],
        false,
      ],
      ['after sign-in: an invalid UTF-8 topic', [login, publish(`d/${device.id}/data`, '{}').fill(0xff, 4, 5)], true],
    ];
    for (const [name, chunks, closes] of cases) {
      await steady();
      const closed = await raw(chunks, closes ? 3000 : 400);
      if (closes) expect(closed, name).toBe(true);
      await steady();
    }
    // half a packet, then the socket closes
    const half = net.connect(gw.mqttPort, '127.0.0.1', () => half.end(login.subarray(0, 7)));
    half.on('error', () => undefined);
    await steady();
    await settle(gw, async () => (await newest(device.id, 'steady', 'data', 'n')) === n);
    expect(client.connected).toBe(true);
    await otherTenantStillServed();
  });
});

describe('MQTT over WebSocket (/mqtt on the HTTP port)', () => {
  it('counts the same junk, and a frame over 1 MB or garbage closes only its own connection', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const creds = { username: device.store_mqtt_username, password: device.store_mqtt_password };
    const wsUrl = `${gw.url.replace(/^http/, 'ws')}/mqtt`;
    const ws = await mqtt.connectAsync(wsUrl, { ...creds, clientId: unique('ws'), reconnectPeriod: 0 });
    clients.push(ws);
    await dropsAll(ws, device.id, `d/${device.id}/data`, COMMON);
    // the WebSocket endpoint takes frames up to 1 MB (docs/decisions/mqtt-broker.md): a bigger one ends that connection
    const big = await mqtt.connectAsync(wsUrl, { ...creds, clientId: unique('ws'), reconnectPeriod: 0 });
    clients.push(big);
    const closed = new Promise<void>((r) => big.once('close', () => r()));
    big.publish(`d/${device.id}/data`, Buffer.alloc((1 << 20) + 1, 0x5b), { qos: 1 });
    await within(closed, 3000, 'close after a frame over 1 MB');
    const junk = new WebSocket(wsUrl, 'mqtt');
    const junkClosed = new Promise<void>((r) => junk.once('close', () => r()));
    junk.once('open', () => junk.send(noise(256)));
    await within(junkClosed, 3000, 'close after garbage');
    expect(ws.connected && client.connected).toBe(true);
    await ws.publishAsync(`d/${device.id}/data`, json({ env: { data: { t: 12.5 } } }), { qos: 1 });
    await settle(gw, async () => (await newest(device.id, 'env', 'data', 't')) === 12.5);
  });
});

describe("the broker's packet size limit (MQTT_MAX_PACKET_BYTES, 1 MiB)", () => {
  const oversized = () => gw.app.broker.metrics().oversized_packets;
  const login = (username: string, password?: string) =>
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: unique('big'),
      keepalive: 30,
      username,
      password: password === undefined ? undefined : Buffer.from(password),
    });

  /** a byte stream to the broker: raw TCP on the MQTT port, or WebSocket frames on /mqtt */
  type Pipe = { send(b: Buffer, done: (err?: Error | null) => void): void; end(): void };
  type Heard = { opened(): void; data(d: Buffer): void; closed(): void };
  const tcp = (h: Heard): Pipe => {
    const s = net.connect(gw.mqttPort, '127.0.0.1');
    s.on('connect', h.opened)
      .on('data', h.data)
      .on('close', h.closed)
      .on('error', () => undefined);
    return { send: (b, done) => s.write(b, done), end: () => s.destroy() };
  };
  const websocket = (h: Heard): Pipe => {
    const w = new WebSocket(`${gw.url.replace(/^http/, 'ws')}/mqtt`, 'mqtt');
    w.on('open', h.opened)
      .on('message', (d) => h.data(d as Buffer))
      .on('close', h.closed)
      .on('error', () => undefined);
    return { send: (b, done) => w.send(b, done), end: () => w.terminate() };
  };

  /**
   * Sends `connect` (when given; its CONNACK must accept it), then the header of a packet announcing `announced` bytes
   * and its body in 64 KB pieces, one every 10 ms: whether the broker closed the connection within `ms`, and how many
   * bytes of the body had gone out by then.
   */
  function announce(open: (h: Heard) => Pipe, connect: Buffer | undefined, head: Buffer, announced: number, ms = 5000) {
    return new Promise<{ closed: boolean; sent: number; connack?: number }>((resolve) => {
      const piece = Buffer.alloc(64 * 1024, 0x5b);
      let sent = 0;
      let connack: number | undefined;
      let got = Buffer.alloc(0);
      let done = false;
      const finish = (closed: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        pipe.end();
        resolve({ closed, sent, connack });
      };
      const timer = setTimeout(() => finish(false), ms);
      const body = () => {
        if (done || sent >= announced) return;
        const n = Math.min(piece.length, announced - sent);
        pipe.send(piece.subarray(0, n), (err) => {
          if (err) return;
          sent += n;
          setTimeout(body, 10);
        });
      };
      const start = () => pipe.send(head, (err) => (err ? undefined : body()));
      const pipe = open({
        opened: () => (connect ? pipe.send(connect, () => undefined) : start()),
        data: (d) => {
          // the CONNACK (over WebSocket it may come a byte per frame)
          if (!connect || connack !== undefined) return;
          got = Buffer.concat([got, d]);
          if (got.length < 4) return;
          connack = got[0] === 0x20 ? got[3] : -1;
          if (connack === 0) start();
          else finish(false);
        },
        closed: () => finish(true),
      });
    });
  }

  /** a device's valid point is still stored and served, and its connection is up */
  async function stillServed(device: { id: number }, client: MqttClient) {
    const v = Math.round(Math.random() * 1e6);
    await within(
      client.publishAsync(`d/${device.id}/data`, json({ env: { data: { t: v } } }), { qos: 1 }),
      5000,
      'PUBACK of a valid point',
    );
    await settle(gw, async () => (await newest(device.id, 'env', 'data', 't')) === v);
    expect(await newest(device.id, 'env', 'data', 't')).toBe(v);
    expect(client.connected).toBe(true);
  }

  it('closes a signed-in connection whose PUBLISH announces 10 MB as soon as its header arrives, and counts it', async () => {
    const { device } = await mqttDevice(gw, auth, clients);
    const bystander = await mqttDevice(gw, auth, clients);
    const before = oversized();
    const r = await announce(
      tcp,
      login(device.store_mqtt_username, device.store_mqtt_password),
      fixedHeader(0x32, 10 << 20),
      10 << 20,
    );
    expect(r.connack).toBe(0);
    expect(r.closed).toBe(true);
    // closed long before the 10 MB: what went out after the header is what the socket took while the close came back
    expect(r.sent).toBeLessThan(2 << 20);
    expect(await until(() => oversized() - before === 1)).toBe(true);
    await stillServed(bystander.device, bystander.client);
    await otherTenantStillServed();
  });

  it('closes a connection announcing more than the limit before any CONNECT, a CONNECT of 10 MB included', async () => {
    const before = oversized();
    const heads: [string, Buffer][] = [
      ['a CONNECT of 10 MB', fixedHeader(0x10, 10 << 20)],
      ['a PUBLISH of 10 MB', fixedHeader(0x30, 10 << 20)],
      ['a SUBSCRIBE one byte over the limit', fixedHeader(0x82, MQTT_MAX_PACKET_BYTES + 1)],
    ];
    for (const [name, head] of heads) {
      const r = await announce(tcp, undefined, head, 10 << 20);
      expect(r.closed, name).toBe(true);
      expect(r.sent, name).toBeLessThan(2 << 20);
    }
    expect(await until(() => oversized() - before === 3)).toBe(true);
  });

  it('closes a WebSocket connection whose PUBLISH announces 10 MB in frames under the 1 MB frame limit', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const before = oversized();
    const r = await announce(
      websocket,
      login(device.store_mqtt_username, device.store_mqtt_password),
      fixedHeader(0x30, 10 << 20),
      10 << 20,
    );
    expect(r.connack).toBe(0);
    expect(r.closed).toBe(true);
    expect(r.sent).toBeLessThan(2 << 20);
    expect(await until(() => oversized() - before === 1)).toBe(true);
    await stillServed(device, client);
  });

  it('still hands a 200 KB payload (over the telemetry limit, under the packet limit) to the pipeline, which counts it as oversized', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const before = { refused: oversized(), rejects: rejects(device.id) };
    await within(
      client.publishAsync(`d/${device.id}/data`, Buffer.alloc(200 * 1024, 0x5b), { qos: 1 }),
      5000,
      'PUBACK of 200 KB',
    );
    expect(await until(() => rejects(device.id) - before.rejects === 1)).toBe(true);
    expect(gw.app.telemetry.rejectsOf(device.id)?.last_reason).toBe('too_large');
    // so is a packet of exactly the limit
    const topic = `d/${device.id}/data`;
    await within(
      client.publishAsync(topic, Buffer.alloc(MQTT_MAX_PACKET_BYTES - 2 - topic.length - 2, 0x5b), { qos: 1 }),
      5000,
      'PUBACK of a packet of exactly the limit',
    );
    expect(await until(() => rejects(device.id) - before.rejects === 2)).toBe(true);
    expect(oversized()).toBe(before.refused);
    await stillServed(device, client);
  });
});

/** the engine.io connection under a socket, to write socket.io frames by hand (what socket.io-client would refuse) */
const engineOf = (s: Socket) =>
  (
    s.io as unknown as {
      engine: {
        send(m: string): void;
        on(e: string, f: (m: string) => void): void;
        off(e: string, f: (m: string) => void): void;
      };
    }
  ).engine;

/** An acknowledged socket.io event written by hand: socket.io-client cannot even send a value nested 10,000 deep. */
function askRaw(s: Socket, event: string, bodyJson: string): Promise<Record<string, any>> {
  const id = 900_000 + Math.floor(Math.random() * 1000);
  const engine = engineOf(s);
  return within(
    new Promise((resolve) => {
      const heard = (m: string) => {
        if (typeof m !== 'string' || !m.startsWith(`3${id}[`)) return;
        engine.off('message', heard);
        resolve(JSON.parse(m.slice(`3${id}`.length))[0]);
      };
      engine.on('message', heard);
      // engine.io adds its own 4 (message): socket.io's EVENT is 2<ack id>[...], its ACK 3<ack id>[...]
      engine.send(`2${id}["${event}",${bodyJson}]`);
    }),
    3000,
    `the answer to ${event}`,
  );
}

describe('socket.io: junk on every event', () => {
  let dashboardId: number;
  let otherDashboardId: number;
  let device: { id: number };
  let client: MqttClient;
  async function socketOf(who: Record<string, string>) {
    const { socket, refusal } = await openSocket(gw.url, who);
    if (!socket) throw new Error(JSON.stringify(refusal));
    sockets.push(socket);
    return socket;
  }
  beforeAll(async () => {
    ({ device, client } = await mqttDevice(gw, auth, clients));
    const card = {
      key: 'suhu',
      cat: 'SINGLE_VALUE_CARD',
      x: 0,
      y: 0,
      w: 1,
      h: 1,
      model: {
        value: {
          query: 'LATEST',
          queryType: 'device',
          device_id: device.id,
          sensor: 'env',
          config: 'data',
          param: 't',
        },
      },
    };
    dashboardId = await addDashboard(gw.url, auth, 'Panel', {
      version: '2',
      config: { refresh: 0 },
      dashboard: { suhu: card },
    });
    const otherCard = { ...card, model: { value: { ...card.model.value, device_id: other.device.id } } };
    otherDashboardId = await addDashboard(gw.url, other.auth, 'Rahasia', {
      version: '2',
      config: { refresh: 0 },
      dashboard: { suhu: otherCard },
    });
  });

  it('answers junk subscribe and unsubscribe requests with the error envelope, never with data of another tenant', async () => {
    const s = await socketOf(sessionAuth(owner, owner.domain));
    const leaked: unknown[] = [];
    for (const e of [CARD_LIVE.event, 'device.data', 'device.status']) s.on(e, (p) => leaked.push(p));
    const invalid = { response_result: Result.INVALID };
    const notFound = { response_result: Result.NOT_FOUND };
    const cases: [unknown, object][] = [
      [undefined, invalid],
      [null, invalid],
      [42, invalid],
      ['dashboard', invalid],
      [[], invalid],
      [true, invalid],
      [{}, invalid],
      [{ channel: 42 }, invalid],
      [{ channel: ['dashboard'] }, invalid],
      [{ channel: 'x'.repeat(60_000) }, invalid],
      [{ channel: '__proto__' }, notFound],
      [{ channel: 'constructor' }, notFound],
      [{ channel: 'tidak.ada' }, notFound],
      [{ channel: 'device-data' }, invalid],
      [{ channel: 'device-data', params: 'teks' }, invalid],
      [{ channel: 'device-data', params: { device_id: 'abc' } }, invalid],
      [{ channel: 'device-data', params: { device_id: -1 } }, invalid],
      [{ channel: 'device-data', params: { device_id: 1e308 } }, invalid],
      [{ channel: 'device-data', params: { device_id: other.device.id } }, notFound],
      [{ channel: 'device-data', params: { device_id: [other.device.id] } }, notFound],
      [{ channel: CARD_LIVE.channel }, invalid],
      [{ channel: CARD_LIVE.channel, params: { dashboard_id: 'abc' } }, invalid],
      [{ channel: CARD_LIVE.channel, params: { dashboard_id: otherDashboardId } }, notFound],
      [{ channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId, keys: 'suhu' } }, invalid],
      [
        {
          channel: CARD_LIVE.channel,
          params: { dashboard_id: dashboardId, keys: Array.from({ length: 201 }, (_, i) => `k${i}`) },
        },
        invalid,
      ],
      [{ channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId, keys: ['x'.repeat(31)] } }, invalid],
      [{ channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId, vars: 'x'.repeat(50_000) } }, invalid],
      [
        {
          channel: CARD_LIVE.channel,
          params: JSON.parse(`{"dashboard_id":${dashboardId},"__proto__":{"polluted":1}}`),
        },
        { response_result: 0 },
      ],
    ];
    for (const [request, answer] of cases)
      expect(await ask(s, 'subscribe', request), JSON.stringify(request)?.slice(0, 80)).toMatchObject(answer);
    expect(
      await askRaw(
        s,
        'subscribe',
        `{"channel":"${CARD_LIVE.channel}","params":{"dashboard_id":${dashboardId},"vars":${nested(10_000)}}}`,
      ),
    ).toMatchObject(invalid);
    for (const request of [
      undefined,
      null,
      42,
      'teks',
      { room: 42 },
      { room: `device-data.${other.device.id}` },
      { room: 'x'.repeat(60_000) },
    ]) {
      expect(await ask(s, 'unsubscribe', request)).toEqual({ response_result: 0 });
    }
    // no acknowledgement asked, binary instead of JSON, events nobody listens to
    s.emit('subscribe', { channel: 'device-data', params: { device_id: other.device.id } });
    s.emit('subscribe', Buffer.from(noise(64)), () => undefined);
    s.emit('unsubscribe');
    for (const e of ['error', 'card', 'apa.saja', '__proto__', 'constructor'])
      s.emit(e, { channel: 'device-data', params: { device_id: other.device.id } });
    engineOf(s).send('2[42,{"channel":"devices"}]'); // an event named by a number
    expect(await ask(s, 'subscribe', { channel: 'devices', params: {} })).toEqual({
      response_result: 0,
      room: `devices.${owner.appId}`,
    });
    // the other tenant watches its device: once its own socket has the message, a leaked push went out too
    const watcher = await socketOf(sessionAuth(other.owner, other.owner.domain));
    const heard: unknown[] = [];
    watcher.on('device.data', (p) => heard.push(p));
    expect(
      await ask(watcher, 'subscribe', { channel: 'device-data', params: { device_id: other.device.id } }),
    ).toMatchObject({ response_result: 0 });
    await other.client.publishAsync(`d/${other.device.id}/data`, json({ env: { data: { t: 99 } } }), { qos: 1 });
    await settle(gw);
    expect(await until(() => heard.length > 0)).toBe(true);
    expect(
      leaked.filter(
        (p: any) => p.device_id === other.device.id || p.id === other.device.id || p.dashboard_id === otherDashboardId,
      ),
    ).toEqual([]);
    expect(s.connected).toBe(true);
  });

  it('takes no more than 200 rooms per socket however fast the subscribes come, and forgets them when it leaves', async () => {
    const s = await socketOf(sessionAuth(owner, owner.domain));
    const devices = `devices.${owner.appId}`;
    const viewers = gw.app.realtime.viewers(devices);
    // the same room 300 times at once: one more viewer (subscribes still joining count against the limit, so the end
    // of the burst may be refused), and once they are answered, the room again is no new room
    const burst = await Promise.all(
      Array.from({ length: 300 }, () => ask(s, 'subscribe', { channel: 'devices', params: {} })),
    );
    expect(burst[0]).toEqual({ response_result: 0, room: devices });
    expect(burst.every((a) => a.response_result === 0 || a.response_result === Result.INVALID)).toBe(true);
    expect(await ask(s, 'subscribe', { channel: 'devices', params: {} })).toEqual({
      response_result: 0,
      room: devices,
    });
    expect(gw.app.realtime.viewers(devices)).toBe(viewers + 1);
    // 2,000 different rooms at once: the 199 left of the socket's 200, the others -10
    const rooms = gw.app.cards.live!.stats().rooms;
    const all = await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        ask(s, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId, keys: [`k${i}`] } }),
      ),
    );
    const joined = all.filter((a) => a.response_result === 0);
    expect(joined).toHaveLength(199);
    expect(all.filter((a) => a.response_result !== 0).every((a) => a.response_result === Result.INVALID)).toBe(true);
    expect(gw.app.cards.live!.stats().rooms).toBe(rooms + 199);
    s.close();
    expect(
      await until(() => gw.app.cards.live!.stats().rooms === rooms && gw.app.realtime.viewers(devices) === viewers),
    ).toBe(true);
    for (const a of joined) expect(gw.app.realtime.viewers(a.room)).toBe(0);
  });

  it('disconnects a socket sending what socket.io refuses (over 64 KB, reserved event names, broken frames), keeps serving the others', async () => {
    const frames: [string, (s: Socket) => void][] = [
      ['a message over 64 KB', (s) => s.emit('subscribe', { channel: 'x'.repeat(70_000) })],
      ['the reserved event "disconnect"', (s) => engineOf(s).send('2["disconnect",{}]')],
      ['the reserved event "connect"', (s) => engineOf(s).send('2["connect",{}]')],
      ['a broken frame', (s) => engineOf(s).send('2["subscribe",{')],
      ['an unknown packet type', (s) => engineOf(s).send('9["subscribe"]')],
    ];
    for (const [name, send] of frames) {
      const bad = await socketOf(sessionAuth(owner, owner.domain));
      const gone = new Promise((r) => bad.once('disconnect', r));
      send(bad);
      await within(gone, 3000, `disconnect after ${name}`);
    }
    const s = await socketOf(sessionAuth(owner, owner.domain));
    const ack = await ask(s, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: dashboardId } });
    expect(ack.response_result).toBe(0);
    const pushes: CardPush[] = [];
    s.on(CARD_LIVE.event, (p: CardPush) => pushes.push(p));
    const data = new Promise<any>((resolve) => s.on('device.data', resolve));
    expect(
      (await ask(s, 'subscribe', { channel: 'device-data', params: { device_id: device.id } })).response_result,
    ).toBe(0);
    await client.publishAsync(`d/${device.id}/data`, json({ env: { data: { t: 31.5 } } }), { qos: 1 });
    expect((await within(data, 3000, 'device.data')).data).toEqual([
      expect.objectContaining({ sensor: 'env', param: 't', value: 31.5 }),
    ]);
    expect(await until(() => pushes.some((p) => p.dashboard_id === dashboardId && p.data.value === 31.5))).toBe(true);
  });
});

describe('afterwards', () => {
  it('serves the card editor its selection trees and no name polluted Object.prototype', async () => {
    for (const def of [dashboardsContract.devices, dashboardsContract.sensors])
      expect((await call(gw.url, def, {}, auth)).body.response_result).toBe(0);
    const added = Object.getOwnPropertyNames(Object.prototype).filter((k) => !prototypeBefore.includes(k));
    for (const k of added) delete (Object.prototype as Record<string, unknown>)[k];
    expect(added).toEqual([]);
  });
});
