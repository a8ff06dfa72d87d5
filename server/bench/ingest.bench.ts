// Ingest benchmark (docs/conventions.md "Performance targets"): a separate process holds one MQTT connection per device
// and publishes 3-point messages at a controlled rate into the real gateway (broker → adapters → bus → batching writer
// → SQLite). Reports stored points/s, publish→stored latency (send time embedded in the payload, measured when its
// batch commits), RSS per idle connection, and latest-N / one-day range reads on a table seeded with up to 10 million
// points.
// Over 500 lines: one benchmark, its setup, phases and figures read top to bottom as the report prints them.
//
// The main figures are the served path (docs/decisions/bench.md): the devices are registered through the REST calls,
// each signs in with its own credentials and publishes on its own d/<id>/data, through the gateway `npm run serve`
// runs. Then: the capacity (step search: the highest offered rate whose p99 publish → stored ≤ 100 ms and that loses
// nothing), the goodput at twice that with a LATEST card read over HTTP meanwhile, and the same ingest with 1,000
// active rules (issue 25) with publish → task pushed over socket.io. BENCH_AUTHORITY=1 adds the former bench-only
// broker authority's figures (no sign-in, no device resolution), labelled `authority_`.
//
// Knobs (defaults keep the whole bench near 5 minutes on an idle 2-core machine):
//   BENCH_DEVICES (5000), BENCH_POINTS_PER_S (66000), BENCH_PHASE_S (15: the QoS 0/1 and rules phases),
//   BENCH_STEP_S (8: each capacity step and the 2× phase), BENCH_CAPACITY_STEPS (7), BENCH_CAPACITY_BUDGET_S (100),
//   BENCH_CAPACITY_QOS (1), BENCH_CAPACITY=0 (skip the search and the 2× phase), BENCH_OVERLOAD_POINTS_PER_S (skip the
//   search, run the overload phase at that rate), BENCH_RULES (1000; 0 skips),
//   BENCH_AUTHORITY=1, BENCH_READ_POINTS (10000000; 0 skips the read figures), BENCH_QOS_ORDER, BENCH_TRACE=1,
//   BENCH_FLEET (native | node | mqttjs), WRITER_THREAD, MQTT_THREADS, MQTT_NATIVE_READS; the closed-loop MQTT.js
//   devices: BENCH_CLOSED=0 (skip), BENCH_CLOSED_DEVICES (300), BENCH_CLOSED_WINDOWS (1,8), BENCH_CLOSED_S (the phase's),
//   BENCH_CLOSED_PROCS (2); the engine: BENCH_ENGINE=postgres (a PostgreSQL cluster of its own on this machine) or
//   DATABASE_URL (that server; a fresh database beside the one named), else SQLite (engine.ts).
import { sql } from 'drizzle-orm';
import { benchEngine } from './engine.js';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/log.js';
import type { BrokerAuthority, MqttIdentity } from '../src/platform/mqtt/types.js';
import type { DeviceResolver } from '../src/modules/devices/families/index.js';
import type { CommittedTelemetry } from '../src/modules/telemetry/store/writer.js';
import { walFrameBytes } from '../src/modules/telemetry/store/write-batch.js';
import { startFleet } from './ingest/fleet.js';
import { seedAndRead } from './ingest/reads.js';
import { mainThreadCpuUs, processCpuUs, threadsCpuUs } from './ingest/micro.js';
import { load } from './load.js';
import { findCapacity } from './ingest/capacity.js';
import { latestCard, registerServedFleet, removeFleetFile, type ServedFleet } from './ingest/served.js';
import { addRules, pushProbe } from './ingest/rules-load.js';
import { startClosedLoop, type ClosedLoop } from './ingest/closed-loop.js';
import { call } from '../test/harness.js';
import { deviceFamilyCalls } from '@sentra/contracts';
import type { SentraApp } from '../src/app.js';
import type { Fleet } from './ingest/fleet.js';
import type { Bench } from './run.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 5000);
const POINTS_PER_S = Number(process.env.BENCH_POINTS_PER_S ?? 66_000); // offered: 10 % above the 60,000 target
const PHASE_S = Number(process.env.BENCH_PHASE_S ?? 15);
const WARMUP_S = 3;
const STEP_S = Number(process.env.BENCH_STEP_S ?? 8);
const STEP_WARMUP_S = 2;
const CAPACITY_QOS: 0 | 1 = process.env.BENCH_CAPACITY_QOS === '0' ? 0 : 1;
const RULES = Number(process.env.BENCH_RULES ?? 1000);
/** a phase passes the capacity's bar with its p99 publish → stored within this and nothing lost */
const P99_BOUND_MS = 100;
/** the phases' order (BENCH_QOS_ORDER=1,0 runs QoS 1 first, on a smaller table and a younger heap) */
const QOS_ORDER = [
  ...new Set((process.env.BENCH_QOS_ORDER ?? '0,1').split(',').map((q): 0 | 1 => (q.trim() === '1' ? 1 : 0))),
];
const BENCH_APP = 1;

/** bench-only broker authority: username `bench-<n>` is device n, publishing under d/<n>/ only */
const authority: BrokerAuthority = {
  authenticate: (_clientId, username) =>
    username?.startsWith('bench-') ? { key: `bench:${username.slice(6)}`, appId: BENCH_APP } : null,
  authorizePublish: (identity, topic) => topic.startsWith(`d/${identity.key.slice(6)}/`),
  authorizeSubscribe: () => false,
};
const resolver: DeviceResolver = {
  resolveDevice: (identity: MqttIdentity) =>
    identity.key.startsWith('bench:')
      ? { deviceId: Number(identity.key.slice(6)), appId: BENCH_APP, category: 8 }
      : null,
};

function gcNow(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function percentile(samples: Float64Array, n: number, p: number): number {
  if (n === 0) return NaN;
  const sorted = samples.slice(0, n).sort();
  return sorted[Math.min(n - 1, Math.floor((p / 100) * n))];
}

/** The publish → stored samples of a phase's measured window, from each committed batch's `sent_at` points. */
function sampler(app: SentraApp) {
  const samples = new Float64Array(4_000_000);
  const s = {
    samples,
    count: 0,
    on: false,
    /** the trace's window: the slowest sample, the samples over 100 ms, the slowest arrival (before the pipeline) */
    traceMaxMs: 0,
    traceOver: 0,
    traceMaxArrival: 0,
  };
  // by series id: 0 not looked up yet, 1 a `sent_at` series, 2 another one (an array index per point: this runs on the
  // gateway's event loop for every stored point, and a Set lookup cost 3 % of it at 150,000 points/s)
  let kinds = new Uint8Array(1 << 16);
  const kindOf = (id: number) => {
    if (id >= kinds.length) {
      const grown = new Uint8Array(Math.max(kinds.length * 2, id + 1));
      grown.set(kinds);
      kinds = grown;
    }
    const series = app.telemetry.series(id);
    if (!series) return 2; // not known (yet): asked again next time
    return (kinds[id] = series.param === 'sent_at' ? 1 : 2);
  };
  app.telemetry.subscribe((b: CommittedTelemetry) => {
    if (!s.on) return;
    for (const p of b.points) {
      if ((kinds[p.seriesId] || kindOf(p.seriesId)) !== 1) continue;
      if (s.count < samples.length && p.num !== null) {
        const ms = (samples[s.count++] = b.committedAt - p.num);
        if (ms > s.traceMaxMs) s.traceMaxMs = ms;
        if (b.receivedAt - p.num > s.traceMaxArrival) s.traceMaxArrival = b.receivedAt - p.num;
        if (ms > 100) s.traceOver++;
      }
    }
  });
  return s;
}

interface Run {
  app: SentraApp;
  fleet: Fleet;
  sampling: ReturnType<typeof sampler>;
}

interface PhaseOptions {
  qos: 0 | 1;
  pointsPerS: number;
  seconds: number;
  warmupS: number;
  /** figure names' prefix */
  k: string;
  /** every figure (the main phases) or the few a capacity step needs */
  full: boolean;
  /** GET paths read over HTTP during the measured window (a LATEST card), reported as `<k>latest_card_*` */
  cardPaths?: string[];
  cardHeaders?: Record<string, string>;
  cardUrl?: string;
  /** points stored meanwhile that the fleet did not send (the push probe's publishes), left out of the loss */
  otherPoints?: () => number;
  /** runs once the fleet stopped sending, before the drain (the push probe stops there) */
  afterSending?: () => Promise<void>;
}

/** One phase: the fleet publishes `pointsPerS` for `seconds`, then every accepted message is drained (bounded). */
async function phase(r: Run, o: PhaseOptions): Promise<Record<string, number | string>> {
  const { app, fleet, sampling } = r;
  const { qos, k } = o;
  const figures: Record<string, number | string> = {};
  const m0 = app.telemetry.metrics() as Record<string, number>;
  const other0 = o.otherPoints?.() ?? 0;
  sampling.count = 0;
  sampling.on = false;
  const ran = fleet.ask<{ sent: number; errors: number; seconds: number }>(
    { cmd: 'run', qos, messagesPerSecond: o.pointsPerS / 3, seconds: o.seconds },
    'ran',
    (o.seconds + 60) * 1000,
  );
  // BENCH_TRACE=1: the writer's state every 250 ms on stderr (where a stall comes from)
  let traceElu = performance.eventLoopUtilization();
  let traceBroker = app.broker.threadUtilization();
  let traceWriter = app.telemetry.metrics() as Record<string, number>;
  const trace = process.env.BENCH_TRACE
    ? setInterval(() => {
        const m = app.telemetry.metrics() as Record<string, number>;
        const elu = performance.eventLoopUtilization(traceElu);
        traceElu = performance.eventLoopUtilization();
        const brokerElu = app.broker.threadUtilization(traceBroker);
        // the writer in this window: batches handed over, and the share of the window one was in flight
        const writerBatches = m.batches - traceWriter.batches;
        const writerBusy = (m.total_roundtrip_ms - traceWriter.total_roundtrip_ms) / 250;
        traceWriter = m;
        traceBroker = app.broker.threadUtilization();
        process.stderr.write(
          `trace ${k} t=${Math.round(performance.now())} wall=${Date.now()} queued=${m.queued_points} batches=${m.batches} recent=${m.recent_points} last_batch_points=${m.last_batch_points} last_batch_ms=${m.last_batch_ms} window_batches=${writerBatches} window_writer_busy=${writerBusy.toFixed(2)} roundtrip_max=${m.max_roundtrip_ms} handover_max=${m.max_hand_over_ms} answer_max=${m.max_answer_ms} max_ms=${Math.round(sampling.traceMaxMs)} max_arrival_ms=${Math.round(sampling.traceMaxArrival)} over100=${sampling.traceOver} elu=${elu.utilization.toFixed(2)} broker_elu=${brokerElu.map((u) => u.utilization.toFixed(2)).join('/')} paused=${m.reads_paused} series=${m.series_cached} conns=${app.broker.connected().length} created=${m.series_created} create_ms=${m.series_create_ms} create_max=${m.series_max_create_ms}\n`,
        );
        sampling.traceMaxMs = 0;
        sampling.traceMaxArrival = 0;
        sampling.traceOver = 0;
      }, 250)
    : undefined;
  await new Promise((res) => setTimeout(res, o.warmupS * 1000));
  sampling.on = true;
  const w0 = app.telemetry.metrics() as Record<string, number>;
  const elu0 = performance.eventLoopUtilization();
  // how long the event loop kept a callback waiting: what an HTTP call, or a load balancer's health check, meets
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const brokerElu0 = app.broker.threadUtilization();
  const cpu0 = mainThreadCpuUs();
  const fleetCpu0 = processCpuUs(fleet.pid);
  const gatewayCpu0 = processCpuUs(process.pid);
  const threadsCpu0 = threadsCpuUs();
  const t0 = performance.now();
  const windowMs = (o.seconds - o.warmupS - 1) * 1000;
  // a console reading a LATEST card meanwhile: 50 requests/s on 2 connections (autocannon, this process)
  const card =
    o.cardPaths && o.cardUrl
      ? load({
          url: o.cardUrl,
          paths: o.cardPaths,
          headers: o.cardHeaders,
          seconds: Math.max(1, Math.floor(windowMs / 1000)),
          connections: 2,
          rate: 50,
        })
      : undefined;
  await new Promise((res) => setTimeout(res, windowMs));
  const w1 = app.telemetry.metrics() as Record<string, number>;
  const elu = performance.eventLoopUtilization(elu0).utilization;
  loopDelay.disable();
  const brokerElu = app.broker.threadUtilization(brokerElu0).map((u) => u.utilization);
  const mainCpuUs = mainThreadCpuUs() - cpu0;
  const fleetCpuUs = processCpuUs(fleet.pid) - fleetCpu0;
  const gatewayCpuUs = processCpuUs(process.pid) - gatewayCpu0;
  const threadsCpu = [...threadsCpuUs()].map(([tid, us]) => ({ tid, us: us - (threadsCpu0.get(tid) ?? us) }));
  const windowS = (performance.now() - t0) / 1000;
  const sent = await ran;
  if (trace) clearInterval(trace);
  sampling.on = false;
  await o.afterSending?.();
  if (card) {
    const c = await card;
    figures[`${k}latest_card_requests`] = c.requests;
    figures[`${k}latest_card_p50_ms`] = c.p50_ms;
    figures[`${k}latest_card_p99_ms`] = c.p99_ms;
    figures[`${k}latest_card_errors`] = c.errors + c.non2xx;
  }
  // drain: every accepted message stored (bounded wait)
  const drainStart = performance.now();
  for (let i = 0; i < 600; i++) {
    const m = app.telemetry.metrics() as Record<string, number>;
    if (m.queued_points === 0 && m.queued_messages - m0.queued_messages >= sent.sent - sent.errors - 50) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  await app.telemetry.flush();
  const drainMs = performance.now() - drainStart;
  const m1 = app.telemetry.metrics() as Record<string, number>;
  const { samples, count } = sampling;
  const stored = m1.stored_points - m0.stored_points - ((o.otherPoints?.() ?? 0) - other0);
  figures[`${k}sent_messages`] = sent.sent;
  figures[`${k}offered_points_per_s`] = Math.round((sent.sent * 3) / sent.seconds);
  figures[`${k}stored_points_per_s`] = Math.round((w1.stored_points - w0.stored_points) / windowS);
  figures[`${k}p50_ms`] = percentile(samples, count, 50);
  figures[`${k}p99_ms`] = percentile(samples, count, 99);
  figures[`${k}max_ms`] = percentile(samples, count, 100);
  figures[`${k}lost_points`] = sent.sent * 3 - stored;
  // QoS 1: points of messages whose PUBACK the fleet read and that are not stored (must be 0: an acknowledgement
  // leaves after the commit, docs/decisions/ingest.md); a PUBACK still held at the phase's end counts as an error
  if (qos === 1) figures[`${k}acknowledged_lost_points`] = Math.max(0, (sent.sent - sent.errors) * 3 - stored);
  figures[`${k}shed_or_refused_points`] =
    m1.shed_qos0_points + m1.refused_points - m0.shed_qos0_points - m0.refused_points;
  figures[`${k}drain_ms`] = Math.round(drainMs);
  if (!o.full) return figures;
  let over = 0;
  for (let i = 0; i < count; i++) if (samples[i]! > 100) over++;
  figures[`${k}share_over_100ms`] = Math.round((over / Math.max(1, count)) * 10_000) / 10_000;
  figures[`${k}stored_rows_total`] =
    (await app.store.one<{ n: number }>(sql`SELECT count(*) AS n FROM telemetry_points`))?.n ?? 0;
  figures[`${k}max_batch_ms`] = m1.max_batch_ms;
  figures[`${k}max_queued_points`] = m1.max_queued_points;
  figures[`${k}batches_per_s`] = Math.round((w1.batches - w0.batches) / windowS);
  figures[`${k}writer_busy`] = Math.round(((w1.total_batch_ms - w0.total_batch_ms) / 1000 / windowS) * 100) / 100;
  figures[`${k}writer_roundtrip_busy`] =
    Math.round(((w1.total_roundtrip_ms - w0.total_roundtrip_ms) / 1000 / windowS) * 100) / 100;
  figures[`${k}max_roundtrip_ms`] = m1.max_roundtrip_ms;
  figures[`${k}main_thread_cpu_us_per_message`] =
    Math.round((mainCpuUs / Math.max(1, w1.received_messages - w0.received_messages)) * 10) / 10;
  figures[`${k}event_loop_utilization`] = Math.round(elu * 100) / 100;
  figures[`${k}event_loop_delay_p99_ms`] = Math.round(loopDelay.percentile(99) / 1e6);
  figures[`${k}event_loop_delay_max_ms`] = Math.round(loopDelay.max / 1e6);
  // every other thread's CPU per message, busiest first (the broker threads, the writer, V8's GC helpers): CPU time
  // holds when the machine is short of cores, where a utilisation also counts the time a thread waited for one
  const perMessage = (us: number) => us / Math.max(1, w1.received_messages - w0.received_messages);
  figures[`${k}other_threads_cpu_us_per_message`] = threadsCpu
    .filter((t) => t.tid !== process.pid && t.us > 0)
    .sort((a, b) => b.us - a.us)
    .slice(0, 4)
    .map((t) => perMessage(t.us).toFixed(1))
    .join(' / ');
  // each broker thread's event loop (the kernel spreads the connections over them)
  figures[`${k}broker_threads_utilization`] = brokerElu.map((u) => Math.round(u * 100) / 100).join(' / ');
  // cores busy: the whole gateway process (event loop, writer thread, GC threads) and the load generator
  figures[`${k}gateway_cores`] = Math.round((gatewayCpuUs / 1e6 / windowS) * 100) / 100;
  figures[`${k}fleet_cores`] = Math.round((fleetCpuUs / 1e6 / windowS) * 100) / 100;
  figures[`${k}reads_paused`] = w1.read_pauses - w0.read_pauses;
  figures[`${k}compaction_rounds`] = w1.compaction_rounds - w0.compaction_rounds;
  figures[`${k}max_recent_points`] = m1.max_recent_points;
  // the WAL: its largest size so far (MB), how often it started over, the writer thread's checkpoints for that
  if (app.db) figures[`${k}wal_max_mb`] = Math.round((m1.wal_max_frames * walFrameBytes(app.db.sqlite)) / 1048576);
  figures[`${k}wal_restarts`] = m1.wal_restarts - w0.wal_restarts;
  figures[`${k}wal_writer_checkpoints`] = m1.wal_writer_checkpoints - w0.wal_writer_checkpoints;
  figures[`${k}wal_writer_checkpoint_misses`] = m1.wal_writer_checkpoint_misses - w0.wal_writer_checkpoint_misses;
  figures[`${k}wal_writer_checkpoint_max_ms`] = m1.wal_writer_checkpoint_max_ms;
  return figures;
}

/** whether a phase meets the capacity's bar: p99 publish → stored within the bound, nothing lost or refused */
export const passes = (f: Record<string, number | string>, k: string) =>
  Number(f[`${k}p99_ms`]) <= P99_BOUND_MS &&
  Number(f[`${k}lost_points`]) <= 0 &&
  Number(f[`${k}acknowledged_lost_points`] ?? 0) <= 0 &&
  Number(f[`${k}shed_or_refused_points`]) <= 0;

/**
 * A gateway with its fleet connected and primed (first contact: each device's first message creates its series, a
 * one-time cost reported on its own). `served`: devices registered through REST, real sign-in and resolution;
 * otherwise the bench-only authority.
 */
async function start(served: boolean, figures: Record<string, number | string>, k: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-ingest-'));
  // SQLite in dataDir, or PostgreSQL on this machine (BENCH_ENGINE=postgres) or at DATABASE_URL (engine.ts)
  const engine = await benchEngine();
  figures[`${k}engine`] = engine.kind;
  const app = await buildApp(
    loadConfig({
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      WRITER_THREAD: process.env.WRITER_THREAD,
      MQTT_THREADS: process.env.MQTT_THREADS,
      MQTT_NATIVE_READS: process.env.MQTT_NATIVE_READS,
      ...engine.env,
    }),
    { log: createLogger('error') },
  );
  const { url } = await app.listen();
  const sampling = sampler(app);
  let servedFleet: ServedFleet | undefined;
  // the fleet lives through the whole plan: the steady and rules phases, the capacity search, the 2× phase and the
  // drains (each bounded to 30 s), with 15 minutes to spare for registering and connecting on a slow machine
  const steps = Number(process.env.BENCH_CAPACITY_STEPS ?? 7);
  const limit =
    15 * 60 + 5 * PHASE_S + Number(process.env.BENCH_CAPACITY_BUDGET_S ?? 100) + (steps + 3) * (STEP_S + 40);
  const fleet = startFleet(PHASE_S, undefined, limit);
  const close = async () => {
    await fleet.quit();
    await app.close();
    await engine.close();
    if (servedFleet) removeFleetFile(servedFleet);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true });
  };
  try {
    if (served) {
      servedFleet = await registerServedFleet(url, DEVICES);
      figures[`${k}setup_register_ms`] = servedFleet.setup_ms;
      figures[`${k}setup_device_adds_per_s`] = servedFleet.adds_per_s;
      await fleet.ask({ cmd: 'devices', file: servedFleet.file }, 'devices', 30_000);
    } else {
      app.broker.addAuthority(authority);
      app.telemetry.useResolver(resolver);
    }
    const gc = gcNow();
    await new Promise((r) => setTimeout(r, 500));
    gc();
    const rssBefore = process.memoryUsage().rss;
    const connectStart = performance.now();
    const conn = await fleet.ask<{ connected: number; failed: number }>(
      { cmd: 'connect', port: app.broker.port, devices: DEVICES, concurrency: 100 },
      'connected',
      120_000,
    );
    figures[`${k}connect_ms`] = Math.round(performance.now() - connectStart);
    await new Promise((r) => setTimeout(r, 2000));
    gc();
    const rssIdle = process.memoryUsage().rss;
    figures[`${k}connected_devices`] = conn.connected;
    figures[`${k}connect_failures`] = conn.failed;
    figures[`${k}idle_rss_per_device_kb`] =
      Math.round(((rssIdle - rssBefore) / 1024 / Math.max(1, conn.connected)) * 10) / 10;
    if (conn.connected === 0) throw new Error('no device connected');

    const primeStart = performance.now();
    const primed = await fleet.ask<{ sent: number; errors: number }>(
      { cmd: 'run', qos: 1, messagesPerSecond: DEVICES / 1.05, seconds: 1.05 },
      'ran',
      60_000,
    );
    for (
      let i = 0;
      i < 600 && (app.telemetry.metrics() as Record<string, number>).queued_messages < primed.sent - primed.errors;
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    await app.telemetry.flush();
    figures[`${k}first_contact_messages`] = primed.sent;
    figures[`${k}first_contact_series_created`] = (app.telemetry.metrics() as Record<string, number>).series_created;
    figures[`${k}first_contact_stored_ms`] = Math.round(performance.now() - primeStart);
    return { run: { app, fleet, sampling } as Run, url, servedFleet, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Closed-loop MQTT.js devices (closed-loop.ts), `window` QoS 1 messages in flight each: what they store, publish →
 * stored, and that every acknowledged point is stored. Their rate is the gateway's acknowledgements' pace.
 */
async function closedPhase(
  r: Run,
  closed: ClosedLoop,
  window: number,
  k: string,
): Promise<Record<string, number | string>> {
  const { app, sampling } = r;
  const figures: Record<string, number | string> = {};
  const m0 = app.telemetry.metrics() as Record<string, number>;
  sampling.count = 0;
  sampling.on = false;
  const seconds = Number(process.env.BENCH_CLOSED_S ?? PHASE_S);
  const ran = closed.run(window, seconds);
  await new Promise((res) => setTimeout(res, WARMUP_S * 1000));
  sampling.on = true;
  const w0 = app.telemetry.metrics() as Record<string, number>;
  const t0 = performance.now();
  const childCpu0 = closed.pids.reduce((n, pid) => n + processCpuUs(pid), 0);
  const gatewayCpu0 = processCpuUs(process.pid);
  await new Promise((res) => setTimeout(res, (seconds - WARMUP_S - 1) * 1000));
  const w1 = app.telemetry.metrics() as Record<string, number>;
  const windowS = (performance.now() - t0) / 1000;
  const childCpu = closed.pids.reduce((n, pid) => n + processCpuUs(pid), 0) - childCpu0;
  const gatewayCpu = processCpuUs(process.pid) - gatewayCpu0;
  const done = await ran;
  sampling.on = false;
  for (let i = 0; i < 600; i++) {
    const m = app.telemetry.metrics() as Record<string, number>;
    if (m.queued_points === 0 && m.queued_messages - m0.queued_messages >= done.acked) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  await app.telemetry.flush();
  const m1 = app.telemetry.metrics() as Record<string, number>;
  const { samples, count } = sampling;
  figures[`${k}window`] = window;
  figures[`${k}stored_points_per_s`] = Math.round((w1.stored_points - w0.stored_points) / windowS);
  figures[`${k}p50_ms`] = percentile(samples, count, 50);
  figures[`${k}p99_ms`] = percentile(samples, count, 99);
  figures[`${k}acknowledged_messages`] = done.acked;
  figures[`${k}unacknowledged_messages`] = done.errors;
  // every point of an acknowledged message is stored (an acknowledgement means stored)
  figures[`${k}acknowledged_lost_points`] = Math.max(0, done.acked * 3 - (m1.stored_points - m0.stored_points));
  figures[`${k}gateway_cores`] = Math.round((gatewayCpu / 1e6 / windowS) * 100) / 100;
  figures[`${k}clients_cores`] = Math.round((childCpu / 1e6 / windowS) * 100) / 100;
  return figures;
}

/** the steady QoS 0 and QoS 1 phases at BENCH_POINTS_PER_S */
async function steadyPhases(r: Run, figures: Record<string, number | string>, k: string) {
  for (const qos of QOS_ORDER)
    Object.assign(
      figures,
      await phase(r, {
        qos,
        pointsPerS: POINTS_PER_S,
        seconds: PHASE_S,
        warmupS: WARMUP_S,
        k: `${k}qos${qos}_`,
        full: true,
      }),
    );
}

export const ingestBench: Bench = {
  name: 'ingest',
  async run() {
    const figures: Record<string, number | string> = {
      path: 'served (REST-registered devices, real sign-in and resolution)',
      devices: DEVICES,
      offered_points_per_s: POINTS_PER_S,
      phase_s: PHASE_S,
    };
    const served = await start(true, figures, '');
    const { run: r, url, close } = served;
    const fleetOf = served.servedFleet!;
    figures.fleet = r.fleet.kind;
    figures.broker_threads = r.app.broker.threads;
    figures.writer_thread = r.app.telemetry.metrics().writer_thread ? 'on' : 'off';
    try {
      await steadyPhases(r, figures, '');

      // ---- closed-loop MQTT.js devices, windows of 1 and 8 (issue 35): acknowledgements that wait on nothing but
      // their commit; the first BENCH_CLOSED_DEVICES of the registered devices, on connections of their own ----
      if (process.env.BENCH_CLOSED !== '0') {
        const closed = startClosedLoop(Number(process.env.BENCH_CLOSED_PROCS ?? 2));
        try {
          const n = Number(process.env.BENCH_CLOSED_DEVICES ?? 300);
          figures.closed_loop_devices = await closed.connect(
            r.app.broker.port,
            fleetOf.devices.slice(0, n).map((d) => ({ username: d.username, password: d.password, topic: d.topic })),
          );
          for (const window of (process.env.BENCH_CLOSED_WINDOWS ?? '1,8').split(',').map(Number))
            Object.assign(figures, await closedPhase(r, closed, window, `closed_w${window}_`));
        } catch (err) {
          figures.closed_loop_error = String(err);
        } finally {
          await closed.quit();
        }
      }

      // ---- capacity: step search on short phases, then the goodput at twice it with a LATEST card read meanwhile ----
      // a section that fails records its error and the bench goes on with the figures it has
      if (process.env.BENCH_CAPACITY !== '0')
        try {
          const cq = CAPACITY_QOS;
          // BENCH_OVERLOAD_POINTS_PER_S: no search, the overload phase at that rate (to compare overload behaviour)
          const overload = Number(process.env.BENCH_OVERLOAD_POINTS_PER_S ?? 0);
          const search =
            overload > 0
              ? { capacity: overload / 2, lowestFailed: null, steps: [], ended: 'BENCH_OVERLOAD_POINTS_PER_S' }
              : await findCapacity({
                  start: POINTS_PER_S,
                  growth: 1.5,
                  resolution: 0.1,
                  quantum: 3000,
                  floor: 3000,
                  maxSteps: Number(process.env.BENCH_CAPACITY_STEPS ?? 7),
                  budgetMs: Number(process.env.BENCH_CAPACITY_BUDGET_S ?? 100) * 1000,
                  attempt: async (rate) => {
                    const k = `step_${rate}_`;
                    const f = await phase(r, {
                      qos: cq,
                      pointsPerS: rate,
                      seconds: STEP_S,
                      warmupS: STEP_WARMUP_S,
                      k,
                      full: false,
                    });
                    const ok = passes(f, k);
                    process.stderr.write(
                      `ingest capacity step: ${rate} points/s offered, qos ${cq}: stored ${f[`${k}stored_points_per_s`]}/s, p99 ${f[`${k}p99_ms`]} ms, lost ${f[`${k}lost_points`]} → ${ok ? 'pass' : 'fail'}\n`,
                    );
                    return ok;
                  },
                });
          figures.capacity_qos = cq;
          figures.capacity_points_per_s = search.capacity;
          figures.capacity_lowest_failed_points_per_s = search.lowestFailed ?? 'none';
          figures.capacity_steps = search.steps.map((s) => `${s.rate}:${s.ok ? 'pass' : 'fail'}`).join(' ');
          figures.capacity_search_ended = search.ended;
          const device = fleetOf.devices[0]!;
          const cardPath = await latestCard(url, fleetOf.auth, device.id);
          const { headersOf } = await import('../test/harness.js');
          const twice = Math.max(2 * search.capacity, 2 * 3000);
          Object.assign(
            figures,
            await phase(r, {
              qos: cq,
              pointsPerS: twice,
              seconds: STEP_S,
              warmupS: STEP_WARMUP_S,
              k: 'at_2x_capacity_',
              full: false,
              cardUrl: url,
              cardPaths: [cardPath],
              cardHeaders: headersOf(fleetOf.auth),
            }),
          );
          figures.goodput_at_2x_capacity_points_per_s = figures.at_2x_capacity_stored_points_per_s!;
          // the figure issue 24 asks for: every phase's acknowledged-and-lost points (QoS 1), which must all be 0
          figures.acknowledged_points_lost = Object.entries(figures)
            .filter(([n]) => n.endsWith('acknowledged_lost_points'))
            .reduce((n, [, v]) => n + Number(v), 0);
          figures.latest_card_p99_ms_saturated = figures.at_2x_capacity_latest_card_p99_ms!;
        } catch (err) {
          figures.capacity_error = String(err);
        }

      // ---- rules under ingest (issue 25): 1,000 active rules, the same phases, and publish → task pushed ----
      if (RULES > 0)
        try {
          Object.assign(figures, await addRules(url, fleetOf, RULES));
          const calls = deviceFamilyCalls.mqtt;
          const added = await call(
            url,
            calls.adds[calls.family.variants[0]!.key]!,
            { serial_number: 'BENCH-PUSH', name: 'Bench push' },
            fleetOf.auth,
          );
          if (added.body.response_result !== 0) throw new Error(`push device: ${JSON.stringify(added.body)}`);
          const probe = await pushProbe(
            url,
            r.app.broker.port,
            fleetOf,
            added.body.data.id,
            added.body.data.store_mqtt_username,
            added.body.data.store_mqtt_password,
          );
          try {
            const crossings = probe.run(Number(process.env.BENCH_PUSH_CROSSINGS ?? 200));
            let ms: number[] = [];
            const stopProbe = async () => {
              probe.stop();
              ms = (await crossings).sort((a, b) => a - b);
            };
            const f = await phase(r, {
              qos: 1,
              pointsPerS: POINTS_PER_S,
              seconds: PHASE_S,
              warmupS: WARMUP_S,
              k: 'rules_qos1_',
              full: true,
              otherPoints: probe.points,
              afterSending: stopProbe,
            });
            Object.assign(figures, f);
            const q = (p: number) =>
              ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]! * 10) / 10 : NaN;
            figures.rules_push_crossings = ms.length;
            figures.rules_push_missed = probe.missed();
            figures.rules_publish_to_push_p50_ms = q(0.5);
            figures.rules_publish_to_push_p99_ms = q(0.99);
            figures.rules_publish_to_push_max_ms = q(1);
          } finally {
            probe.close();
          }
          figures.rules_stored_ratio_to_without =
            Math.round(
              (Number(figures.rules_qos1_stored_points_per_s) / Number(figures.qos1_stored_points_per_s)) * 1000,
            ) / 1000;
          // at the capacity found without rules: the share of it the gateway still stores with the rules
          if (typeof figures.capacity_points_per_s === 'number' && figures.capacity_points_per_s > 0) {
            const cap = figures.capacity_points_per_s;
            const f = await phase(r, {
              qos: CAPACITY_QOS,
              pointsPerS: cap,
              seconds: STEP_S,
              warmupS: STEP_WARMUP_S,
              k: 'rules_at_capacity_',
              full: false,
            });
            Object.assign(figures, f);
            figures.rules_at_capacity_stored_ratio =
              Math.round((Number(f.rules_at_capacity_stored_points_per_s) / cap) * 1000) / 1000;
            figures.rules_at_capacity_passes = passes(f, 'rules_at_capacity_') ? 'yes' : 'no';
          }
          for (const [n, v] of Object.entries(r.app.rules.engine.metrics())) figures[`rules_engine_${n}`] = v;
          // the engine's writes that met the writer thread's lock and waited in the queue instead of on the event loop
          for (const [n, v] of Object.entries(r.app.rules.writes?.metrics() ?? {}))
            figures[`rules_write_queue_${n}`] = v;
        } catch (err) {
          figures.rules_error = String(err);
        }
      figures.acknowledged_points_lost = Object.entries(figures)
        .filter(([n]) => n.endsWith('acknowledged_lost_points'))
        .reduce((n, [, v]) => n + Number(v), 0);
      figures.rss_after_load_mb = Math.round(process.memoryUsage().rss / 1048576);
    } finally {
      await close();
    }

    // ---- the bench-only authority (no sign-in, no device resolution): an extra, labelled figure ----
    if (process.env.BENCH_AUTHORITY === '1') {
      const a = await start(false, figures, 'authority_');
      try {
        await steadyPhases(a.run, figures, 'authority_');
      } finally {
        await a.close();
      }
    }
    const readPoints = Number(process.env.BENCH_READ_POINTS ?? 10_000_000);
    if (readPoints > 0) Object.assign(figures, await seedAndRead({ targetPoints: readPoints, seedBudgetMs: 60_000 }));
    return figures;
  },
};
