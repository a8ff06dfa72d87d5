// ChirpStack v4 as shipped (issue 27), with an MQTT.js client on its real topics (3.1.1; uplink, join and downlink
// also over MQTT 5, as ChirpStack v4.7+ connects): the LoRa server entry records
// the ChirpStack application UUID, and the integration speaks application/<uuid>/device/<devEui>/event/<event> and
// subscribes application/+/device/+/command/+ (limited to its own application's trees). Event bodies as ChirpStack v4's
// integration.proto renders them in JSON.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import {
  T,
  commandsContract,
  credentialsContract,
  deviceDataContract,
  devicesContract,
  loraContract,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp, unique, until } from './fixtures.js';

const SILENCE_S = 10;
let gw: Running;
const clients: MqttClient[] = [];
beforeAll(async () => {
  // the shortest silence allowed, so that a silent device's time-out is seen within the test
  gw = await startGateway({ PRESENCE_SILENCE_S: String(SILENCE_S) }, { commandTimeoutMs: 2000 });
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

type Auth = { tenant: { id: number; token: string }; domain: string };
let macSeq = 0;

/** a tenant whose ChirpStack application (`uuid`) holds one device, and the integration's connection (MQTT 3.1.1 unless
 * `protocolVersion` says 5) */
async function chirpstack(devEui: string, fields: Record<string, unknown> = {}, protocolVersion: 4 | 5 = 4) {
  const owner = await tenantWithApp(gw.url);
  const auth: Auth = { tenant: owner.tenant, domain: owner.domain };
  const uuid = randomUUID();
  const server = await call(
    gw.url,
    loraContract.add,
    {
      mac: `02:00:00:00:10:${(++macSeq).toString(16).padStart(2, '0')}`,
      name: 'ChirpStack',
      server: 'chirpstack:8080',
      application_uuid: uuid.toUpperCase(),
    },
    auth,
  );
  expect(server.body).toMatchObject({ response_result: 0, data: { application_uuid: uuid } });
  const device = await addDevice(gw.url, auth, 'lora', {
    dev_eui: devEui.toUpperCase(),
    otaa_key: 'A'.repeat(32),
    network_server_id: server.body.data.id,
    ...fields,
  });
  const pair = (
    await call(
      gw.url,
      credentialsContract.create,
      { credentials_id: unique('cs'), scopes: { navs: [] }, details: {} },
      auth,
    )
  ).body.data;
  const ns = await new Promise<MqttClient>((resolve, reject) => {
    const c = mqtt.connect(`mqtt://127.0.0.1:${gw.mqttPort}`, {
      protocolVersion,
      reconnectPeriod: 0,
      clientId: unique('chirpstack'),
      username: pair.credentials_id,
      password: pair.credentials_secret,
    });
    clients.push(c);
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
  const deviceInfo = {
    tenantId: randomUUID(),
    tenantName: 'ChirpStack',
    applicationId: uuid,
    applicationName: 'Gedung',
    deviceProfileId: randomUUID(),
    deviceProfileName: 'Sensor',
    deviceName: 'sensor-1',
    devEui,
    deviceClassEnabled: 'CLASS_A',
    tags: {},
  };
  return {
    auth,
    uuid,
    device,
    ns,
    deviceInfo,
    topic: (event: string) => `application/${uuid}/device/${devEui}/event/${event}`,
  };
}

const online = async (auth: Auth, id: number) =>
  (await call(gw.url, devicesContract.get, { id }, auth)).body.data.online as boolean;

describe('ChirpStack v4 integration on its application UUID topics', () => {
  it('records the ChirpStack application UUID on the LoRa server entry and refuses one that is not a UUID', async () => {
    const owner = await tenantWithApp(gw.url);
    const auth: Auth = { tenant: owner.tenant, domain: owner.domain };
    const bad = await call(
      gw.url,
      loraContract.add,
      { mac: '02:00:00:00:20:01', name: 'CS', server: 'x', application_uuid: 'bukan-uuid' },
      auth,
    );
    expect(bad.body.response_result).toBe(-10);
    expect(bad.body.errors[0]).toEqual({ path: 'application_uuid', message: T.lora.applicationUuidInvalid });
    const plain = await call(gw.url, loraContract.add, { mac: '02:00:00:00:20:02', name: 'CS', server: 'x' }, auth);
    expect(plain.body.data.application_uuid).toBeNull();
    const uuid = randomUUID();
    const edited = await call(
      gw.url,
      loraContract.edit,
      { id: plain.body.data.id, mac: '02:00:00:00:20:02', name: 'CS', server: 'x', application_uuid: uuid },
      auth,
    );
    expect(edited.body.data.application_uuid).toBe(uuid);
    // an edit that does not name it keeps it
    await call(
      gw.url,
      loraContract.edit,
      { id: plain.body.data.id, mac: '02:00:00:00:20:02', name: 'CS 2', server: 'x' },
      auth,
    );
    expect((await call(gw.url, loraContract.get, { id: plain.body.data.id }, auth)).body.data.application_uuid).toBe(
      uuid,
    );
  });

  it("cannot subscribe to or publish into another application's UUID tree (the publish is dropped and counted, the connection stays)", async () => {
    const cs = await chirpstack('70b3d57ed0050004');
    const other = await chirpstack('70b3d57ed0050005');
    await expect(cs.ns.subscribeAsync(`application/${other.uuid}/device/+/command/+`)).rejects.toThrow(
      /Subscribe error/,
    );
    const dropped = () => Object.values(gw.app.broker.metrics().dropped_publishes_by_client).reduce((n, c) => n + c, 0);
    const before = dropped();
    await cs.ns.publishAsync(other.topic('join'), JSON.stringify({ deviceInfo: other.deviceInfo }), { qos: 1 });
    expect(await until(() => dropped() === before + 1)).toBe(true);
    expect(cs.ns.connected).toBe(true);
    expect(await online(other.auth, other.device.id)).toBe(false);
  });

  it("a downlink carries data (base64 from the device's decoder table read backwards) so that ChirpStack needs no codec", async () => {
    const decoder = {
      ports: {
        '10': [
          { name: 'setpoint', offset: 0, type: 'i16', scale: 0.1 },
          { name: 'fan', offset: 2, type: 'u8' },
        ],
      },
    };
    const cs = await chirpstack('70b3d57ed0050007', { sensors: { _decoder: decoder } });
    await cs.ns.subscribeAsync('application/+/device/+/command/+', { qos: 1 });
    const downs: any[] = [];
    cs.ns.on('message', (_topic, payload) => {
      const down = JSON.parse(payload.toString());
      downs.push(down);
      cs.ns.publish(
        cs.topic('ack'),
        JSON.stringify({ deviceInfo: cs.deviceInfo, queueItemId: down.id, acknowledged: true, fCntDown: 1 }),
        { qos: 1 },
      );
    });
    await cs.ns.publishAsync(cs.topic('join'), JSON.stringify({ deviceInfo: cs.deviceInfo, devAddr: '00189443' }), {
      qos: 1,
    });
    expect(await until(() => online(cs.auth, cs.device.id))).toBe(true);
    const r = await call(
      gw.url,
      commandsContract.configure,
      { id: cs.device.id, sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 21 },
      cs.auth,
    );
    expect(r.body.response_result).toBe(0);
    expect(downs).toEqual([
      {
        id: r.body.data.id,
        devEui: '70b3d57ed0050007',
        confirmed: true,
        fPort: 10,
        data: Buffer.from([0x00, 0xd2, 0x00]).toString('base64'),
      },
    ]);
  });

  it('a LoRa device silent for PRESENCE_SILENCE_S is offline within the silence plus a quarter of it', async () => {
    const cs = await chirpstack('70b3d57ed0050006');
    await cs.ns.publishAsync(cs.topic('join'), JSON.stringify({ deviceInfo: cs.deviceInfo, devAddr: '00189442' }), {
      qos: 1,
    });
    expect(await until(() => online(cs.auth, cs.device.id))).toBe(true);
    const joined = Date.now();
    expect(await until(async () => !(await online(cs.auth, cs.device.id)), SILENCE_S * 1250 + 2000)).toBe(true);
    expect(Date.now() - joined).toBeGreaterThanOrEqual(SILENCE_S * 1000 - 1000);
  }, 30_000);
});

describe.each([
  { version: 'MQTT 3.1.1', protocolVersion: 4 as const, prefix: '70b3d57ed005' },
  { version: 'MQTT 5', protocolVersion: 5 as const, prefix: '70b3d57ed015' },
])('ChirpStack v4 over $version on its application UUID topics', ({ protocolVersion, prefix }) => {
  const eui = (n: string) => prefix + n;
  it('join marks the device online; an uplink is stored; status, txack, log and location keep the connection up', async () => {
    const cs = await chirpstack(eui('0001'), {}, protocolVersion);
    expect(await online(cs.auth, cs.device.id)).toBe(false);
    await cs.ns.publishAsync(
      cs.topic('join'),
      JSON.stringify({
        deduplicationId: randomUUID(),
        time: new Date().toISOString(),
        deviceInfo: cs.deviceInfo,
        devAddr: '00189440',
      }),
      { qos: 1 },
    );
    expect(await until(() => online(cs.auth, cs.device.id))).toBe(true);

    const uplink = {
      deduplicationId: randomUUID(),
      time: new Date().toISOString(),
      deviceInfo: cs.deviceInfo,
      devAddr: '00189440',
      adr: true,
      dr: 5,
      fCnt: 7,
      fPort: 1,
      confirmed: false,
      data: Buffer.from([0x01, 0x02]).toString('base64'),
      object: { temperature: 22.5 },
      rxInfo: [
        {
          gatewayId: '0016c001ff10a235',
          uplinkId: 4217,
          rssi: -57,
          snr: 9.8,
          channel: 2,
          context: 'AAAAAA==',
          crcStatus: 'CRC_OK',
        },
      ],
      txInfo: {
        frequency: 923200000,
        modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } },
      },
    };
    await cs.ns.publishAsync(cs.topic('up'), JSON.stringify(uplink), { qos: 1 });
    expect(
      await until(async () => {
        const latest = (await call(gw.url, deviceDataContract.latest, { id: cs.device.id }, cs.auth)).body
          .data as any[];
        return latest?.some((p) => p.sensor === 'lora' && p.param === 'temperature' && p.value === 22.5) === true;
      }),
    ).toBe(true);

    const time = new Date().toISOString();
    await cs.ns.publishAsync(
      cs.topic('status'),
      JSON.stringify({
        deduplicationId: randomUUID(),
        time,
        deviceInfo: cs.deviceInfo,
        margin: 7,
        externalPowerSource: false,
        batteryLevelUnavailable: false,
        batteryLevel: 87.5,
      }),
      { qos: 1 },
    );
    await cs.ns.publishAsync(
      cs.topic('txack'),
      JSON.stringify({
        downlinkId: 12,
        time,
        deviceInfo: cs.deviceInfo,
        queueItemId: randomUUID(),
        fCntDown: 3,
        gatewayId: '0016c001ff10a235',
        txInfo: { frequency: 923200000 },
      }),
      { qos: 1 },
    );
    await cs.ns.publishAsync(
      cs.topic('log'),
      JSON.stringify({
        time,
        deviceInfo: cs.deviceInfo,
        level: 'ERROR',
        code: 'UPLINK_CODEC',
        description: 'codec error',
        context: {},
      }),
      { qos: 1 },
    );
    await cs.ns.publishAsync(
      cs.topic('location'),
      JSON.stringify({
        deduplicationId: randomUUID(),
        time,
        deviceInfo: cs.deviceInfo,
        location: { latitude: -6.2, longitude: 106.8, altitude: 10, source: 'GEO_RESOLVER_TDOA', accuracy: 20 },
      }),
      { qos: 1 },
    );
    expect(cs.ns.connected).toBe(true);
    // every event counted by kind in the telemetry metrics
    expect(
      await until(() => {
        const counted = gw.app.telemetry.metrics().lora_events as Record<string, number>;
        return ['up', 'join', 'status', 'txack', 'log', 'location'].every((kind) => (counted[kind] ?? 0) >= 1);
      }),
    ).toBe(true);
  });

  it("subscribes application/+/device/+/command/+, receives its device's downlink on the UUID topic, acknowledged through event/ack; another tenant's downlink does not reach it", async () => {
    const cs = await chirpstack(eui('0002'), {}, protocolVersion);
    const other = await chirpstack(eui('0003'), {}, protocolVersion);
    const granted = await cs.ns.subscribeAsync('application/+/device/+/command/+', { qos: 1 });
    expect(granted[0]!.qos).toBe(1);
    await other.ns.subscribeAsync(`application/${other.uuid}/device/+/command/+`, { qos: 1 });
    const heard: [string, any][] = [];
    cs.ns.on('message', (topic, payload) => {
      const down = JSON.parse(payload.toString());
      heard.push([topic, down]);
      if (topic.startsWith(`application/${cs.uuid}/`))
        cs.ns.publish(
          cs.topic('ack'),
          JSON.stringify({
            deduplicationId: randomUUID(),
            time: new Date().toISOString(),
            deviceInfo: cs.deviceInfo,
            queueItemId: down.id,
            acknowledged: true,
            fCntDown: 4,
          }),
          { qos: 1 },
        );
    });
    other.ns.on('message', (_topic, payload) => {
      const down = JSON.parse(payload.toString());
      other.ns.publish(
        other.topic('ack'),
        JSON.stringify({ deviceInfo: other.deviceInfo, queueItemId: down.id, acknowledged: true, fCntDown: 1 }),
        { qos: 1 },
      );
    });
    for (const x of [cs, other]) {
      await x.ns.publishAsync(x.topic('join'), JSON.stringify({ deviceInfo: x.deviceInfo, devAddr: '00189441' }), {
        qos: 1,
      });
      expect(await until(() => online(x.auth, x.device.id))).toBe(true);
    }

    const theirs = await call(
      gw.url,
      commandsContract.configure,
      { id: other.device.id, sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 21 },
      other.auth,
    );
    expect(theirs.body.response_result).toBe(0);
    const r = await call(
      gw.url,
      commandsContract.configure,
      { id: cs.device.id, sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 24 },
      cs.auth,
    );
    expect(r.body).toMatchObject({ response_result: 0, data: { reply: { acknowledged: true } } });
    expect(heard).toEqual([
      [
        `application/${cs.uuid}/device/${eui('0002')}/command/down`,
        {
          id: r.body.data.id,
          devEui: eui('0002'),
          confirmed: true,
          fPort: 10,
          object: { sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 24 },
        },
      ],
    ]);
  });
});
