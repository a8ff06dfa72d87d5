// Device list at scale: 10,000 devices in one application (plus 2,000 in another), then p95 of the filter calls the
// device list makes (first page, name/serial search, status and type filters, a deep page) through HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appsContract, authContract, devicesContract, Header } from '@sentra/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/log.js';
import { devices } from '../src/modules/devices/devices.table.js';
import { createDevicesStore } from '../src/modules/devices/devices.store.js';
import { load } from './load.js';
import type { Bench } from './run.js';

const DEVICES = 10_000;

/** Seeds rows straight into the table in one transaction: the bench measures reading, not 10,000 add calls. */
function seed(
  db: NonNullable<Awaited<ReturnType<typeof buildApp>>['db']>['db'],
  appId: number,
  n: number,
  prefix: string,
) {
  const now = Date.now();
  db.transaction((tx) => {
    for (let i = 0; i < n; i += 500) {
      const rows = Array.from({ length: Math.min(500, n - i) }, (_, k) => {
        const j = i + k;
        return {
          appId,
          category: j % 3 === 0 ? 8 : 1,
          categoryText: j % 3 === 0 ? 'MQTT' : 'Dummy',
          deviceType: j % 3 === 0 ? 'MQTT' : 'DUMMY',
          name: `${prefix} Pompa ${j}`,
          serialNumber: `${prefix}-SN-${String(j).padStart(6, '0')}`,
          online: j % 4 === 0,
          lastOnlineTs: now,
          createdAt: now,
          updatedAt: now,
        };
      });
      tx.insert(devices).values(rows).run();
    }
  });
}

export const devicesBench: Bench = {
  name: 'devices',
  async run() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-bench-devices-'));
    process.env.NODE_ENV = 'production';
    const app = await buildApp(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'error' }), {
      log: createLogger('error'),
    });
    const { url } = await app.listen();
    try {
      const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(url + p, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      await post(authContract.register.path, {
        username: 'benchdev',
        first: 'Bench',
        email: 'benchdev@contoh.id',
        pass: 'bench123',
        passv: 'bench123',
        tenant_name: 'Bench',
      });
      const login = await post(authContract.tenantLogin.path, { input: 'benchdev', pass: 'bench123' });
      const tenant = { [Header.tenantId]: String(login.id), [Header.tenantToken]: login.token };
      const mine = await post(appsContract.add.path, { name: 'Bench Devices', domain: 'benchdevices' }, tenant);
      const other = await post(appsContract.add.path, { name: 'Bench Other', domain: 'benchother' }, tenant);
      const started = Date.now();
      seed(app.db!.db, other.data.id, 2_000, 'Lain');
      seed(app.db!.db, mine.data.id, DEVICES, 'Alat');
      const seedMs = Date.now() - started;
      const headers = { ...tenant, [Header.appDomain]: 'benchdevices' };
      const list = url + devicesContract.filter.path;
      const queries: Record<string, string> = {
        first_page: '',
        search_name: '?search=pompa%20777',
        search_serial: '?search=SN-0099',
        search_short: '?search=Al',
        status_on: '?status=on',
        type_mqtt: '?type=MQTT&size=100',
        deep_page: '?page=90&size=100',
      };
      const figures: Record<string, number> = { devices: DEVICES, seed_ms: seedMs };
      // the registry's search alone, sequentially: what the query costs without HTTP and without the load generator's
      // contention
      const search = createDevicesStore(app.store).search;
      for (const [name, qs] of Object.entries(queries)) {
        const q = Object.fromEntries(new URLSearchParams(qs));
        const filter = devicesContract.filter.input.parse(q);
        const times: number[] = [];
        for (let i = 0; i < 300; i++) {
          const t0 = process.hrtime.bigint();
          await search.filter(mine.data.id, filter);
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
        times.sort((a, b) => a - b);
        const at = (p: number) => Math.round(times[Math.floor(times.length * p)]! * 100) / 100;
        figures[`service_${name}_p50_ms`] = at(0.5);
        figures[`service_${name}_p95_ms`] = at(0.95);
      }
      for (const [name, qs] of Object.entries(queries)) {
        const r = await load({ url: list + qs, headers, seconds: 2, connections: 8 });
        figures[`${name}_p95_ms`] = r.p95_ms;
        figures[`${name}_rps`] = r.rps;
        if (r.non2xx || r.errors) figures[`${name}_failures`] = r.non2xx + r.errors;
      }
      return figures;
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
