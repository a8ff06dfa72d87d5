// What the `stored.*` fan-out costs (docs/performance.md "Capacity on paper"): publishes synthetic committed batches
// (3 points each, as a device message of the bench) on a running deployment's NATS under its deployment's subjects at a
// fixed rate, and reports the CPU time per message of a receiving gateway process and of nats-server (from /proc),
// against their idle CPU measured just before. Every gateway receives every other gateway's commits this way.
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
await db.end();
const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
const enc = new TextEncoder();

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
    const device = 1_000_000 + (sent % 10_000);
    const ts = Date.now();
    const batch = {
      appId: 1_000_000,
      deviceId: device,
      receivedAt: ts,
      committedAt: ts,
      points: [0, 1, 2].map((i) => ({ seriesId: 10_000_000 + device * 3 + i, ts, num: 230.5 + i, text: null })),
      states: [],
    };
    nc.publish(
      `${deploymentPrefix(id)}stored.1000000.${device}`,
      enc.encode(JSON.stringify({ origin: 'probe', batch })),
    );
  }
  await sleep(5);
}
await nc.flush();
await sleep(1000);
const wall = (Date.now() - t1) / 1000;
const p = process.cpuUsage(p1);
const gUs = cpuUs(gatewayPid!) - g1 - gIdle * wall;
const nUs = cpuUs(natsPid!) - n1 - nIdle * wall;
console.log(
  JSON.stringify({
    messages: sent,
    rate_per_s: Math.round(sent / seconds!),
    gateway_idle_cores: +(gIdle / 1e6).toFixed(3),
    gateway_receive_cpu_us_per_message: +(gUs / sent).toFixed(2),
    nats_cpu_us_per_message_in: +(nUs / sent).toFixed(2),
    publisher_cpu_us_per_message: +((p.user + p.system) / sent).toFixed(2),
  }),
);
await nc.close();
