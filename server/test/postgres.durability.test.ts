// Acknowledged means stored on PostgreSQL (issue 36): gateway processes on DATABASE_URL, PostgreSQL a cluster of the
// test's own. A gateway SIGKILLed in the middle of a QoS 1 stream, and PostgreSQL restarted under one (fast and
// immediate), lose no point whose PUBACK a device received; while PostgreSQL is down the devices are slowed (no
// acknowledgement), the console's status says so, and ingest resumes within seconds of its return.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Result, systemContract } from '@sentra/contracts';
import { hasPostgres, startPostgres, type Postgres } from '../src/platform/db/testing/postgres.js';
import { call } from './harness.js';
import { tenantWithApp, until } from './fixtures.js';
import {
  addMqttDevices,
  killHard,
  spawnGateway,
  stopGateway,
  storedTimesAt,
  stream,
  type GatewayProcess,
} from './gateway-process.kit.js';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

let cluster: Postgres;
beforeAll(async () => {
  if (hasPostgres) cluster = await startPostgres();
}, 120_000);
afterAll(async () => cluster?.destroy());

async function gatewayOn(url: string): Promise<{ gw: () => GatewayProcess; restart(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-pgdur-'));
  let gw = await spawnGateway(dataDir, { DATABASE_URL: url });
  cleanup.push(async () => {
    gw.child.kill('SIGKILL');
    await gw.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true });
  });
  return {
    gw: () => gw,
    async restart() {
      gw = await spawnGateway(dataDir, { DATABASE_URL: url });
    },
  };
}

const total = (streams: { acked: number[] }[]) => streams.reduce((n, s) => n + s.acked.length, 0);
const waitFor = async (streams: { acked: number[] }[], n: number, ms: number) => {
  const started = Date.now();
  while (Date.now() - started < ms && total(streams) < n) await new Promise((r) => setTimeout(r, 50));
};

describe.skipIf(!hasPostgres)('acknowledged means stored, on PostgreSQL', () => {
  it('stores every QoS 1 message whose PUBACK a device received, over two gateway kills in the middle of a stream', async () => {
    const url = await cluster.createDatabase();
    const g = await gatewayOn(url);
    const owner = await tenantWithApp(g.gw().url);
    const devices = await addMqttDevices(g.gw().url, { tenant: owner.tenant, domain: owner.domain }, 4);
    const acked = new Map<number, number[]>(devices.map((d) => [d.id, []]));
    const base = Date.now() - 3_600_000;
    for (let round = 0; round < 2; round++) {
      const streams = devices.map((d) => stream(g.gw().mqttPort, d, base + round * 600_000, 16));
      await waitFor(streams, 1000 + round * 300, 5000);
      await killHard(g.gw());
      for (const [k, s] of streams.entries()) {
        s.stop();
        acked.get(devices[k]!.id)!.push(...s.acked);
      }
      expect(streams.every((s) => s.acked.length > 0)).toBe(true);
      await g.restart();
    }
    expect(await stopGateway(g.gw())).toBe(0);
    let n = 0;
    for (const d of devices) {
      const stored = await storedTimesAt(url, d.id, 'n');
      n += acked.get(d.id)!.length;
      expect(
        acked.get(d.id)!.filter((ts) => !stored.has(ts)),
        `device ${d.id}: acknowledged and not stored`,
      ).toEqual([]);
    }
    expect(n).toBeGreaterThan(500);
  }, 180_000);

  it.each(['fast', 'immediate'] as const)(
    'loses nothing acknowledged over a PostgreSQL restart (%s), withholds acknowledgements and says so while it is down, and resumes within seconds',
    async (mode) => {
      const url = await cluster.createDatabase();
      const g = await gatewayOn(url);
      const owner = await tenantWithApp(g.gw().url);
      const devices = await addMqttDevices(g.gw().url, { tenant: owner.tenant, domain: owner.domain }, 3);
      const auth = { tenant: owner.tenant, domain: owner.domain };
      // the call's caller may need the database too: while it is down a 503 (-50) says the same
      const status = async () => {
        const r = await call(g.gw().url, systemContract.status, {}, auth);
        return r.status === 503 && r.body.response_result === Result.STORAGE_UNAVAILABLE
          ? { storage: 'failing' }
          : r.body;
      };
      expect(await status()).toMatchObject({ response_result: 0, storage: 'ok', since: null });

      const streams = devices.map((d) => stream(g.gw().mqttPort, d, Date.now() - 3_600_000, 8));
      await waitFor(streams, 300, 5000);
      await cluster.stop(mode);
      // down: what was acknowledged stays so, nothing more is acknowledged once the writer has failed
      expect(await until(async () => (await status()).storage === 'failing', 20_000)).toBe(true);
      const during = total(streams);
      // time for an acknowledgement that should not come (the gateway runs in another process: no fault counter to read)
      await new Promise((r) => setTimeout(r, 1500));
      expect(total(streams), 'acknowledged while PostgreSQL was down').toBe(during);
      const downAt = Date.now();
      await cluster.start();
      // back: the held messages are stored and acknowledged, and new ones follow, within seconds
      await waitFor(streams, during + 300, 20_000);
      expect(total(streams)).toBeGreaterThan(during + 300);
      expect(Date.now() - downAt).toBeLessThan(20_000);
      expect(await until(async () => (await status()).storage === 'ok', 10_000)).toBe(true);
      for (const s of streams) s.stop();
      expect(await stopGateway(g.gw())).toBe(0);
      for (const [k, d] of devices.entries()) {
        const stored = await storedTimesAt(url, d.id, 'n');
        expect(streams[k]!.acked.filter((ts) => !stored.has(ts))).toEqual([]);
      }
    },
    120_000,
  );
});
