// After a crash the registry still says "online" for devices whose connections died with the gateway: the next start
// marks them offline (one gateway, memory bus). Across gateways see scale-out.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { startGateway, type Running } from './harness.js';
import { tenantWithApp } from './fixtures.js';
import { mqttDevice, type AppAuth } from './device-data.kit.js';

const onlineOf = (file: string, id: number) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT online, last_online_ts, last_offline_ts FROM devices WHERE id = ?').get(id) as {
      online: number;
      last_online_ts: number;
      last_offline_ts: number | null;
    };
  } finally {
    db.close();
  }
};

describe('presence after a gateway stopped without seeing its devices go', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-presence-'));
  const file = path.join(dataDir, 'sentra.db');
  const clients: MqttClient[] = [];
  let second: Running | undefined;
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await second?.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true }); // the sealing key beside it (seal-key.ts)
  });

  it('marks a device left "online" offline at the next start', async () => {
    const first = await startGateway({ DATA_DIR: dataDir });
    const owner = await tenantWithApp(first.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const { device } = await mqttDevice(first, auth, clients);
    clients.splice(0).forEach((c) => c.end(true));
    await first.app.close();
    // what a crash leaves behind: the row still online, no disconnect recorded
    const db = new Database(file);
    db.prepare('UPDATE devices SET online = 1, last_offline_ts = NULL WHERE id = ?').run(device.id);
    db.close();
    const before = Date.now();

    second = await startGateway({ DATA_DIR: dataDir });
    const row = onlineOf(file, device.id);
    expect(row.online).toBe(0);
    expect(row.last_offline_ts).toBeGreaterThanOrEqual(before);
    // and a device connecting to the new gateway is online as usual
    const again = await mqttDevice(second, auth, clients);
    expect(onlineOf(file, again.device.id).online).toBe(1);
  });
});
