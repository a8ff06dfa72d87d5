// The retained store's shares against the real gateway, with real MQTT.js 3.1.1 and 5 clients of registered devices
// (persistence/session-store.ts): a device keeps at most its share of retained messages, the rest of a flood dropped
// and counted (MQTT 5: PUBACK 0x97 Quota exceeded); a tenant's devices together at most the tenant's; another tenant's
// retained message is kept, delivered to a late subscriber from the broker thread's copy, and still there after a
// restart, with the shares counted again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp } from './fixtures.js';
import { eventually } from '../src/platform/testing/until.js';

const DEVICE_SHARE = 5;
const TENANT_SHARE = 8;
const env = (dir: string) => ({
  DATA_DIR: dir,
  MQTT_RETAINED_PER_DEVICE: String(DEVICE_SHARE),
  MQTT_RETAINED_PER_TENANT: String(TENANT_SHARE),
});

let dir: string;
let gw: Running;
const clients: MqttClient[] = [];
type Device = { id: number; username: string; password: string };
const devices: Record<'a1' | 'a2' | 'b1', Device> = {} as never;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-retained-'));
  gw = await startGateway(env(dir));
  const a = await tenantWithApp(gw.url);
  const b = await tenantWithApp(gw.url);
  const add = async (t: typeof a) => {
    const d = await addDevice(gw.url, { tenant: t.tenant, domain: t.domain }, 'mqtt');
    return { id: d.id, username: d.store_mqtt_username, password: d.store_mqtt_password } as Device;
  };
  devices.a1 = await add(a);
  devices.a2 = await add(a);
  devices.b1 = await add(b);
});
afterEach(() => void clients.splice(0).forEach((c) => c.end(true)));
afterAll(async () => {
  await gw?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}.seal.key`, { force: true });
});

async function connect(d: Device, opts: IClientOptions = {}) {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, {
    username: d.username,
    password: d.password,
    reconnectPeriod: 0,
    ...opts,
  });
  clients.push(c);
  return c;
}
/** what a fresh subscriber to `filter` gets from the retained store (the broker thread's copy) */
async function retainedOf(d: Device, filter: string, expected: number) {
  const c = await connect(d);
  const got: string[] = [];
  c.on('message', (topic, payload, packet) => packet.retain && got.push(`${topic}=${payload}`));
  await c.subscribeAsync(filter, { qos: 1 });
  await eventually(() => expect(got).toHaveLength(expected));
  // nothing more arrives after the expected ones (the subscription's retained messages come at once)
  await c.publishAsync(`d/${d.id}/data`, '{}', { qos: 1 });
  return got.sort();
}

describe('shares of the retained store', () => {
  it('keeps a 3.1.1 device to its share: every publish of a flood acknowledged, the ones past it dropped and counted', async () => {
    const a1 = devices.a1;
    const before = gw.app.broker.metrics();
    const c = await connect(a1, { protocolVersion: 4 });
    for (let i = 0; i < 20; i++) await c.publishAsync(`d/${a1.id}/r/${i}`, `nilai-${i}`, { qos: 1, retain: true });
    const after = gw.app.broker.metrics();
    expect(after.retained_refused_device! - (before.retained_refused_device ?? 0)).toBe(20 - DEVICE_SHARE);
    const kept = await retainedOf(a1, `d/${a1.id}/r/#`, DEVICE_SHARE);
    expect(kept).toEqual(Array.from({ length: DEVICE_SHARE }, (_, i) => `d/${a1.id}/r/${i}=nilai-${i}`).sort());
    // replacing one of its own is no growth: kept
    await c.publishAsync(`d/${a1.id}/r/0`, 'baru', { qos: 1, retain: true });
    expect(await retainedOf(a1, `d/${a1.id}/r/0`, 1)).toEqual([`d/${a1.id}/r/0=baru`]);
  });

  it('sends a retained will past its share live, not retained', async () => {
    const a1 = devices.a1;
    const watcher = await connect(a1, { clientId: 'pengamat-a1' });
    const live: Array<[string, boolean]> = [];
    watcher.on('message', (topic, payload, packet) => live.push([String(payload), packet.retain]));
    await watcher.subscribeAsync(`d/${a1.id}/r/will`, { qos: 1 });
    const c = await connect(a1, {
      clientId: 'dengan-will',
      will: { topic: `d/${a1.id}/r/will`, payload: Buffer.from('Offline'), qos: 1, retain: true },
    });
    c.stream.destroy(); // gone without DISCONNECT: the will is published
    await eventually(() => expect(live).toEqual([['Offline', false]]));
    expect(await retainedOf(a1, `d/${a1.id}/r/#`, DEVICE_SHARE)).not.toContain(`d/${a1.id}/r/will=Offline`);
  });

  it("tells an MQTT 5 device past its tenant's share: PUBACK 0x97 Quota exceeded", async () => {
    const a2 = devices.a2;
    const c = await connect(a2, { protocolVersion: 5 });
    // the tenant holds the first device's five: three more fit
    for (let i = 0; i < TENANT_SHARE - DEVICE_SHARE; i++)
      await c.publishAsync(`d/${a2.id}/r/${i}`, 'x', { qos: 1, retain: true });
    const refused = await c.publishAsync(`d/${a2.id}/r/lagi`, 'x', { qos: 1, retain: true }).then(
      () => 0,
      (err: { code?: number }) => err.code ?? -1,
    );
    expect(refused).toBe(0x97);
    expect(gw.app.broker.metrics().retained_refused_tenant).toBeGreaterThanOrEqual(1);
    // an empty retained publish deletes one and makes room
    await c.publishAsync(`d/${a2.id}/r/0`, '', { qos: 1, retain: true });
    await c.publishAsync(`d/${a2.id}/r/lagi`, 'x', { qos: 1, retain: true });
  });

  it("keeps another tenant's retained message through the flood and a restart; the shares are counted again", async () => {
    const b1 = devices.b1;
    const c = await connect(b1, { protocolVersion: 4 });
    await c.publishAsync(`d/${b1.id}/status`, 'aktif', { qos: 1, retain: true });
    expect(await retainedOf(b1, `d/${b1.id}/status`, 1)).toEqual([`d/${b1.id}/status=aktif`]);
    clients.splice(0).forEach((x) => x.end(true));
    await gw.stop();
    gw = await startGateway(env(dir));
    expect(await retainedOf(b1, `d/${b1.id}/status`, 1)).toEqual([`d/${b1.id}/status=aktif`]);
    // the first tenant is still at its share: a new topic is refused
    const before = gw.app.broker.metrics().retained_refused ?? 0;
    const a1 = await connect(devices.a1, { protocolVersion: 4 });
    await a1.publishAsync(`d/${devices.a1.id}/r/baru`, 'x', { qos: 1, retain: true });
    expect(gw.app.broker.metrics().retained_refused).toBe(before + 1);
    expect(gw.app.broker.metrics().retained_messages).toBe(TENANT_SHARE + 1);
  });
});
