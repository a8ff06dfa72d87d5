// A real gateway process (server/src/main.ts through tsx) on a data directory of the test's choosing, on free loopback
// ports: for what only a process can show (SIGKILL, start-up failures, its memory). It tells its ports over the IPC
// channel as `npm start`'s launcher hears them.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import pg from 'pg';
import { findUp } from '../src/platform/db/sqlite.js';
import { addDevice } from './fixtures.js';
import type { GatewayListening } from '../src/main.js';

const root = path.dirname(findUp('scripts', import.meta.url));

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  port: number;
  mqttPort: number;
  /** everything it printed so far */
  output(): string;
  exited: Promise<number | null>;
  /** resident memory (bytes) from /proc */
  rss(): number;
}

/** The gateway's main.ts in a child process on free ports and its own DATA_DIR, its output collected. */
function startChild(dataDir: string, env: Record<string, string>, as?: { uid: number; gid: number }) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    ...as,
    env: {
      ...process.env,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  return { child, output: () => out };
}

/** Spawns the gateway and waits until it listens (rejects with its output if it exits first). */
export function spawnGateway(dataDir: string, env: Record<string, string> = {}, ms = 60_000): Promise<GatewayProcess> {
  const { child, output } = startChild(dataDir, env);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => (child.kill('SIGKILL'), reject(new Error(`gateway did not listen in ${ms} ms:\n${output()}`))),
      ms,
    );
    child.on('message', (m: GatewayListening) => {
      if (m?.sentra !== 'listening') return;
      clearTimeout(timer);
      resolve({
        child,
        url: `http://127.0.0.1:${m.port}`,
        port: m.port,
        mqttPort: m.mqttPort,
        output,
        exited,
        rss: () => rssOf(child.pid!),
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}) before listening:\n${output()}`));
    });
  });
}

/** Runs the gateway until it exits (a start-up that must fail), bounded in time. */
export async function runGatewayToExit(
  dataDir: string,
  env: Record<string, string> = {},
  ms = 30_000,
  as?: { uid: number; gid: number },
): Promise<{ code: number | null; output: string }> {
  const { child, output } = startChild(dataDir, env, as);
  // it started after all: stop it, the caller sees a zero or null code and the output
  child.on('message', () => child.kill('SIGTERM'));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output: output() };
}

export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)/.exec(status);
  return kb ? Number(kb[1]) * 1024 : 0;
}

/** SIGKILL, then wait for it to be gone */
export async function killHard(gw: GatewayProcess): Promise<void> {
  gw.child.kill('SIGKILL');
  await gw.exited;
}

/** SIGTERM (a clean shutdown), then wait for it to be gone */
export async function stopGateway(gw: GatewayProcess): Promise<number | null> {
  if (gw.child.exitCode !== null || gw.child.signalCode !== null) return gw.child.exitCode;
  gw.child.kill('SIGTERM');
  return gw.exited;
}

/** `n` generic MQTT devices registered through the REST call, with the broker sign-in each was given */
export async function addMqttDevices(
  url: string,
  auth: Parameters<typeof addDevice>[1],
  n: number,
): Promise<{ id: number; username: string; password: string }[]> {
  const devices = [];
  for (let i = 0; i < n; i++) {
    const d = await addDevice(url, auth, 'mqtt');
    devices.push({ id: d.id, username: d.store_mqtt_username as string, password: d.store_mqtt_password as string });
  }
  return devices;
}

/** stated times of one device's stored points of env.data.<param>, read from the database file of a stopped gateway */
export function storedTimes(dataDir: string, deviceId: number, param: string): Set<number> {
  const db = new Database(path.join(dataDir, 'sentra.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT p.ts FROM telemetry_points p JOIN telemetry_series s ON s.id = p.series_id
         WHERE s.device_id = ? AND s.sensor = 'env' AND s.configtype = 'data' AND s.param = ?`,
      )
      .pluck()
      .all(deviceId, param) as number[];
    return new Set(rows);
  } finally {
    db.close();
  }
}

/**
 * Each device publishes QoS 1 messages back to back (MQTT.js keeps up to `window` in flight), each with its own stated
 * time; a time is recorded when its PUBACK arrives. Runs until `stop` is called (or the connection drops).
 */
export function stream(
  port: number,
  device: { id: number; username: string; password: string },
  base: number,
  window: number,
) {
  const acked: number[] = [];
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    username: device.username,
    password: device.password,
    clientId: `crash-${device.id}-${base}`,
    reconnectPeriod: 0,
  });
  let next = 0;
  let inFlight = 0;
  let stopped = false;
  const pump = () => {
    while (!stopped && client.connected && inFlight < window && next < 1_000_000) {
      const ts = base + next++;
      inFlight++;
      client.publish(
        `d/${device.id}/data`,
        JSON.stringify({ _ts: ts, env: { data: { n: next } } }),
        { qos: 1 },
        (err) => {
          inFlight--;
          if (!err) acked.push(ts);
          pump();
        },
      );
    }
  };
  client.on('connect', pump);
  client.on('error', () => {});
  return {
    acked,
    stop() {
      stopped = true;
      client.end(true);
    },
  };
}

/** stated times of one device's stored points of env.data.<param>, read from PostgreSQL (DATABASE_URL) */
export async function storedTimesAt(url: string, deviceId: number, param: string): Promise<Set<number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ ts: string }>(
      `SELECT p.ts FROM telemetry_points p JOIN telemetry_series s ON s.id = p.series_id
       WHERE s.device_id = $1 AND s.sensor = 'env' AND s.configtype = 'data' AND s.param = $2`,
      [deviceId, param],
    );
    return new Set(rows.map((r) => Number(r.ts)));
  } finally {
    await client.end();
  }
}
