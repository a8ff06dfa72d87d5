// What the `stored.*` fan-out costs (docs/performance.md "Capacity on paper"): publishes committed batches of the
// deployment's own series (a device's series, up to 3 points a batch, as a bench message; run deploy/smoke.ts first so
// there are some) on its NATS under its deployment's subjects at a fixed rate, and reports the CPU time per message of
// a receiving gateway process and of nats-server (from /proc), less their idle CPU, counted until the gateway is idle
// again. Every gateway receives every other gateway's commits this way.
//   node --import tsx deploy/fanout-cost.ts <gateway pid> <nats-server pid> [rate/s=5000] [seconds=20]
// (DATABASE_URL: the deployment's database, for its id; NATS_URL as the gateways have it)
import fs from 'node:fs';
import { execSync } from 'node:child_process';
import pg from 'pg';
import { connect } from 'nats';
import { deploymentPrefix } from '../server/src/platform/bus/deployment.js';

const [gatewayPid, natsPid, rate = 5000, seconds = 20] = process.argv.slice(2).map(Number);
const hz = Number(execSync('getconf CLK_TCK').toString().trim());
/** user + system CPU of a process, µs */
const cpuUs = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / hz;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
await db.connect();
const id = (await db.query('SELECT id FROM deployment LIMIT 1')).rows[0].id as string;
const series = (await db.query('SELECT id, app_id, device_id FROM telemetry_series ORDER BY id LIMIT 3000')).rows;
await db.end();
const byDevice = new Map<string, { appId: number; deviceId: number; ids: number[] }>();
for (const r of series) {
  const d = byDevice.get(r.device_id) ?? { appId: Number(r.app_id), deviceId: Number(r.device_id), ids: [] };
  if (d.ids.length < 3) d.ids.push(Number(r.id));
  byDevice.set(r.device_id, d);
}
const devices = [...byDevice.values()];
if (!devices.length) throw new Error('no stored series: run deploy/smoke.ts against the deployment first');
const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
const enc = new TextEncoder();

/** the gateway's cores over `ms` */
const coresOver = async (ms: number) => {
  const c = cpuUs(gatewayPid!);
  await sleep(ms);
  return (cpuUs(gatewayPid!) - c) / ms / 1000;
};
// idle first (a previous run's backlog drained), at most 30 s
for (let i = 0; i < 30 && (await coresOver(1000)) > 0.03; i++);
const idleS = 5;
const g0 = cpuUs(gatewayPid!);
const n0 = cpuUs(natsPid!);
await sleep(idleS * 1000);
const gIdle = (cpuUs(gatewayPid!) - g0) / idleS;
const nIdle = (cpuUs(natsPid!) - n0) / idleS;

const g1 = cpuUs(gatewayPid!);
const n1 = cpuUs(natsPid!);
const p1 = process.cpuUsage();
const t1 = Date.now();
let sent = 0;
while (Date.now() - t1 < seconds! * 1000) {
  const due = Math.floor(((Date.now() - t1) / 1000) * rate!);
  for (; sent < due; sent++) {
    const d = devices[sent % devices.length]!;
    const ts = Date.now();
    const batch = {
      appId: d.appId,
      deviceId: d.deviceId,
      receivedAt: ts,
      committedAt: ts,
      points: d.ids.map((seriesId, i) => ({ seriesId, ts, num: 230.5 + i, text: null })),
      states: [],
    };
    nc.publish(
      `${deploymentPrefix(id)}stored.${d.appId}.${d.deviceId}`,
      enc.encode(JSON.stringify({ origin: 'probe', batch })),
    );
  }
  await sleep(5);
}
await nc.flush();
// until the gateway has worked through what it received (at most 30 s)
for (let i = 0; i < 30 && (await coresOver(1000)) > gIdle / 1e6 + 0.03; i++);
const wall = (Date.now() - t1) / 1000;
const p = process.cpuUsage(p1);
const gUs = cpuUs(gatewayPid!) - g1 - gIdle * wall;
const nUs = cpuUs(natsPid!) - n1 - nIdle * wall;
console.log(
  JSON.stringify({
    messages: sent,
    devices: devices.length,
    rate_per_s: Math.round(sent / seconds!),
    gateway_idle_cores: +(gIdle / 1e6).toFixed(3),
    gateway_receive_cpu_us_per_message: +(gUs / sent).toFixed(2),
    nats_cpu_us_per_message_in: +(nUs / sent).toFixed(2),
    publisher_cpu_us_per_message: +((p.user + p.system) / sent).toFixed(2),
  }),
);
await nc.close();
