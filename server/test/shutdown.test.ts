// Graceful shutdown: close() ends the liveness check first, then HTTP, socket.io, the broker (TCP and WebSocket), the
// bus and the database, releases the ports, and a second close() is harmless.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startGateway } from './harness.js';
import { accepts, tenantSession } from './fixtures.js';
import { openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

/** true when the port can be bound again */
const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

describe('graceful shutdown', () => {
  it('closes with live MQTT, MQTT-over-WebSocket and socket.io clients, releases the ports, and tolerates a second close', async () => {
    const gw = await startGateway({ LIVENESS_PORT: '0' });
    expect((await fetch(`http://127.0.0.1:${gw.livenessPort}/health`)).status).toBe(200);
    gw.app.broker.addAuthority({
      authenticate: (_c, u) => (u ? { key: `device:${u}` } : null),
      authorizePublish: () => true,
      authorizeSubscribe: () => true,
    });
    const httpPort = Number(new URL(gw.url).port);
    const t = await tenantSession(gw.url);
    const { socket } = await openSocket(gw.url, sessionAuth(t));
    const tcp = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, { username: 'a', reconnectPeriod: 0 });
    const ws = await mqtt.connectAsync(`${gw.url.replace('http', 'ws')}/mqtt`, { username: 'b', reconnectPeriod: 0 });
    const ended = Promise.all([
      new Promise((r) => socket!.once('disconnect', r)),
      new Promise<void>((r) => tcp.once('close', () => r())),
      new Promise<void>((r) => ws.once('close', () => r())),
    ]);

    const started = Date.now();
    const first = gw.app.close();
    const concurrent = gw.app.close();
    await expect(first).resolves.toBeUndefined();
    await expect(concurrent).resolves.toBeUndefined();
    await ended;
    expect(Date.now() - started).toBeLessThan(5000);

    expect(await accepts(gw.livenessPort!)).toBe(false);
    expect(await bindable(gw.livenessPort!)).toBe(true);
    expect(await accepts(httpPort)).toBe(false);
    expect(await accepts(gw.mqttPort)).toBe(false);
    expect(await bindable(httpPort)).toBe(true);
    expect(await bindable(gw.mqttPort)).toBe(true);
    expect(() => gw.app.bus.publish('after.close', 1)).not.toThrow();

    await expect(gw.app.close()).resolves.toBeUndefined();
    await gw.stop(); // the harness closes again, then removes the data directory
    tcp.end(true);
    ws.end(true);
  });

  it('closes an app that never listened', async () => {
    const gw = await startGateway();
    await gw.app.close();
    await expect(gw.app.close()).resolves.toBeUndefined();
    await gw.stop();
  });
});
