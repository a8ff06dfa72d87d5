// Activation with a real MQTT client (spec 03 section 2.3, docs/conventions.md "Device topics"): the token check
// succeeds only after a device connected with the token; the UID check only after the gateway was heard on gw/<uid>/up.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { T, deviceFamilyCalls, devicesContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';

let gw: Running;
let auth: { tenant: { id: number; token: string }; domain: string };
const open: MqttClient[] = [];
beforeAll(async () => {
  gw = await startGateway();
  const owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
});
afterEach(() => {
  open.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

async function connect(opts: Parameters<typeof mqttAttempt>[1]) {
  const a = await mqttAttempt(gw.mqttPort, opts);
  if (!a.client) throw new Error(`refused: ${a.code}`);
  open.push(a.client);
  return a.client;
}

describe('Sentra end device: provision/k/gen and provision/k/check', () => {
  it('fails before the device connects with its token and succeeds after; the device is then added and online', async () => {
    const gen = await call(gw.url, devicesContract.tokenGenerate, {}, auth);
    const token: string = gen.body.credentials_token;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const before = await call(gw.url, devicesContract.tokenCheck, { token }, auth);
    expect(before.body).toMatchObject({ response_result: -7, message: T.devices.serverNotConnected });
    const early = await call(
      gw.url,
      deviceFamilyCalls.sentraEnd.adds.sentraEnd!,
      { serial_number: unique('K'), name: 'Raspi', sensors: '{}', credentials_token: token },
      auth,
    );
    expect(early.body.response_result).toBe(-7);

    const device = await connect({ username: token, clientId: unique('raspi') });
    expect(
      await until(
        async () => (await call(gw.url, devicesContract.tokenCheck, { token }, auth)).body.response_result === 0,
      ),
    ).toBe(true);

    const added = await call(
      gw.url,
      deviceFamilyCalls.sentraEnd.adds.sentraEnd!,
      { serial_number: unique('K'), name: 'Raspi', sensors: '{"s":{}}', credentials_token: token },
      auth,
    );
    expect(added.body.response_result).toBe(0);
    const id: number = added.body.data.id;
    expect(added.body.data.token_connected_ts).toBeGreaterThan(0);
    // the connection opened before the add now speaks for the device on d/<id>/...
    await new Promise<void>((resolve, reject) =>
      device.publish(`d/${id}/data`, '{"s":{"data":{"v":1}}}', { qos: 1 }, (e) => (e ? reject(e) : resolve())),
    );
    expect(
      await until(async () => (await call(gw.url, devicesContract.get, { id }, auth)).body.data.online === true),
    ).toBe(true);
    expect(device.connected).toBe(true);
  });
  it("answers -7 for another application's token and for a token never issued", async () => {
    const other = await tenantWithApp(gw.url);
    const token = (
      await call(gw.url, devicesContract.tokenGenerate, {}, { tenant: other.tenant, domain: other.domain })
    ).body.credentials_token;
    await connect({ username: token, clientId: unique('raspi') });
    await until(
      async () =>
        (await call(gw.url, devicesContract.tokenCheck, { token }, { tenant: other.tenant, domain: other.domain })).body
          .response_result === 0,
    );
    expect((await call(gw.url, devicesContract.tokenCheck, { token }, auth)).body.response_result).toBe(-7);
    expect((await call(gw.url, devicesContract.tokenCheck, { token: 'f'.repeat(64) }, auth)).body.response_result).toBe(
      -7,
    );
  });
});

describe('serial gateways: provision/{z,ui,b}/check', () => {
  it('fails before the gateway publishes on gw/<uid>/up and succeeds after; then the gateway is added', async () => {
    const uid = unique('ZLAN');
    const check = deviceFamilyCalls.zlan.check!;
    expect((await call(gw.url, check, { dev_uid: uid }, auth)).body).toMatchObject({
      response_result: -7,
      message: T.devices.serverUidNotHeard,
    });

    // connected but silent is not enough: the UID must be heard on its up topic
    const gateway = await connect({ username: uid, clientId: uid });
    // time for the connection to be heard, were a connection enough
    await new Promise((r) => setTimeout(r, 100));
    expect((await call(gw.url, check, { dev_uid: uid }, auth)).body.response_result).toBe(-7);

    gateway.publish(`gw/${uid}/up`, 'hello');
    expect(
      await until(async () => (await call(gw.url, check, { dev_uid: uid }, auth)).body.response_result === 0),
    ).toBe(true);
    // the check accepts the UID under `token` too, and the other serial families' checks see the same gateway
    expect((await call(gw.url, deviceFamilyCalls.usrIot.check!, { token: uid }, auth)).body).toMatchObject({
      response_result: 0,
      dev_uid: uid,
    });
    expect((await call(gw.url, deviceFamilyCalls.bivocom.check!, { dev_uid: uid }, auth)).body.response_result).toBe(0);

    const closed = new Promise<void>((r) => gateway.once('close', () => r()));
    const added = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'ZLAN Pabrik', dev_uid: uid },
      auth,
    );
    expect(added.body.data).toMatchObject({ category: 4, zlan_dev_uid: uid });
    // heard as an unclaimed gateway, it is asked to reconnect as the registered device
    await closed;
    expect((await call(gw.url, check, { dev_uid: uid }, auth)).body).toMatchObject({
      response_result: -12,
      message: T.devices.serverUidTaken,
    });
    const again = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'Kembar', dev_uid: uid },
      auth,
    );
    expect(again.body.response_result).toBe(-12);

    // registered, it signs in with the secret shown once by the add; its UID alone no longer opens it
    expect((await mqttAttempt(gw.mqttPort, { username: uid, clientId: uid })).code).toBe(4);
    const registered = await connect({ username: uid, clientId: uid, password: added.body.data.gateway_secret });
    const granted = await registered.subscribeAsync(`gw/${uid}/down`);
    expect(granted[0]!.qos).toBe(0);
    expect(
      await until(
        async () =>
          (await call(gw.url, deviceFamilyCalls.zlan.get, { id: added.body.data.id }, auth)).body.data.online === true,
      ),
    ).toBe(true);
  });
  it('adds a Sentra gateway of each type once its UID was heard', async () => {
    for (const variant of deviceFamilyCalls.sentraGateway.family.variants) {
      const uid = unique('SG');
      const g = await connect({ username: uid, clientId: uid });
      g.publish(`gw/${uid}/up`, '{}');
      await until(
        async () =>
          (await call(gw.url, deviceFamilyCalls.sentraGateway.check!, { dev_uid: uid }, auth)).body.response_result ===
          0,
      );
      const r = await call(
        gw.url,
        deviceFamilyCalls.sentraGateway.adds[variant.key]!,
        { serial_number: unique('S'), name: variant.label, dev_uid: uid },
        auth,
      );
      expect(r.body.data).toMatchObject({
        category: 10,
        deviceType: variant.deviceType,
        sentra_device_uid: uid,
        sentra_device_type: variant.deviceType,
      });
    }
  });
  it('lets an unclaimed gateway publish nothing but its own gw/<uid>/up', async () => {
    const uid = unique('BV');
    const g = await connect({ username: uid, clientId: uid });
    // a refused subscription is answered with SUBACK 0x80, which MQTT.js reports as an error
    await expect(g.subscribeAsync(`gw/${uid}/down`)).rejects.toThrow(/Subscribe error/);
    // a publish elsewhere is dropped and counted, the connection stays up (issue 27)
    const before = gw.app.broker.metrics().dropped_publishes_by_client[`gateway:${uid}`] ?? 0;
    await g.publishAsync(`gw/${unique('LAIN')}/up`, 'menyamar', { qos: 1 });
    expect(
      await until(() => gw.app.broker.metrics().dropped_publishes_by_client[`gateway:${uid}`] === before + 1),
    ).toBe(true);
    expect(g.connected).toBe(true);
    // a username that is not its client id is no gateway at all
    expect((await mqttAttempt(gw.mqttPort, { username: uid, clientId: 'lain' })).code).toBe(5);
  });
});
