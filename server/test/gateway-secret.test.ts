// Device secrets on the broker (issue 23, items 2 and 7, MQTT part of 5), with real MQTT.js clients: a serial gateway
// signs in with the secret shown once at its activation, never with its UID alone; a UID heard before registration is
// bound only by the application that registers it; the UID check tells no tenant that a UID exists elsewhere; device
// broker passwords are stored as hashes, shown once, regenerable. Password guessing: mqtt-connect-throttle.test.ts.
import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { MqttClient, type IClientOptions } from 'mqtt';
import { T, deviceFamilyCalls, devicesContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';

type AppAuth = { tenant: { id: number; token: string }; domain: string };
const open: MqttClient[] = [];
afterEach(() => {
  open.splice(0).forEach((c) => c.end(true));
});

const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

async function connected(gw: Running, opts: IClientOptions) {
  const a = await mqttAttempt(gw.mqttPort, opts);
  if (!a.client) throw new Error(`refused: ${a.code}`);
  open.push(a.client);
  return a.client;
}

const storedPassword = async (gw: Running, id: number) =>
  (await gw.app.store.one<{ broker_password: string | null }>(
    sql`select broker_password from devices where id = ${id}`,
  ))!.broker_password;

/** a gateway heard on gw/<uid>/up while nobody has registered its UID */
async function heardGateway(gw: Running, auth: AppAuth, uid = unique('ZL').toUpperCase()) {
  const g = await connected(gw, { username: uid, clientId: uid });
  await g.publishAsync(`gw/${uid}/up`, '{}', { qos: 1 });
  expect(
    await until(
      async () =>
        (await call(gw.url, deviceFamilyCalls.zlan.check!, { dev_uid: uid }, auth)).body.response_result === 0,
    ),
  ).toBe(true);
  return { uid, unclaimed: g };
}

describe('serial gateways sign in with their secret', () => {
  let gw: Running;
  let owner: AppAuth;
  let other: AppAuth;
  beforeAll(async () => {
    gw = await startGateway();
    owner = await tenantWithApp(gw.url);
    other = await tenantWithApp(gw.url);
  });
  afterAll(async () => gw.stop());

  it('shows the secret once at activation with the broker address and the exact connection settings', async () => {
    const { uid } = await heardGateway(gw, owner);
    const added = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'ZLAN Gudang', dev_uid: uid },
      owner,
    );
    expect(added.body.response_result).toBe(0);
    const secret: string = added.body.data.gateway_secret;
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(added.body.data.gateway_connection).toEqual({
      mqtt_host: '127.0.0.1',
      mqtt_port: gw.mqttPort,
      mqtt_url: `mqtt://127.0.0.1:${gw.mqttPort}`,
      ws_url: `${gw.url.replace('http', 'ws')}/mqtt`,
      client_id: uid,
      username: uid,
      up_topic: `gw/${uid}/up`,
      down_topic: `gw/${uid}/down`,
    });
    // only its hash is kept: the get shows the settings, never the secret again
    const got = await call(gw.url, deviceFamilyCalls.zlan.get, { id: added.body.data.id }, owner);
    expect(got.body.data.gateway_connection.client_id).toBe(uid);
    expect(got.body.data).not.toHaveProperty('gateway_secret');
    expect(await storedPassword(gw, added.body.data.id)).not.toContain(secret);
    expect(await storedPassword(gw, added.body.data.id)).toMatch(/^sha256\$[0-9a-f]{64}$/);

    // with those settings, over TCP and over WebSocket, the gateway is the registered device with its gw/<uid>/ rights
    const g = await connected(gw, { clientId: uid, username: uid, password: secret });
    expect((await g.subscribeAsync(`gw/${uid}/down`))[0]!.qos).toBe(0);
    await g.publishAsync(`gw/${uid}/up`, '{"node":1,"registers":{"40001":1}}', { qos: 1 });
    expect(
      await until(
        async () =>
          (await call(gw.url, devicesContract.get, { id: added.body.data.id }, owner)).body.data.online === true,
      ),
    ).toBe(true);
    g.end(true);
    const ws = await mqtt.connectAsync(added.body.data.gateway_connection.ws_url, {
      clientId: uid,
      username: uid,
      password: secret,
      reconnectPeriod: 0,
    });
    open.push(ws);
    expect((await ws.subscribeAsync(`gw/${uid}/down`))[0]!.qos).toBe(0);
  });

  it("refuses impersonating another tenant's registered gateway with its UID alone or a guessed secret", async () => {
    const { uid } = await heardGateway(gw, owner);
    const added = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'ZLAN Pabrik', dev_uid: uid },
      owner,
    );
    const secret: string = added.body.data.gateway_secret;
    // the real gateway holds the device's session; the impersonator never gets one, so never hears gw/<uid>/down
    const real = await connected(gw, { clientId: uid, username: uid, password: secret });
    let commands = 0;
    real.on('message', () => commands++);
    await real.subscribeAsync(`gw/${uid}/down`);
    for (const attempt of [
      {},
      { password: '' },
      { password: 'tebakan' },
      { password: secret.slice(0, -1) },
      { password: (await storedPassword(gw, added.body.data.id))! },
    ]) {
      expect((await mqttAttempt(gw.mqttPort, { clientId: uid, username: uid, ...attempt })).code).toBe(
        BAD_USERNAME_OR_PASSWORD,
      );
    }
    // a different client id with the UID as username is no gateway either
    expect((await mqttAttempt(gw.mqttPort, { clientId: unique('x'), username: uid })).code).toBe(NOT_AUTHORIZED);
    expect(real.connected).toBe(true);
    expect(commands).toBe(0);
  });

  it('regenerating the secret disconnects the gateway and refuses the old one; the new one works', async () => {
    const { uid } = await heardGateway(gw, owner);
    const added = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'ZLAN', dev_uid: uid },
      owner,
    );
    const old: string = added.body.data.gateway_secret;
    const g = await connected(gw, { clientId: uid, username: uid, password: old });
    const closed = new Promise<void>((r) => g.once('close', () => r()));
    // another application cannot regenerate it: not found
    expect((await call(gw.url, devicesContract.brokerSecretRegenerate, { id: added.body.data.id }, other)).status).toBe(
      404,
    );
    const r = await call(gw.url, devicesContract.brokerSecretRegenerate, { id: added.body.data.id }, owner);
    expect(r.body.data).toMatchObject({ id: added.body.data.id, username: uid });
    expect(r.body.data.secret).not.toBe(old);
    await closed;
    g.end(true);
    expect((await mqttAttempt(gw.mqttPort, { clientId: uid, username: uid, password: old })).code).toBe(
      BAD_USERNAME_OR_PASSWORD,
    );
    await connected(gw, { clientId: uid, username: uid, password: r.body.data.secret });
  });

  it('a UID heard before registration is bound only by the application that registers it: another tenant claiming it gets no gateway', async () => {
    const { uid, unclaimed } = await heardGateway(gw, owner);
    const kicked = new Promise<void>((r) => unclaimed.once('close', () => r()));
    // the other tenant registers the UID it heard of first
    const claim = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'Klaim', dev_uid: uid },
      other,
    );
    expect(claim.body.response_result).toBe(0);
    await kicked;
    unclaimed.end(true);
    // the gateway does not hold that application's secret: signing in as before is refused, nothing reaches the claimer
    expect((await mqttAttempt(gw.mqttPort, { clientId: uid, username: uid })).code).toBe(BAD_USERNAME_OR_PASSWORD);
    expect((await call(gw.url, devicesContract.get, { id: claim.body.data.id }, other)).body.data.online).toBe(false);
  });

  it('the UID check and the add answer "not heard yet" for a UID registered in another application, as for one nobody has seen', async () => {
    const { uid } = await heardGateway(gw, other);
    const added = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'Milik lain', dev_uid: uid },
      other,
    );
    expect(added.body.response_result).toBe(0);
    const neverHeard = unique('NOPE').toUpperCase();
    for (const check of [
      deviceFamilyCalls.zlan.check!,
      deviceFamilyCalls.usrIot.check!,
      deviceFamilyCalls.bivocom.check!,
      deviceFamilyCalls.friendcom.check!,
      deviceFamilyCalls.sentraGateway.check!,
    ]) {
      const elsewhere = await call(gw.url, check, { dev_uid: uid }, owner);
      const unknown = await call(gw.url, check, { dev_uid: neverHeard }, owner);
      expect(elsewhere.status).toBe(unknown.status);
      expect(elsewhere.body).toEqual(unknown.body);
      expect(elsewhere.body).toMatchObject({ response_result: -7, message: T.devices.serverUidNotHeard });
    }
    const addElsewhere = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'Coba', dev_uid: uid },
      owner,
    );
    const addUnknown = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'Coba', dev_uid: neverHeard },
      owner,
    );
    expect(addElsewhere.body).toEqual(addUnknown.body);
    // its own application is told it has it
    expect((await call(gw.url, deviceFamilyCalls.zlan.check!, { dev_uid: uid }, other)).body).toMatchObject({
      response_result: -12,
      message: T.devices.serverUidTaken,
    });
  });
});

describe('MQTT and Tasmota device passwords', () => {
  let gw: Running;
  let auth: AppAuth;
  beforeAll(async () => {
    gw = await startGateway();
    auth = await tenantWithApp(gw.url);
  });
  afterAll(async () => gw.stop());

  it('stores a hash, shows the password once, signs in with it, and a regenerated one replaces it', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    const password: string = d.store_mqtt_password;
    expect(password.length).toBeGreaterThanOrEqual(43);
    expect(await storedPassword(gw, d.id)).not.toBe(password);
    expect(await storedPassword(gw, d.id)).toMatch(/^sha256\$/);
    expect((await call(gw.url, deviceFamilyCalls.mqtt.get, { id: d.id }, auth)).body.data.store_mqtt_password).toBe('');

    const c = await connected(gw, { clientId: unique('c'), username: d.store_mqtt_username, password });
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    const r = await call(gw.url, devicesContract.brokerSecretRegenerate, { id: d.id }, auth);
    expect(r.body.data.username).toBe(d.store_mqtt_username);
    await closed;
    c.end(true);
    expect(
      (await mqttAttempt(gw.mqttPort, { clientId: unique('c'), username: d.store_mqtt_username, password })).code,
    ).toBe(NOT_AUTHORIZED);
    await connected(gw, { clientId: unique('c'), username: d.store_mqtt_username, password: r.body.data.secret });
  });

  it('does the same for Tasmota; a device without broker password answers -10', async () => {
    const t = await addDevice(gw.url, auth, 'tasmota');
    expect(await storedPassword(gw, t.id)).not.toBe(t.password);
    expect((await call(gw.url, deviceFamilyCalls.tasmota.get, { id: t.id }, auth)).body.data.password).toBe('');
    await connected(gw, { clientId: unique('DVES_'), username: t.username, password: t.password });
    const dummy = await addDevice(gw.url, auth, 'dummy');
    expect((await call(gw.url, devicesContract.brokerSecretRegenerate, { id: dummy.id }, auth)).body).toMatchObject({
      response_result: -10,
      message: T.devices.serverNoBrokerSecret,
    });
  });
});

describe('an existing database', () => {
  it('has its plain-text device passwords hashed at open, and its sealing key outside the data directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-upgrade-'));
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    // a key where versions before issue 23 kept it
    const legacyKey = 'ab'.repeat(32);
    fs.writeFileSync(path.join(dataDir, 'secrets.key'), legacyKey, { mode: 0o600 });
    try {
      const first = await startGateway({ DATA_DIR: dataDir });
      const auth = await tenantWithApp(first.url);
      const d = await addDevice(first.url, auth, 'mqtt');
      // as an older version stored it
      await first.app.store.exec(sql`update devices set broker_password = ${'polos-lama-123'} where id = ${d.id}`);
      await first.stop();

      const again = await startGateway({ DATA_DIR: dataDir });
      try {
        expect(await storedPassword(again, d.id)).toMatch(/^sha256\$/);
        await connected(again, { clientId: unique('c'), username: d.store_mqtt_username, password: 'polos-lama-123' });
      } finally {
        open.splice(0).forEach((c) => c.end(true));
        await again.stop();
      }
      const keyFile = `${dataDir}.seal.key`;
      expect(fs.readFileSync(keyFile, 'utf8')).toBe(legacyKey);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
