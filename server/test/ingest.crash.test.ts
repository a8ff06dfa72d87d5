// An acknowledgement means stored (issue 24): a gateway process SIGKILLed in the middle of a QoS 1 stream from real
// MQTT.js devices, restarted on the same data directory, holds every message whose PUBACK a device received.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantWithApp } from './fixtures.js';
import {
  addMqttDevices,
  killHard,
  spawnGateway,
  stopGateway,
  storedTimes,
  stream,
  type GatewayProcess,
} from './gateway-process.kit.js';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

describe('ingest after SIGKILL', () => {
  it('stores every QoS 1 message whose PUBACK a device received, over three kills in the middle of a stream', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-crash-'));
    let gw: GatewayProcess = await spawnGateway(dataDir);
    cleanup.push(async () => {
      gw.child.kill('SIGKILL');
      await gw.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const owner = await tenantWithApp(gw.url);
    const auth = { tenant: owner.tenant, domain: owner.domain };
    const devices = await addMqttDevices(gw.url, auth, 4);
    const acked = new Map<number, number[]>(devices.map((d) => [d.id, []]));
    // stated times a minute apart per round, so no round's points collide with another's
    const base = Date.now() - 3_600_000;
    for (let round = 0; round < 3; round++) {
      const streams = devices.map((d) => stream(gw.mqttPort, d, base + round * 600_000, 16));
      // long enough for many batches to commit while more are in flight (bounded: at most 4 s)
      const started = Date.now();
      while (Date.now() - started < 4000 && streams.reduce((n, s) => n + s.acked.length, 0) < 2000 + round * 500)
        await new Promise((r) => setTimeout(r, 50));
      await killHard(gw);
      for (const [k, s] of streams.entries()) {
        s.stop();
        acked.get(devices[k]!.id)!.push(...s.acked);
      }
      expect(streams.every((s) => s.acked.length > 0)).toBe(true);
      // restarted on the same data: the journal left by the killed process is replayed
      gw = await spawnGateway(dataDir);
    }
    expect(await stopGateway(gw)).toBe(0);
    let total = 0;
    for (const d of devices) {
      const stored = storedTimes(dataDir, d.id, 'n');
      const lost = acked.get(d.id)!.filter((ts) => !stored.has(ts));
      total += acked.get(d.id)!.length;
      expect(lost, `device ${d.id}: acknowledged and not stored`).toEqual([]);
    }
    expect(total).toBeGreaterThan(1000);
  }, 180_000);
});
