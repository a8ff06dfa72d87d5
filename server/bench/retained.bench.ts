// `npm run bench -- retained`: one device floods the gateway with retained messages, each on a new subtopic of its own
// (d/<id>/r/<n>), as the hostile-client audit did; the gateway is a process of its own (server/src/main.ts), so its
// resident memory is what the flood costs it, broker thread included. Then a device of another tenant publishes one
// retained message: it must be kept (delivered to a late subscriber, and counted in the store). Figures: RSS before and
// after, bytes sent, what the store kept and refused, and the other tenant's message.
// Knobs: BENCH_RETAINED_MESSAGES (100000), BENCH_RETAINED_PAYLOAD_BYTES (1024).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import Database from 'better-sqlite3';
import { addMqttDevices, spawnGateway, stopGateway } from '../test/gateway-process.kit.js';
import { connectRaw } from '../src/platform/mqtt/testing/raw-client.js';
import { tenantWithApp } from '../test/fixtures.js';
import type { Bench } from './run.js';

const MESSAGES = Number(process.env.BENCH_RETAINED_MESSAGES ?? 100_000);
const PAYLOAD = Number(process.env.BENCH_RETAINED_PAYLOAD_BYTES ?? 1024);
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** a raw MQTT 3.1.1 connection that writes `n` retained QoS 0 publishes as fast as the socket takes them */
async function flood(port: number, d: { id: number; username: string; password: string }, n: number) {
  const c = await connectRaw(port, {
    clientId: `banjir-${d.id}`,
    username: d.username,
    password: d.password,
    keepalive: 120,
  });
  const s = c.socket;
  let pingresp = false;
  c.onPacket((p) => void (p.cmd === 'pingresp' && (pingresp = true)));
  const payload = Buffer.alloc(PAYLOAD, 0x61);
  let sent = 0;
  for (let i = 0; i < n; i++) {
    const packet = mqttPacket.generate({
      cmd: 'publish',
      topic: `d/${d.id}/r/${i}`,
      payload,
      qos: 0,
      retain: true,
      dup: false,
    });
    sent += packet.length;
    if (!s.write(packet)) await new Promise((r) => s.once('drain', r));
  }
  // everything before a PINGREQ has been read by the broker once its PINGRESP comes
  s.write(mqttPacket.generate({ cmd: 'pingreq' }));
  for (let i = 0; i < 2400 && !pingresp; i++) await new Promise((r) => setTimeout(r, 25));
  s.destroy();
  return sent;
}

export const retainedBench: Bench = {
  name: 'retained',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-retained-bench-'));
    const gw = await spawnGateway(dir, { LOG_LEVEL: 'error', REGISTER_THROTTLE_ATTEMPTS: '1000' });
    try {
      const a = await tenantWithApp(gw.url);
      const b = await tenantWithApp(gw.url);
      const [flooder] = await addMqttDevices(gw.url, { tenant: a.tenant, domain: a.domain }, 1);
      const [other] = await addMqttDevices(gw.url, { tenant: b.tenant, domain: b.domain }, 1);
      await new Promise((r) => setTimeout(r, 2000));
      const rssBefore = gw.rss();
      const started = performance.now();
      const sent = await flood(gw.mqttPort, flooder!, MESSAGES);
      const floodMs = performance.now() - started;
      await new Promise((r) => setTimeout(r, 3000));
      const rssAfter = gw.rss();
      // another tenant's retained message, then a late subscriber of that device
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, {
        username: other!.username,
        password: other!.password,
        reconnectPeriod: 0,
      });
      await c.publishAsync(`d/${other!.id}/status`, 'aktif', { qos: 1, retain: true });
      c.end(true);
      const late = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, {
        username: other!.username,
        password: other!.password,
        reconnectPeriod: 0,
      });
      const got: string[] = [];
      late.on('message', (_t, p, packet) => packet.retain && got.push(String(p)));
      await late.subscribeAsync(`d/${other!.id}/status`, { qos: 1 });
      for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      late.end(true);
      await stopGateway(gw);
      // what the store kept, read from the stopped gateway's database
      const db = new Database(path.join(dir, 'sentra.db'), { readonly: true });
      const kept = (holder: string) =>
        db.prepare('SELECT count(*) FROM mqtt_retained WHERE holder = ?').pluck().get(holder) as number;
      const flooderKept = kept(`device:${flooder!.id}`);
      const otherKept = kept(`device:${other!.id}`);
      db.close();
      return {
        retained_publishes: MESSAGES,
        payload_bytes: PAYLOAD,
        sent_mb: mb(sent),
        flood_seconds: Math.round(floodMs / 100) / 10,
        gateway_rss_before_mb: mb(rssBefore),
        gateway_rss_after_mb: mb(rssAfter),
        gateway_rss_growth_mb: mb(rssAfter - rssBefore),
        flooder_retained_kept: flooderKept,
        flooder_retained_refused: MESSAGES - flooderKept,
        other_tenant_retained_delivered: got.includes('aktif') ? 'yes' : 'no',
        other_tenant_retained_kept: otherKept,
      };
    } finally {
      await stopGateway(gw);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}.seal.key`, { force: true });
    }
  },
};
