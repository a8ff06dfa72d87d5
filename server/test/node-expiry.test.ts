// Node expiry (10009) across a restart: a device heard before the gateway restarts and silent ever after still expires,
// because the new process seeds its expiry watch from the stored last-heard times (docs/decisions/rules.md "Node expiry").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rulesContract, tasksContract, type Task } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';
import type { AppAuth } from './device-data.kit.js';

const EXPIRY_S = 4;

const tasksOf = async (gw: Running, auth: AppAuth) =>
  (await call(gw.url, tasksContract.list, { size: 100 }, auth)).body.tasks as Task[];

describe('node expiry (10009) across a restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-expiry-restart-'));
  let gw: Running | undefined;
  afterAll(async () => {
    await gw?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a device heard before a restart that never sends again expires after the restart; a device never heard does not', async () => {
    gw = await startGateway({ DATA_DIR: dataDir });
    const owner = await tenantWithApp(gw.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const silent = await addDevice(gw.url, auth, 'mqtt', { name: 'Meter diam' });
    const never = await addDevice(gw.url, auth, 'mqtt', { name: 'Meter baru' });
    for (const d of [silent, never]) {
      const added = await call(
        gw.url,
        rulesContract.add,
        {
          name: `Node expired ${d.id}`,
          category: 10009,
          trigger: [{ field: { query: 'DEVICE_ID' }, op: '==', value: d.id }],
          condition: { duration_s: EXPIRY_S },
          action: {},
        },
        auth,
      );
      expect(added.body.response_result).toBe(0);
    }

    const a = await mqttAttempt(gw.mqttPort, {
      clientId: unique('c'),
      username: silent.store_mqtt_username,
      password: silent.store_mqtt_password,
    });
    if (!a.client) throw new Error(`refused: ${a.code}`);
    await a.client.publishAsync(`d/${silent.id}/data`, JSON.stringify({ pm: { meter: { power: 12 } } }), { qos: 1 });
    await gw.app.telemetry.flush();
    a.client.end(true);
    // stopped before the expiry: the first process never published it (else this test would prove nothing)
    expect(await tasksOf(gw, auth)).toEqual([]);
    await gw.stop();

    // the same database, a new process; the device never connects again
    gw = await startGateway({ DATA_DIR: dataDir });
    expect(await until(async () => (await tasksOf(gw!, auth)).length > 0, (EXPIRY_S + 6) * 1000)).toBe(true);
    // time for a second task of the same silence to be written, were it
    await new Promise((r) => setTimeout(r, 500));
    const tasks = await tasksOf(gw, auth);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      category: 10009,
      device_id: silent.id,
      device_name: 'Meter diam',
      occurrences: 1,
    });

    // the next restart does not report the same silence again (its task records it)
    await gw.stop();
    gw = await startGateway({ DATA_DIR: dataDir });
    // time for the restarted gateway's first expiry check to run (it leaves no trace when it finds nothing new)
    await new Promise((r) => setTimeout(r, 1500));
    expect((await tasksOf(gw, auth))[0]?.occurrences).toBe(1);
  }, 40_000);
});
