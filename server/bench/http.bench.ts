// HTTP baseline: a bare Express JSON handler next to an authenticated Sentra call, in the same run on the same machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { appsContract, authContract, Header } from '@sentra/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/log.js';
import { load } from './load.js';
import type { Bench } from './run.js';

async function bareExpress(): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.get('/json', (_req, res) => {
    res.json({ response_result: 0, data: [{ id: 1, name: 'x' }] });
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/json`, close: () => server.close() };
}

export const httpBench: Bench = {
  name: 'http',
  async run() {
    const bare = await bareExpress();
    const bareLoad = await load({ url: bare.url });
    bare.close();

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-bench-'));
    process.env.NODE_ENV = 'production';
    const app = await buildApp(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'error' }), {
      log: createLogger('error'),
    });
    const { url } = await app.listen();
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post(authContract.register.path, {
      username: 'benchuser',
      first: 'Bench',
      email: 'bench@contoh.id',
      pass: 'bench123',
      passv: 'bench123',
      tenant_name: 'Bench',
    });
    const login = await post(authContract.tenantLogin.path, { input: 'benchuser', pass: 'bench123' });
    const headers = { [Header.tenantId]: String(login.id), [Header.tenantToken]: login.token };
    await post(appsContract.add.path, { name: 'Bench App', domain: 'benchapp' }, headers);
    const appList = await load({ url: url + appsContract.list.path, headers });
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    return {
      bare_express_rps: bareLoad.rps,
      app_list_authenticated_rps: appList.rps,
      app_list_p95_ms: appList.p95_ms,
      ratio_to_bare: Math.round((appList.rps / bareLoad.rps) * 100) / 100,
    };
  },
};
