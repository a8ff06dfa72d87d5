// The broker keeps its state (issue 27): retained messages and persistent sessions (MQTT.js clean: false) with their
// queued QoS 1 messages survive a gateway restart on the same DATA_DIR, whichever of two broker threads a client lands
// on; a console command to a device away with a persistent session waits for it within the command's time-out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { Result, T, commandsContract } from '@sentra/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/log.js';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp, unique, until } from './fixtures.js';
import type { AppAuth } from './device-data.kit.js';

const clients: MqttClient[] = [];
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});

type Connack = { sessionPresent: boolean };
function connect(
  port: number,
  opts: IClientOptions,
  onMessage?: (client: MqttClient, topic: string, payload: Buffer) => void,
): Promise<{ client: MqttClient; connack: Connack; got: string[] }> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 3000, ...opts });
    clients.push(client);
    // listening from the start: queued messages arrive right after CONNACK, often in the same read as it (before the
    // promise below resolves), so a device's answer is wired here, not after `await connect(...)`
    const got: string[] = [];
    client.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    if (onMessage) client.on('message', (topic, payload) => onMessage(client, topic, payload));
    client.once('connect', (connack) => resolve({ client, connack, got }));
    client.once('error', reject);
  });
}

/** a gateway on `dataDir` that stays there when it stops (harness.ts's removes its own directory) */
async function gatewayOn(dataDir: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    REGISTER_THROTTLE_ATTEMPTS: '1000000',
    MQTT_THREADS: '2',
    ...env,
  });
  const app = await buildApp(config, { log: createLogger('error') });
  const { url, mqttPort } = await app.listen();
  return { app, url, mqttPort };
}

describe('a gateway restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-broker-'));
  let gateway: Awaited<ReturnType<typeof gatewayOn>> | undefined;
  afterAll(async () => {
    await gateway?.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true });
  });

  it('keeps a retained message and a QoS 1 message queued for a persistent session (clean session false)', async () => {
    gateway = await gatewayOn(dataDir);
    const owner = await tenantWithApp(gateway.url);
    const device = await addDevice(gateway.url, { tenant: owner.tenant, domain: owner.domain }, 'mqtt');
    const login = { username: device.store_mqtt_username, password: device.store_mqtt_password };
    const persistent = { ...login, clientId: unique('sesi'), clean: false, protocolVersion: 4 as const };

    const first = await connect(gateway.mqttPort, persistent);
    expect(first.connack.sessionPresent).toBe(false);
    await first.client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
    await first.client.publishAsync(`d/${device.id}/status`, 'hidup', { qos: 1, retain: true });
    await first.client.endAsync();
    expect(await until(() => gateway!.app.broker.metrics().away_sessions === 1)).toBe(true);
    // published while the device is away: queued for its session (a QoS 0 one is not)
    await gateway.app.broker.publish(`d/${device.id}/cmd`, 'selagi-pergi', { qos: 1 });
    await gateway.app.broker.publish(`d/${device.id}/cmd`, 'qos-0', { qos: 0 });
    expect(gateway.app.broker.metrics().queued_messages).toBe(1);
    await gateway.app.close();

    gateway = await gatewayOn(dataDir);
    const back = await connect(gateway.mqttPort, persistent);
    expect(back.connack.sessionPresent).toBe(true);
    expect(await until(() => back.got.length > 0)).toBe(true);
    expect(back.got).toEqual([`d/${device.id}/cmd selagi-pergi`]);
    // its subscription was restored with its session: a new command reaches it without subscribing again
    await gateway.app.broker.publish(`d/${device.id}/cmd`, 'sesudah', { qos: 1 });
    expect(await until(() => back.got.length === 2)).toBe(true);
    expect(back.got[1]).toBe(`d/${device.id}/cmd sesudah`);

    // the retained message, for a new subscriber after the restart
    const fresh = await connect(gateway.mqttPort, { ...login, clientId: unique('baru') });
    await fresh.client.subscribeAsync(`d/${device.id}/status`, { qos: 1 });
    expect(await until(() => fresh.got.length > 0)).toBe(true);
    expect(fresh.got).toEqual([`d/${device.id}/status hidup`]);
  });
});

describe('a console command to a device away with a persistent session', () => {
  const WAIT_MS = 2500;
  let gw: Running;
  let auth: AppAuth;
  beforeAll(async () => {
    gw = await startGateway({ MQTT_THREADS: '2' }, { commandTimeoutMs: WAIT_MS });
    const owner = await tenantWithApp(gw.url);
    auth = { tenant: owner.tenant, domain: owner.domain };
  });
  afterAll(async () => gw.stop());

  /** a generic device with a persistent session subscribed to its commands, then gone */
  async function awayDevice() {
    const device = await addDevice(gw.url, auth, 'mqtt');
    const opts = {
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
      clientId: unique('sesi'),
      clean: false,
    };
    const { client } = await connect(gw.mqttPort, opts);
    await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
    await client.endAsync();
    // this device's own session is away, waiting for its commands (the count of away sessions also moves when an
    // earlier test's client, ended without DISCONNECT, is taken out)
    expect(await until(() => gw.app.broker.awaits?.(`d/${device.id}/cmd`) === true)).toBe(true);
    return { device, opts };
  }
  const configure = (id: number, value: number) =>
    call(
      gw.url,
      commandsContract.configure,
      { id, sensor: 'hvac', configtype: 'config', param: 'setpoint', value },
      auth,
    );

  it('is delivered when the device reconnects within the time-out, and answered with its reply', async () => {
    const { device, opts } = await awayDevice();
    const queued = gw.app.broker.metrics().queued_messages ?? 0;
    const answer = configure(device.id, 23);
    // the command waits in the away session
    expect(await until(() => gw.app.broker.metrics().queued_messages === queued + 1)).toBe(true);
    const back = await connect(gw.mqttPort, opts, (client, topic, payload) => {
      const cmd = JSON.parse(payload.toString());
      if (topic === `d/${device.id}/cmd`)
        client.publish(`d/${device.id}/cmd/res`, JSON.stringify({ id: cmd.id, ok: true }), { qos: 1 });
    });
    const r = await answer;
    expect(r.body).toMatchObject({
      response_result: 0,
      data: { device_id: device.id, value: 23, reply: { ok: true } },
    });
    expect(back.connack.sessionPresent).toBe(true);
  });

  it('answers the time-out when the device does not return in time, and the queued copy is dropped', async () => {
    const { device, opts } = await awayDevice();
    const started = Date.now();
    const r = await configure(device.id, 19);
    expect(r.body).toEqual({ response_result: Result.DEVICE_TIMEOUT, message: T.deviceData.commandTimeout });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
    const back = await connect(gw.mqttPort, opts);
    expect(back.connack.sessionPresent).toBe(true);
    // what the session still held is sent right after CONNACK: 300 ms let a copy that was not dropped arrive
    await new Promise((r) => setTimeout(r, 300));
    expect(back.got).toEqual([]);
  });

  it('answers -30 at once for a device away without a persistent session', async () => {
    const device = await addDevice(gw.url, auth, 'mqtt');
    const { client } = await connect(gw.mqttPort, {
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
      clientId: unique('bersih'),
      clean: true,
    });
    await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
    await client.endAsync();
    // the broker takes the closed connection out (a clean session leaves no count to wait on)
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect((await configure(device.id, 1)).body).toEqual({
      response_result: Result.DEVICE_OFFLINE,
      message: T.deviceData.commandOffline,
    });
    // at once: not after the command time-out a device with a session waits for (a starved machine may take a while)
    expect(Date.now() - started).toBeLessThan(WAIT_MS);
  });
});
