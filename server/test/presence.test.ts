// Presence from every disconnect path (issue 27), with real MQTT.js clients over TCP and WebSocket: a device whose
// connection ends — by DISCONNECT, with its will, taken over by a second client with the same client id, a dropped TCP
// connection, a dropped WebSocket without a close frame, or silence past its keep-alive — is offline within the
// documented time (docs/decisions/presence-lora.md), and its will does not bring it back "online".
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { devicesContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp, unique, until } from './fixtures.js';

/** what the documentation promises for a connection that ends (closed, dropped or taken over) */
const OFFLINE_WITHIN_MS = 8000;

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

const online = async (id: number) =>
  (await call(gw.url, devicesContract.get, { id }, auth)).body.data.online as boolean;
const goesOnline = (id: number) => until(() => online(id));
const goesOffline = (id: number, ms = OFFLINE_WITHIN_MS) => until(async () => !(await online(id)), ms);
/** whether `n` wills of the device were handled: the wills below are shapes its family refuses, and the pipeline counts
 * each refusal, so the count is the positive signal that a will came through (and could have changed presence) */
const willsHandled = (id: number, n: number) => until(() => (gw.app.telemetry.rejectsOf(id)?.count ?? 0) >= n);

async function device() {
  const d = await addDevice(gw.url, auth, 'mqtt');
  return { id: d.id, username: d.store_mqtt_username as string, password: d.store_mqtt_password as string };
}

function connect(url: string, opts: IClientOptions): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const c = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 3000, clientId: unique('c'), ...opts });
    open.push(c);
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
}
const overTcp = (opts: IClientOptions) => connect(`mqtt://127.0.0.1:${gw.mqttPort}`, opts);
const wsUrl = () => `${gw.url.replace(/^http/, 'ws')}/mqtt`;
const closed = (c: MqttClient) => new Promise<void>((r) => (c.disconnected ? r() : c.once('close', () => r())));

describe('presence ends offline on every disconnect path', () => {
  it('a device that sends DISCONNECT is offline at once', async () => {
    const d = await device();
    const c = await overTcp(d);
    expect(await goesOnline(d.id)).toBe(true);
    await c.endAsync();
    expect(await goesOffline(d.id, 3000)).toBe(true);
  });

  it('a dropped TCP connection (no DISCONNECT) publishes the will and leaves the device offline', async () => {
    const d = await device();
    // a second connection of the same device hears the will
    const watcher = await overTcp(d);
    const wills: string[] = [];
    watcher.on('message', (_t, p) => wills.push(p.toString()));
    await watcher.subscribeAsync(`d/${d.id}/will`);
    const c = await overTcp({
      ...d,
      will: { topic: `d/${d.id}/will`, payload: Buffer.from('pergi'), qos: 0, retain: false },
    });
    expect(await goesOnline(d.id)).toBe(true);
    c.stream.destroy();
    expect(await until(() => wills.length > 0)).toBe(true);
    expect(wills).toEqual(['pergi']);
    // still online through the watcher; offline once that one goes too
    expect(await online(d.id)).toBe(true);
    watcher.stream.destroy();
    expect(await goesOffline(d.id)).toBe(true);
  });

  it('a will published after the last connection ended does not bring the device back online', async () => {
    const d = await device();
    const c = await overTcp({
      ...d,
      will: { topic: `d/${d.id}/data`, payload: Buffer.from('{"status":"gone"}'), qos: 1, retain: false },
    });
    expect(await goesOnline(d.id)).toBe(true);
    c.stream.destroy();
    expect(await goesOffline(d.id)).toBe(true);
    // the will is handled after the disconnect (its topic is authorised first): it used to mark the device online again.
    // Its payload is not data the device family knows, so the pipeline counts it as refused: that count says it came.
    expect(await willsHandled(d.id, 1)).toBe(true);
    expect(await online(d.id)).toBe(false);
  });

  it('a kicked connection (a second client with the same client id takes over) leaves the device online through the new one, and offline when that one drops', async () => {
    const d = await device();
    const clientId = unique('same');
    const first = await overTcp({
      ...d,
      clientId,
      will: { topic: `d/${d.id}/data`, payload: Buffer.from('{"w":1}'), qos: 0, retain: false },
    });
    expect(await goesOnline(d.id)).toBe(true);
    const kicked = closed(first);
    const second = await overTcp({
      ...d,
      clientId,
      will: { topic: `d/${d.id}/data`, payload: Buffer.from('{"w":2}'), qos: 0, retain: false },
    });
    await kicked;
    // the kicked connection's will is the last thing it does: once handled, its end has not taken the device offline
    expect(await willsHandled(d.id, 1)).toBe(true);
    expect(await online(d.id)).toBe(true);
    second.stream.destroy();
    expect(await goesOffline(d.id)).toBe(true);
    // and the second's will, handled after its end, does not bring it back
    expect(await willsHandled(d.id, 2)).toBe(true);
    expect(await online(d.id)).toBe(false);
  });

  it('a dropped MQTT-over-WebSocket connection (no DISCONNECT, no close frame) is offline within 8 s', async () => {
    const d = await device();
    let socket: WebSocket | undefined;
    await connect(wsUrl(), {
      ...d,
      createWebsocket: (url: string, protocols: string[]) => (socket = new WebSocket(url, protocols)),
    } as IClientOptions);
    expect(await goesOnline(d.id)).toBe(true);
    socket!.terminate();
    expect(await goesOffline(d.id)).toBe(true);
  });

  it('a WebSocket client that sends DISCONNECT is offline', async () => {
    const d = await device();
    const c = await connect(wsUrl(), d);
    expect(await goesOnline(d.id)).toBe(true);
    await c.endAsync();
    expect(await goesOffline(d.id, 3000)).toBe(true);
  });

  it('a silent connection (open socket, no PINGREQ) is offline after 1.5 × its keep-alive', async () => {
    const d = await device();
    // a device that hangs: CONNECT with a 1 s keep-alive, then nothing, the socket left open
    const { default: packet } = await import('mqtt-packet');
    const sock = net.connect({ host: '127.0.0.1', port: gw.mqttPort });
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(
      packet.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: unique('hang'),
        keepalive: 1,
        username: d.username,
        password: Buffer.from(d.password),
      }),
    );
    try {
      expect(await goesOnline(d.id)).toBe(true);
      const started = Date.now();
      expect(await goesOffline(d.id, 4000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      sock.destroy();
    }
  });
});
