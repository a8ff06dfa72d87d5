// The served path's setup for the ingest benchmark: a tenant signs up, adds an application and registers its devices
// through the REST calls the console makes (the MQTT family's add: each answer carries the device's broker username
// and its secret, shown once); the fleet then signs each device in with those and publishes on its own d/<id>/data.
// There is no bulk add call: the adds go over keep-alive connections, `concurrency` at a time, and the setup is timed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { appsContract, authContract, dashboardsContract, deviceFamilyCalls } from '@sentra/contracts';
import { call, type Auth } from '../../test/harness.js';

export interface Registered {
  id: number;
  username: string;
  password: string;
  topic: string;
}

export interface ServedFleet {
  owner: { tenant: { id: number; token: string }; domain: string; appId: number };
  auth: Auth & { tenant: { id: number; token: string }; domain: string };
  devices: Registered[];
  /** the fleet's `devices` file: `<client id> <username> <password> <topic>` per line */
  file: string;
  setup_ms: number;
  adds_per_s: number;
}

/** A tenant, its application and `n` MQTT devices, all through the REST API. */
export async function registerServedFleet(url: string, n: number, concurrency = 16): Promise<ServedFleet> {
  const started = performance.now();
  const name = `bench${process.pid}`;
  const pass = 'bench-rahasia-123';
  const reg = await call(url, authContract.register, {
    username: name,
    first: 'Bench',
    last: 'Ingest',
    email: `${name}@contoh.id`,
    pass,
    passv: pass,
    tenant_name: `PT ${name}`,
  });
  if (reg.body.response_result !== 0) throw new Error(`register: ${JSON.stringify(reg.body)}`);
  const login = await call(url, authContract.tenantLogin, { input: name, pass });
  const tenant = { id: login.body.id as number, token: login.body.token as string };
  const domain = `benchingest${process.pid}`;
  const app = await call(url, appsContract.add, { name: 'Bench Ingest', domain }, { tenant });
  if (app.body.response_result !== 0) throw new Error(`add app: ${JSON.stringify(app.body)}`);
  const auth = { tenant, domain };
  const calls = deviceFamilyCalls.mqtt;
  const add = calls.adds[calls.family.variants[0]!.key]!;
  const devices: Registered[] = new Array(n);
  let next = 0;
  const addsStarted = performance.now();
  async function worker() {
    while (next < n) {
      const i = next++;
      const r = await call(url, add, { serial_number: `BENCH-${i}`, name: `Bench ${i}` }, auth);
      if (r.body.response_result !== 0) throw new Error(`add device ${i}: ${r.status} ${JSON.stringify(r.body)}`);
      const d = r.body.data as { id: number; store_mqtt_username: string; store_mqtt_password: string };
      devices[i] = {
        id: d.id,
        username: d.store_mqtt_username,
        password: d.store_mqtt_password,
        topic: `d/${d.id}/data`,
      };
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const addsMs = performance.now() - addsStarted;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-bench-fleet-'));
  const file = path.join(dir, 'devices.txt');
  // client ids of our own: the registry reads a client id equal to the username as a serial gateway's UID
  fs.writeFileSync(file, devices.map((d) => `bc-${d.id} ${d.username} ${d.password} ${d.topic}\n`).join(''), {
    mode: 0o600,
  });
  return {
    owner: { tenant, domain, appId: app.body.data.id as number },
    auth,
    devices,
    file,
    setup_ms: Math.round(performance.now() - started),
    adds_per_s: Math.round(n / (addsMs / 1000)),
  };
}

/** A dashboard with one LATEST card on a device's series; answers the card's GET path (the console's card call). */
export async function latestCard(url: string, auth: Auth, deviceId: number): Promise<string> {
  const dashboard = {
    latest: {
      key: 'latest',
      cat: 'SINGLE_VALUE_CARD',
      x: 0,
      y: 0,
      w: 1,
      h: 1,
      model: {
        value: {
          query: 'LATEST',
          queryType: 'device',
          device_id: deviceId,
          sensor: 'env',
          config: 'data',
          param: 'temperature',
        },
      },
    },
  };
  const r = await call(
    url,
    dashboardsContract.add,
    { label: 'Bench LATEST', conf_dashboard: { version: '2', config: { refresh: 0 }, dashboard } },
    auth,
  );
  if (r.body.response_result !== 0) throw new Error(`dashboard: ${JSON.stringify(r.body)}`);
  return `/fetch/web/g/${r.body.id as number}/latest`;
}

export const removeFleetFile = (f: ServedFleet) => fs.rmSync(path.dirname(f.file), { recursive: true, force: true });
