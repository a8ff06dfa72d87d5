// MQTT caps (issue 23 item 6): a client that stops reading is closed before the gateway's memory grows by 100 MB (over
// TCP and over WebSocket), counted in the broker's metrics; client ids and topics mosquitto would refuse are refused.
import net from 'node:net';
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Running } from './harness.js';
import { mqttAttempt, unique, until } from './fixtures.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway({ MQTT_MAX_OUTBOUND_BYTES: String(2 * 1024 * 1024) });
  gw.app.broker.addAuthority({
    authenticate: (_c, u) => (u ? { key: `lim:${u}` } : null),
    authorizePublish: () => true,
    authorizeSubscribe: () => true,
  });
});
afterAll(async () => gw?.stop());

const connectPacket = (username: string) =>
  mqttPacket.generate({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean: true,
    clientId: unique('slow'),
    keepalive: 600,
    username,
  });
const subscribePacket = (topic: string) =>
  mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic, qos: 0 }] });

/** publishes 64 KiB messages on `topic` until `closed()` or 300 MB were sent; answers the largest RSS growth seen */
async function publishUntilClosed(topic: string, closed: () => boolean): Promise<number> {
  const payload = Buffer.alloc(64 * 1024, 0x61);
  const before = process.memoryUsage().rss;
  let grown = 0;
  for (let i = 0; i < 4800 && !closed(); i++) {
    await gw.app.broker.publish(topic, payload);
    if (i % 16 === 0) grown = Math.max(grown, process.memoryUsage().rss - before);
  }
  return Math.max(grown, process.memoryUsage().rss - before);
}

describe('a subscriber that stops reading', () => {
  it('over TCP is disconnected and counted before the gateway grows by 100 MB', async () => {
    const topic = `slow/${unique('t')}`;
    const socket = net.connect({ host: '127.0.0.1', port: gw.mqttPort });
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    await new Promise<void>((r) => socket.once('connect', () => r()));
    // read CONNACK (4 bytes) and SUBACK (5 bytes), then never read again
    let heard = 0;
    socket.on('data', (b) => (heard += b.length));
    socket.write(connectPacket('pelan'));
    socket.write(subscribePacket(topic));
    expect(await until(() => heard >= 9)).toBe(true);
    socket.pause();
    const before = gw.app.broker.metrics().outbound_overflows;
    const grown = await publishUntilClosed(topic, () => closed || gw.app.broker.metrics().outbound_overflows > before);
    expect(gw.app.broker.metrics().outbound_overflows).toBe(before + 1);
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    socket.destroy();
  }, 120_000);
  it('over WebSocket is disconnected and counted before the gateway grows by 100 MB', async () => {
    const topic = `slow/${unique('w')}`;
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/mqtt`, 'mqtt');
    let closed = false;
    let got = 0;
    ws.on('close', () => (closed = true));
    ws.on('error', () => {});
    ws.on('message', (m: Buffer) => (got += m.length));
    await new Promise<void>((r) => ws.once('open', () => r()));
    const received = async (bytes: number) => {
      await until(() => got >= bytes);
      expect(got).toBe(bytes);
    };
    ws.send(connectPacket('pelan-ws'));
    await received(4); // CONNACK
    ws.send(subscribePacket(topic));
    await received(9); // SUBACK
    // from now on the socket is never read
    (ws as unknown as { _socket: net.Socket })._socket.pause();
    const before = gw.app.broker.metrics().outbound_overflows;
    const grown = await publishUntilClosed(topic, () => closed || gw.app.broker.metrics().outbound_overflows > before);
    expect(gw.app.broker.metrics().outbound_overflows).toBe(before + 1);
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    ws.terminate();
  }, 120_000);
});

describe('names mosquitto refuses', () => {
  it('refuses a 65,535-byte client id with CONNACK 2, and takes a 128-byte one', async () => {
    expect((await mqttAttempt(gw.mqttPort, { username: 'panjang', clientId: 'x'.repeat(65535) })).code).toBe(2);
    const ok = await mqttAttempt(gw.mqttPort, { username: 'pas', clientId: 'y'.repeat(128) });
    expect(ok.client).toBeDefined();
    ok.client?.end(true);
  });

  it('closes a client publishing on a topic with U+0000; refuses a filter with a control character and stays up', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, { username: 'nol', reconnectPeriod: 0 });
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    client.publish('d/1/\u0000data', 'x', { qos: 1 });
    await closed;
    client.end(true);
    const sub = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, { username: 'sub', reconnectPeriod: 0 });
    await expect(sub.subscribeAsync('d/\u0007/x')).rejects.toThrow(/Subscribe error/);
    expect(sub.connected).toBe(true);
    sub.end(true);
  });
});
