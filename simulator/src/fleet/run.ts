// A run of the fleet: sign in, the application, registration with a bounded connection ramp, then every device
// publishing on schedule until the duration ends or stop() is called; counters for the progress line and a summary.
import { planFleet, serialPrefix, type DevicePlan, type PlanOptions } from './plan.js';
import {
  ensureApp,
  ensureNetworkServer,
  existingDevices,
  registerDevice,
  type AppInfo,
  type RegisteredDevice,
  type RegistrationContext,
} from './register.js';
import { deviceDataContract } from '@sentra/contracts';
import { pool, RestClient } from './rest.js';
import { keptTokens } from './kept-tokens.js';
import { newStats, RateMeter, type FleetStats } from './stats.js';
import type { Connection, DeviceEnv, Emitter, FaultMode } from './devices.js';
import type { ProfileEvent } from '../profiles/types.js';

export interface FleetOptions extends Omit<PlanOptions, 'domain'> {
  /** gateway base URL */
  url: string;
  /** mqtt://host:port, or ws://host:port/mqtt */
  mqtt: string;
  username: string;
  password: string;
  domain: string;
  /** application name when the run creates it */
  appName?: string;
  /** messages per second per device */
  rate: number;
  /** seconds; 0 runs until stop() */
  duration: number;
  /** probability per message of a malformed frame (0 = off) */
  faults: number;
  /** new connections per second */
  ramp: number;
  /** REST calls in flight during registration */
  concurrency: number;
  /** simulated start time (determinism across runs); default now */
  startMs?: number;
  /**
   * simulated time per wall-clock time (default 1): 60 lives an hour of sales, laundry cycles and deliveries in a
   * minute (demos, end-to-end tests). Values stay stamped with the wall clock.
   */
  speed?: number;
  onEvent?(plan: DevicePlan, e: ProfileEvent): void;
  /**
   * Each device's past this long (the demo's week) is sent before it publishes live, from its newest reading the
   * gateway holds (a restart fills the time the fleet was away; a device without data gets the whole span): readings
   * stamped with their simulated time, so charts and rollups have a history from the first minute and a counter is
   * one series across runs. Default 0: no history, live from now.
   */
  historyMs?: number;
  /**
   * A file where the Sentra end devices keep their credentials token between runs (kept-tokens.ts): a run finds them
   * there and they sign in again as the same devices, their history kept. Unset: each run adds them anew.
   */
  tokensFile?: string;
}

export const DEFAULTS = {
  url: 'http://127.0.0.1:8080',
  mqtt: 'mqtt://127.0.0.1:1883',
  username: 'demo',
  password: 'demo1234',
  domain: 'demo',
  devices: 50,
  rate: 0.2,
  profile: 'mix',
  family: 'mix',
  duration: 0,
  seed: 1,
  faults: 0,
  ramp: 200,
  concurrency: 16,
} as const;

export interface FleetSnapshot extends FleetStats {
  phase: 'idle' | 'registering' | 'running' | 'stopped';
  msgsPerSec: number;
  uptimeSec: number;
}

export interface FleetSummary extends FleetSnapshot {
  avgMsgsPerSec: number;
  cpuSeconds: { user: number; system: number };
  peakRssMb: number;
}

export interface FleetHandle {
  readonly options: FleetOptions;
  /** the application the fleet lives in (after start) */
  app?: AppInfo;
  readonly devices: RegisteredDevice[];
  /** signs in, registers, connects; resolves when every device has been tried and publishing has begun */
  start(): Promise<void>;
  stats(): FleetSnapshot;
  /** makes a device simulate a fault: silent on commands, offline (abrupt, LWT) for `ms`, malformed frames, or none */
  fault(serial: string, mode: FaultMode, ms?: number): boolean;
  /** stops publishing, disconnects cleanly; resolves with the summary (idempotent) */
  stop(): Promise<FleetSummary>;
  /** resolves with the summary when the run ends (duration or stop) */
  readonly done: Promise<FleetSummary>;
  /**
   * After start, with a past to send (`historyMs`): starts the replay, whose devices stay silent until then, so a
   * caller can finish its REST work (tags, dashboards) before the gateway gets busy ingesting. Idempotent; nothing to
   * do without a past.
   */
  replayHistory(): void;
  /**
   * Resolves when the history replay has ended (at once when there is none), with the readings sent and how long it
   * took. Each device publishes live as soon as its own past is sent.
   */
  readonly history: Promise<{ readings: number; ms: number }>;
}

/** devices replaying their past at once (their frames interleave on the broker) */
const HISTORY_CONCURRENCY = 8;
const HISTORY_STEP_MIN_MS = 1000;
/** the step of a replay `ago` ms before now: 30 min beyond a day, 5 min within it, 1 min in the last hour */
export function historyStep(ago: number): number {
  if (ago > 86_400_000) return 30 * 60_000;
  if (ago > 3_600_000) return 5 * 60_000;
  return 60_000;
}

/** A token bucket: at most `perSec` connection attempts per second. */
function connectionRamp(perSec: number): () => Promise<void> {
  let next = 0;
  const gap = 1000 / Math.max(1, perSec);
  return async () => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + gap;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  };
}

export function createFleet(options: FleetOptions): FleetHandle {
  const plans = planFleet(options);
  const stats = newStats(plans.length);
  const devices: RegisteredDevice[] = [];
  const emitters: Emitter[] = [];
  const connections: Connection[] = [];
  const meter = new RateMeter();
  const intervalMs = Math.max(10, 1000 / options.rate);
  const speed = options.speed !== undefined && options.speed > 0 ? options.speed : 1;
  let phase: FleetSnapshot['phase'] = 'idle';
  let startedAt = 0;
  let msgsPerSec = 0;
  let peakRss = 0;
  let ticker: NodeJS.Timeout | undefined;
  let sampler: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let started: Promise<void> | undefined;
  let stopping: Promise<FleetSummary> | undefined;
  let resolveDone!: (s: FleetSummary) => void;
  const done = new Promise<FleetSummary>((r) => (resolveDone = r));
  let resolveHistory!: (h: { readings: number; ms: number }) => void;
  const history = new Promise<{ readings: number; ms: number }>((r) => (resolveHistory = r));
  /** the devices waiting to send their past (replayHistory) */
  let past: { id: number; emitter: Emitter }[] | undefined;
  /** the signed-in client of the run (the replay asks where each device's stored data ends) */
  let client: RestClient | undefined;
  let historyMs = 0;
  const cpu0 = process.cpuUsage();

  const env: DeviceEnv = {
    mqttUrl: options.mqtt,
    seed: options.seed,
    startMs: options.startMs ?? Date.now(),
    intervalMs,
    stepMs: intervalMs * speed,
    faults: options.faults,
    stats,
    ramp: connectionRamp(options.ramp),
    onEvent: options.onEvent,
  };

  const snapshot = (): FleetSnapshot => ({
    ...stats,
    commands: { ...stats.commands },
    events: { ...stats.events },
    phase,
    msgsPerSec,
    uptimeSec: startedAt ? (Date.now() - startedAt) / 1000 : 0,
  });

  function schedule(e: Emitter) {
    // spread the fleet over one interval, so 5,000 devices do not publish in the same millisecond
    e.nextAt = Date.now() + Math.random() * intervalMs;
    emitters.push(e);
  }

  function tick() {
    const now = Date.now();
    for (const e of emitters) {
      if (e.nextAt > now) continue;
      e.emit(now);
      e.nextAt += intervalMs;
      // behind by more than an interval (a stalled loop): skip ahead rather than burst
      if (e.nextAt < now - intervalMs) e.nextAt = now + intervalMs;
    }
  }

  /** The newest reading time the gateway holds of a device (null: none, or the gateway would not say). */
  async function newestStored(id: number): Promise<number | null> {
    try {
      const { data } = await client!.call(deviceDataContract.latest, { id });
      return data.reduce<number | null>((m, p) => (m === null || p.ts > m ? p.ts : m), null);
    } catch {
      return null;
    }
  }

  /**
   * Sends every device's past up to now, a few devices at a time, from its newest stored reading (or `historyMs` ago):
   * coarse steps for the older days, finer for the last day and hour (the "Hari ini" and "1 jam terakhir" views).
   */
  async function replayHistory(
    past: { id: number; emitter: Emitter }[],
    live: (e: Emitter) => void,
  ): Promise<{ readings: number; ms: number }> {
    const t0 = Date.now();
    await pool(past, HISTORY_CONCURRENCY, async ({ id, emitter: e }) => {
      const until = Date.now();
      const stored = await newestStored(id);
      e.restartAt(Math.min(until, Math.max(until - historyMs, stored ?? -Infinity)));
      while (phase === 'running' && e.simTime < until - HISTORY_STEP_MIN_MS) {
        await e.replay(Math.min(historyStep(until - e.simTime), until - e.simTime));
      }
      // the simulation resumes at the wall clock
      if (e.simTime < until && phase === 'running') await e.replay(until - e.simTime);
      if (phase === 'running') live(e);
    });
    return { readings: stats.history, ms: Date.now() - t0 };
  }

  const handle: FleetHandle = {
    options,
    devices,
    start() {
      started ??= (async () => {
        phase = 'registering';
        startedAt = Date.now();
        sampler = setInterval(() => {
          msgsPerSec = meter.sample(Date.now(), stats.messages);
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }, 1000);
        const rest = new RestClient(options.url);
        await rest.signIn(options.username, options.password);
        client = rest;
        const app = await ensureApp(rest, options.domain, options.appName ?? `Simulasi ${options.domain}`);
        handle.app = app;
        const ctx: RegistrationContext = {
          rest,
          app,
          env,
          existing: await existingDevices(rest, serialPrefix(options.seed, options.domain)),
          tokens: await keptTokens(options.tokensFile),
        };
        historyMs = Math.max(0, options.historyMs ?? 0);
        if (plans.some((p) => p.family === 'lora')) {
          ctx.network = await ensureNetworkServer(rest, app, env);
          connections.push(ctx.network.ns);
        }
        await pool(plans, options.concurrency, async (plan) => {
          if (phase !== 'registering') return;
          try {
            const d = await registerDevice(ctx, plan);
            if (phase !== 'registering') {
              // stopped meanwhile: this device's connection was not among those closed
              await d.connection?.close();
              return;
            }
            devices.push(d);
            stats.registered++;
            if (!d.emitter) stats.registeredOnly++;
            if (d.connection) connections.push(d.connection);
            if (d.emitter) schedule(d.emitter);
          } catch (err) {
            stats.errors++;
            stats.lastError = `${plan.serial} (${plan.family}): ${(err as Error).message}`;
          }
        });
        devices.sort((a, b) => a.plan.index - b.plan.index);
        // publishing starts once the whole fleet is registered: a gateway busy ingesting answers its REST API slowly
        // (observed: HTTP starved behind 900 msg/s on a loaded 2-core machine), and registration is the user's path
        if (phase !== 'registering') return;
        phase = 'running';
        const now = Date.now();
        if (historyMs > 0) {
          past = devices.flatMap((d) => (d.emitter ? [{ id: d.id, emitter: d.emitter }] : []));
          emitters.splice(0);
        } else past = [];
        emitters.forEach((e) => (e.nextAt = now + Math.random() * intervalMs));
        ticker = setInterval(tick, 50);
        if (past.length === 0) resolveHistory({ readings: 0, ms: 0 });
        if (options.duration > 0) deadline = setTimeout(() => void handle.stop(), options.duration * 1000);
      })();
      return started;
    },
    replayHistory() {
      if (!past?.length) return;
      const devices = past;
      past = undefined;
      // the replay runs behind the live fleet: each device goes live once its past is sent
      void replayHistory(devices, (e) => schedule(e)).then(resolveHistory, () =>
        resolveHistory({ readings: stats.history, ms: 0 }),
      );
    },
    stats: snapshot,
    fault(serial, mode, ms = 30_000) {
      const d = devices.find((x) => x.plan.serial === serial);
      const c = d?.connection ?? (d?.plan.family === 'lora' ? connections[0] : undefined);
      if (!c) return false;
      if (mode === 'offline') c.goOffline(ms);
      else c.fault = mode;
      return true;
    },
    stop() {
      stopping ??= (async () => {
        phase = 'stopped';
        clearTimeout(deadline);
        clearInterval(ticker);
        // registration calls in flight finish on their own (and close what they opened); no waiting for them here
        started?.catch(() => undefined);
        // all at once: each close waits at most 3 s for its DISCONNECT to leave, so a slow gateway costs 3 s, not minutes
        await Promise.all(connections.map((c) => c.close()));
        clearInterval(sampler);
        const cpu = process.cpuUsage(cpu0);
        const s = snapshot();
        const summary: FleetSummary = {
          ...s,
          avgMsgsPerSec: s.uptimeSec > 0 ? Math.round((stats.messages / s.uptimeSec) * 10) / 10 : 0,
          cpuSeconds: { user: Math.round(cpu.user / 1e4) / 100, system: Math.round(cpu.system / 1e4) / 100 },
          peakRssMb: Math.round(Math.max(peakRss, process.memoryUsage().rss) / 1048576),
        };
        resolveDone(summary);
        return summary;
      })();
      return stopping;
    },
    done,
    history,
  };
  return handle;
}

/** Creates the fleet and starts it: signed in, registered, connected and publishing when it resolves. */
export async function runFleet(
  options: Partial<FleetOptions> & Pick<FleetOptions, 'url' | 'mqtt'>,
): Promise<FleetHandle> {
  const handle = createFleet({ ...DEFAULTS, ...options } as FleetOptions);
  try {
    await handle.start();
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}
