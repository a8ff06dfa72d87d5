// Starts the real gateway on ephemeral loopback ports with a throw-away data directory, and calls it by contract entry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Header, fillPath, type CallDef, type InputOf } from '@sentra/contracts';
import { buildApp, type BuildOptions, type SentraApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/log.js';
import { startNatsServer, type NatsServer } from '../src/platform/bus/testing/nats-server.js';
import { testDatabase } from '../src/platform/db/testing/postgres.js';

/**
 * The engine this run's gateways store in: vitest's `postgres` project (vitest.config.ts) sets
 * SENTRA_TEST_ENGINE=postgres and runs the storage-touching suites again, each gateway on a fresh database of the run's
 * PostgreSQL cluster; otherwise SQLite in the gateway's throw-away DATA_DIR.
 */
export const testEngine: 'sqlite' | 'postgres' = process.env.SENTRA_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** DATABASE_URL of a fresh database when the run is on PostgreSQL (nothing on SQLite) */
export async function engineEnv(): Promise<Record<string, string>> {
  return testEngine === 'postgres' ? { DATABASE_URL: await testDatabase() } : {};
}

export interface Running {
  app: SentraApp;
  url: string;
  /** the broker's ephemeral MQTT TCP port */
  mqttPort: number;
  /** the liveness check's port, when LIVENESS_PORT was given */
  livenessPort?: number;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startGateway(env: Record<string, string> = {}, opts: BuildOptions = {}): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-test-'));
  // every fixture registers a tenant from 127.0.0.1: registrations are not throttled unless a test asks for it
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    REGISTER_THROTTLE_ATTEMPTS: '1000000',
    // a test that names its own database (DATABASE_URL) keeps it: gateways sharing one are given the same
    ...(env.DATABASE_URL ? {} : await engineEnv()),
    // the broker's mode (project `plain-aedes`, vitest.config.ts)
    ...(process.env.MQTT_FAST_PATH && { MQTT_FAST_PATH: process.env.MQTT_FAST_PATH }),
    ...env,
  });
  const app = await buildApp(config, { log: createLogger('error'), ...opts });
  const { url, mqttPort, livenessPort } = await app.listen();
  return {
    app,
    url,
    mqttPort,
    livenessPort,
    dataDir,
    async stop() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      // the sealing key is generated beside the data directory (platform/seal-key.ts)
      fs.rmSync(`${dataDir}.seal.key`, { force: true });
    },
  };
}

/** Scale-out: two gateways on one NATS server and one database; `env` starts more of them alike. */
export interface ScaleOut {
  nats: NatsServer;
  env: Record<string, string>;
  one: Running;
  two: Running;
  stop(): Promise<void>;
}

export async function startScaleOut(): Promise<ScaleOut> {
  const nats = await startNatsServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-scaleout-'));
  // one database for both: the shared DATA_DIR on SQLite, one PostgreSQL database on PostgreSQL
  const env = { BUS: 'nats', NATS_URL: nats.url, DATA_DIR: dataDir, ...(await engineEnv()) };
  const one = await startGateway(env);
  const two = await startGateway(env);
  return {
    nats,
    env,
    one,
    two,
    async stop() {
      await one.stop();
      await two.stop();
      await nats.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}.seal.key`, { force: true }); // the sealing key beside it (seal-key.ts)
    },
  };
}

/** the device's `online` column as stored (1 or 0), on either engine */
export async function onlineOf(gw: Running, deviceId: number): Promise<number | undefined> {
  const row = await gw.app.store.one<{ online: number }>(sql`SELECT online FROM devices WHERE id = ${deviceId}`);
  return row?.online;
}

export type Auth =
  | { tenant: { id: number; token: string }; domain?: string }
  | { member: { id: number; token: string }; domain?: string }
  | { domain?: string; headers?: Record<string, string> };

export interface Answer {
  status: number;
  body: Record<string, any>;
}

export function headersOf(auth: Auth = {}): Record<string, string> {
  const h: Record<string, string> = {};
  if ('tenant' in auth) {
    h[Header.tenantId] = String(auth.tenant.id);
    h[Header.tenantToken] = auth.tenant.token;
  }
  if ('member' in auth) {
    h[Header.accountId] = String(auth.member.id);
    h[Header.accountToken] = auth.member.token;
  }
  if ('headers' in auth && auth.headers) Object.assign(h, auth.headers);
  if (auth.domain) h[Header.appDomain] = auth.domain;
  return h;
}

/** Calls a contract entry the way the web client does (query for GET, JSON body for POST). Input is not pre-validated. */
export async function call<C extends CallDef>(
  base: string,
  def: C,
  input: Partial<InputOf<C>> | Record<string, unknown> = {},
  auth: Auth = {},
): Promise<Answer> {
  const { path: p, rest } = fillPath(def.path, input as Record<string, unknown>);
  const headers: Record<string, string> = { ...headersOf(auth) };
  let url = base + p;
  let body: string | undefined;
  if (def.method === 'GET') {
    const qs = new URLSearchParams(
      Object.entries(rest)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
    );
    if ([...qs].length) url += `?${qs}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(rest);
  }
  const res = await fetch(url, { method: def.method, headers, body });
  const text = await res.text();
  let parsed: Record<string, any> = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed };
}
