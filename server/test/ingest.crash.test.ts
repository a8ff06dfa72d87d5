// An acknowledgement means stored (issue 24): a gateway process SIGKILLed in the middle of a QoS 1 stream from real
// MQTT.js devices, restarted on the same data directory, holds every message whose PUBACK a device received.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantWithApp } from './fixtures.js';
import {
  addMqttDevices,
  killHard,
  spawnGateway,
  stopGateway,
  storedTimes,
  type GatewayProcess,
} from './gateway-process.kit.js';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/**
 * Each device publishes QoS 1 messages back to back (MQTT.js keeps up to `window` in flight), each with its own stated
 * time; a time is recorded when its PUBACK arrives. Runs until `stop` is called (or the connection drops).
 */
function stream(
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
