// In-process ingest cost: the pipeline alone (adapter → series → writer → commit, rollups), driven by direct ingest()
// calls with the benchmark's 3-point messages across 5,000 devices. Reports CPU µs per message and points/s of CPU,
// a figure that holds even when the machine is busy (wall-clock throughput does not).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { createTelemetryPipeline } from '../../src/modules/telemetry/ingest/pipeline.js';
import { createMemoryBus } from '../../src/platform/bus/memory.js';
import { createLogger } from '../../src/platform/log.js';
import { findUp } from '../../src/platform/db/sqlite.js';
import type { MqttIdentity } from '../../src/platform/mqtt/types.js';
import type { Bench } from '../run.js';

/** utime + stime of a /proc `stat` file in µs (clock ticks: USER_HZ = 100 on Linux); NaN when it cannot be read */
function statCpuUs(file: string): number {
  try {
    const fields = fs.readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** CPU time of the main thread alone (the event loop), from Linux's per-thread accounting; NaN elsewhere */
export const mainThreadCpuUs = (): number => statCpuUs(`/proc/self/task/${process.pid}/stat`);

/** CPU time of each of this process' threads by thread id, from /proc (empty elsewhere; a thread that ended is left out) */
export function threadsCpuUs(): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    // not Linux
  }
  for (const tid of tids) {
    const us = statCpuUs(`/proc/self/task/${tid}/stat`);
    if (!Number.isNaN(us)) out.set(Number(tid), us);
  }
  return out;
}

/** CPU time of a whole process (every thread), from /proc; NaN elsewhere */
export const processCpuUs = (pid: number | undefined): number => statCpuUs(`/proc/${pid}/stat`);

export async function ingestMicro(
  opts: { devices?: number; messages?: number; viaBus?: boolean; writerThread?: boolean } = {},
) {
  const devices = opts.devices ?? 5000;
  const messages = opts.messages ?? 200_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-micro-'));
  const sqlite = new Database(path.join(dir, 'micro.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  migrate(drizzle(sqlite), { migrationsFolder: findUp('drizzle', import.meta.url) });
  const log = createLogger('error');
  const bus = opts.viaBus === false ? undefined : createMemoryBus(log);
  const contexts = new Map<string, { deviceId: number; appId: number; category: number }>();
  const pipeline = createTelemetryPipeline({
    sqlite,
    log,
    bus,
    resolver: { resolveDevice: (id) => contexts.get(id.key) ?? null },
    writerThread: opts.writerThread,
  });
  const identities: MqttIdentity[] = [];
  const topics: string[] = [];
  for (let i = 0; i < devices; i++) {
    identities.push({ key: `bench:${i}`, appId: 1 });
    contexts.set(`bench:${i}`, { deviceId: i, appId: 1, category: 8 });
    topics.push(`d/${i}/data`);
  }
  const payloads = Array.from({ length: 100 }, (_, k) =>
    Buffer.from(
      `{"env":{"data":{"temperature":${(20 + k / 10).toFixed(1)},"humidity":${40 + (k % 7)}}},"bench":{"data":{"sent_at":${Date.now()}}}}`,
    ),
  );
  // warm up: create every series
  for (let i = 0; i < devices; i++) pipeline.ingest(identities[i], topics[i], payloads[0], 0);
  await pipeline.flush();

  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuUs();
  const t0 = performance.now();
  let outcome = '';
  for (let n = 0; n < messages; n++) {
    const i = n % devices;
    // the bench's resolver answers at once: the outcome is never a promise here
    outcome = pipeline.ingest(identities[i], topics[i], payloads[n % 100], 0) as string;
    // let the writer's timers run like the event loop would between socket reads
    if (n % 2000 === 1999) {
      await new Promise((r) => setImmediate(r));
      // the writer thread may lag this tight loop: wait for it (bounded) rather than shed, so every point is stored
      for (let w = 0; w < 5000 && (pipeline.metrics() as { queued_points: number }).queued_points > 50_000; w++)
        await new Promise((r) => setTimeout(r, 1));
    }
  }
  await pipeline.flush();
  const cpu = process.cpuUsage(cpu0);
  const mainUs = mainThreadCpuUs() - main0;
  const wallMs = performance.now() - t0;
  const m = pipeline.metrics() as Record<string, number>;
  await pipeline.close();
  sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const cpuUs = cpu.user + cpu.system;
  return {
    messages,
    last_outcome: outcome,
    stored_points: m.stored_points,
    shed_points: m.shed_qos0_points,
    cpu_us_per_message: Math.round((cpuUs / messages) * 10) / 10,
    main_thread_cpu_us_per_message: Math.round((mainUs / messages) * 10) / 10, // NaN off Linux
    writer_thread: m.writer_thread ? 'on' : 'off',
    points_per_cpu_second: Math.round((messages * 3) / (cpuUs / 1e6)),
    wall_points_per_s: Math.round((messages * 3) / (wallMs / 1000)),
  };
}

export const ingestCpuBench: Bench = {
  name: 'ingest_cpu',
  run: () => ingestMicro(),
};

if (process.argv[1]?.endsWith('micro.ts')) {
  ingestMicro({ viaBus: !process.argv.includes('--no-bus'), writerThread: !process.argv.includes('--inline') }).then(
    (r) => console.log(JSON.stringify(r)),
  );
}
