// MQTT devices behind HAProxy speaking the PROXY protocol (`send-proxy-v2`) to a real gateway with
// MQTT_PROXY_PROTOCOL=on and HAProxy's address in TRUST_PROXY: the sign-in throttles count each device by its own
// address, so a device left with an old password locks out only itself there, not every device behind the balancer.
// Devices connect to HAProxy from loopback addresses of their own, as from different sites.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MqttClient } from 'mqtt';
import { startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp, unique, until } from './fixtures.js';
import { hasHaproxy } from '../chaos/cluster.js';
import { haproxyBinary } from '../src/platform/testing/required.js';
import { freePort } from '../src/platform/bus/testing/nats-server.js';

const NOT_AUTHORIZED = 5;
const LIMIT = 3;

describe.skipIf(!hasHaproxy())('MQTT behind HAProxy with the PROXY protocol', () => {
  let gw: Running;
  let proxy: ChildProcess;
  let dir: string;
  let port: number;
  const open: MqttClient[] = [];

  beforeAll(async () => {
    gw = await startGateway({
      MQTT_AUTH_FAILURES_PER_MINUTE: String(LIMIT),
      MQTT_PROXY_PROTOCOL: 'on',
      TRUST_PROXY: '127.0.0.1',
    });
    port = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-proxy-'));
    const cfg = path.join(dir, 'haproxy.cfg');
    fs.writeFileSync(
      cfg,
      [
        'defaults',
        '  mode tcp',
        '  timeout connect 2s',
        '  timeout client 30s',
        '  timeout server 30s',
        'frontend mqtt',
        `  bind 127.0.0.1:${port}`,
        '  default_backend gateway',
        'backend gateway',
        // HAProxy connects from 127.0.0.1 (the address TRUST_PROXY names) and opens with a PROXY v2 header
        `  server gw 127.0.0.1:${gw.mqttPort} send-proxy-v2 source 127.0.0.1`,
        '',
      ].join('\n'),
    );
    proxy = spawn(haproxyBinary()!, ['-f', cfg], { stdio: 'ignore' });
    expect(
      await until(
        () =>
          new Promise<boolean>((r) => {
            const c = net.connect(port, '127.0.0.1', () => (c.destroy(), r(true))).on('error', () => r(false));
          }),
        5000,
      ),
    ).toBe(true);
  });
  afterAll(async () => {
    open.forEach((c) => c.end(true));
    proxy?.kill('SIGKILL');
    await gw?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** one CONNECT through HAProxy from a chosen loopback address: 0 once signed in, else the CONNACK code */
  const from = (localAddress: string, username: string, password: string) =>
    new Promise<number | string>((resolve) => {
      const client = new MqttClient(() => net.connect({ host: '127.0.0.1', port, localAddress }), {
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 9000,
        clientId: unique('p'),
        username,
        password,
      });
      client.once('connect', () => (open.push(client), resolve(0)));
      client.once('error', (err) => (client.end(true), resolve((err as { code?: number }).code ?? err.message)));
      client.once('close', () => resolve('closed'));
    });

  it('counts a device by the address HAProxy names: failing from one site locks out only that site', async () => {
    const auth = await tenantWithApp(gw.url);
    const d = await addDevice(gw.url, auth, 'mqtt');
    const [username, password] = [d.store_mqtt_username as string, d.store_mqtt_password as string];
    for (let i = 0; i < LIMIT; i++) expect(await from('127.0.0.2', username, `lama-${i}`)).toBe(NOT_AUTHORIZED);
    expect(await from('127.0.0.2', username, password)).toBe(NOT_AUTHORIZED);
    // the same device from another site, through the same HAProxy: not refused
    expect(await from('127.0.0.3', username, password)).toBe(0);
    const t = gw.app.broker.metrics();
    expect(t.throttled_connects).toBeGreaterThanOrEqual(1);
  });
});
