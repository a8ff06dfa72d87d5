// Issue 38 item 9: what the "shown once" screen tells a device is right. The add's answer gives the broker address
// devices use (MQTT_PUBLIC_URL, else the host the console was reached at, never the bind address); the connection
// guide built from it (contracts' connectionGuide, the screen's own code) gives a mosquitto_pub line, and that line,
// read by a shell parser and published with an MQTT client exactly as it says, arrives as the device's data — for a
// generic MQTT device, a Tasmota and a serial gateway.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { parse } from 'shell-quote';
import { connectionGuide, deviceDataContract, deviceFamilyCalls, T } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';

type AppAuth = { tenant: { id: number; token: string }; domain: string };
const open: MqttClient[] = [];
afterEach(() => open.splice(0).forEach((c) => c.end(true)));

/** Publishes what a `mosquitto_pub` line says: its host, port, client id, user, password, QoS, topic and message. */
async function runMosquittoPub(line: string): Promise<void> {
  const argv = parse(line).map(String);
  expect(argv[0]).toBe('mosquitto_pub');
  const opt = (flag: string) => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  expect(argv).not.toContain('--capath'); // this gateway speaks plain MQTT
  const client = await mqtt.connectAsync(`mqtt://${opt('-h')}:${opt('-p')}`, {
    username: opt('-u'),
    password: opt('-P'),
    ...(opt('-i') ? { clientId: opt('-i') } : {}),
    reconnectPeriod: 0,
    connectTimeout: 3000,
  });
  open.push(client);
  await client.publishAsync(opt('-t')!, opt('-m')!, { qos: Number(opt('-q') ?? 0) as 0 | 1 });
}

const WORDS = T.devices.connect.words;
const wsUrl = (gw: Running) => `${gw.url.replace('http', 'ws')}/mqtt`;

/** the device's stored value of sensor/configtype/param, once it is there */
async function storedValue(gw: Running, auth: AppAuth, id: number, sensor: string, param: string) {
  let value: unknown;
  await until(async () => {
    const r = await call(gw.url, deviceDataContract.list, { id }, auth);
    const row = (r.body.data as { sensor: string; param: string; value: unknown; data_exist: boolean }[])?.find(
      (x) => x.sensor === sensor && x.param === param && x.data_exist,
    );
    value = row?.value;
    return row !== undefined;
  });
  return value;
}

describe('the connection guide of the "shown once" screen', () => {
  let gw: Running;
  let auth: AppAuth;
  beforeAll(async () => {
    gw = await startGateway();
    const owner = await tenantWithApp(gw.url);
    auth = { tenant: owner.tenant, domain: owner.domain };
  });
  afterAll(async () => gw?.stop());

  it("a generic MQTT device: its mosquitto_pub line publishes a reading to d/<id>/data that the device's data shows", async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    // the host the console was reached at (here 127.0.0.1), with the broker's port
    expect(d.store_mqtt_url).toBe(`mqtt://127.0.0.1:${gw.mqttPort}`);
    const guide = connectionGuide(
      {
        kind: 'mqtt',
        brokerUrl: d.store_mqtt_url,
        wsUrl: wsUrl(gw),
        username: d.store_mqtt_username,
        password: d.store_mqtt_password,
        deviceId: d.id,
      },
      WORDS,
    );
    expect(guide).toMatchObject({ host: '127.0.0.1', port: gw.mqttPort, tls: false });
    expect(guide.topics.map((t) => t.topic)).toEqual([
      `d/${d.id}/data`,
      `d/${d.id}/state`,
      `d/${d.id}/cmd`,
      `d/${d.id}/cmd/res`,
    ]);
    await runMosquittoPub(guide.mosquittoPub);
    expect(await storedValue(gw, auth, d.id, 'suhu', 'celsius')).toBe(24.5);
  });

  it('a Tasmota: its line publishes tele/<topic>/SENSOR, and its Backlog names host, port, user, password and Topic', async () => {
    const d = await addDevice(gw.url, auth, 'tasmota');
    const guide = connectionGuide(
      {
        kind: 'tasmota',
        brokerUrl: d.device_mqtt_url,
        wsUrl: wsUrl(gw),
        username: d.username,
        password: d.password,
        topic: d.topic,
      },
      WORDS,
    );
    expect(guide.tasmotaBacklog).toBe(
      `Backlog MqttHost 127.0.0.1; MqttPort ${gw.mqttPort}; MqttUser ${d.username}; MqttPassword ${d.password}; ` +
        `Topic ${d.topic}; FullTopic %prefix%/%topic%/`,
    );
    await runMosquittoPub(guide.mosquittoPub);
    expect(await storedValue(gw, auth, d.id, 'ENERGY', 'Power')).toBe(45.2);
  });

  it('a serial gateway: its line signs in with the UID as client id and publishes gw/<uid>/up', async () => {
    const uid = unique('ZL').toUpperCase();
    const heard = await mqttAttempt(gw.mqttPort, { username: uid, clientId: uid });
    await heard.client!.publishAsync(`gw/${uid}/up`, '{}', { qos: 1 });
    heard.client!.end(true);
    await until(
      async () =>
        (await call(gw.url, deviceFamilyCalls.zlan.check!, { dev_uid: uid }, auth)).body.response_result === 0,
    );
    const added = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'ZLAN Gudang', dev_uid: uid },
      auth,
    );
    const c = added.body.data.gateway_connection;
    const guide = connectionGuide(
      {
        kind: 'gateway',
        brokerUrl: c.mqtt_url,
        wsUrl: c.ws_url,
        username: c.username,
        password: added.body.data.gateway_secret,
        uid,
      },
      WORDS,
    );
    expect(guide.clientId).toBe(uid);
    await runMosquittoPub(guide.mosquittoPub);
    expect(await storedValue(gw, auth, added.body.data.id, 'node1', '40001')).toBe(231.5);
  });
});

describe('MQTT_PUBLIC_URL', () => {
  let gw: Running;
  afterAll(async () => gw?.stop());

  it('is the broker address every device is told, with TLS for mqtts', async () => {
    gw = await startGateway({ MQTT_PUBLIC_URL: 'mqtts://iot.example.com' });
    const owner = await tenantWithApp(gw.url);
    const auth = { tenant: owner.tenant, domain: owner.domain };
    const d = await addDevice(gw.url, auth, 'mqtt');
    expect(d.store_mqtt_url).toBe('mqtts://iot.example.com:8883');
    const t = await addDevice(gw.url, auth, 'tasmota');
    expect(t.device_mqtt_url).toBe('mqtts://iot.example.com:8883');
    const got = await call(gw.url, deviceFamilyCalls.tasmota.get, { id: t.id }, auth);
    expect(got.body.data.device_mqtt_url).toBe('mqtts://iot.example.com:8883');
    const guide = connectionGuide(
      {
        kind: 'tasmota',
        brokerUrl: t.device_mqtt_url,
        wsUrl: '',
        username: t.username,
        password: t.password,
        topic: t.topic,
      },
      WORDS,
    );
    expect(guide.mosquittoPub).toContain('-h iot.example.com -p 8883 --capath /etc/ssl/certs');
    expect(guide.tasmotaBacklog).toMatch(/MqttHost iot\.example\.com; MqttPort 8883; .*; SetOption103 1$/);
  });
});
