// The ingest benchmark's fleets against a bare aedes broker on a loopback port: the C fleet (fleet.c) and the Node one
// connect one client per device, publish the same 3-point payloads on d/<n>/data at the asked rate, have every QoS 1
// publish acknowledged and end with DISCONNECT.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBroker } from 'aedes';
import { nativeFleetAvailable, startFleet, type Fleet } from './fleet.js';
import { required } from '../../src/platform/testing/required.js';

interface Seen {
  clients: { id: string; username?: string; password?: string }[];
  publishes: { clientId: string; topic: string; qos: number; payload: string }[];
  disconnects: number;
}

async function broker(): Promise<{ port: number; seen: Seen; close(): Promise<void> }> {
  const seen: Seen = { clients: [], publishes: [], disconnects: 0 };
  const aedes = createBroker();
  aedes.authenticate = (client, username, password, done) => {
    seen.clients.push({ id: client.id, username, password: password?.toString() });
    done(null, true);
  };
  aedes.on('publish', (packet, client) => {
    if (client)
      seen.publishes.push({
        clientId: client.id,
        topic: packet.topic,
        qos: packet.qos,
        payload: packet.payload.toString(),
      });
  });
  aedes.on('clientDisconnect', () => seen.disconnects++);
  const server = net.createServer((socket) => aedes.handle(socket));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen,
    close: () => new Promise<void>((r) => aedes.close(() => server.close(() => r()))),
  };
}

const DEVICES = 20;
let fleet: Fleet | undefined;
let open: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await fleet?.quit();
  await open?.close();
  fleet = open = undefined;
});

// the C fleet needs a C compiler (CI installs one; without it the benchmark runs the Node fleet)
describe.each(['native', 'node'])('the %s fleet', (kind) => {
  it.skipIf(kind === 'native' && !required('a C compiler (the C fleet)', nativeFleetAvailable()))(
    'connects one client per device, publishes the asked rate at QoS 0 and 1 with every PUBACK read, and disconnects',
    async () => {
      fleet = startFleet(15, kind);
      const b = await broker();
      open = b;
      expect(fleet.kind).toBe(kind);

      const conn = await fleet.ask<{ connected: number; failed: number }>(
        { cmd: 'connect', port: b.port, devices: DEVICES, concurrency: 5 },
        'connected',
        20_000,
      );
      expect(conn).toMatchObject({ connected: DEVICES, failed: 0 });
      expect(b.seen.clients.map((c) => `${c.id}/${c.username}`).sort()).toEqual(
        Array.from({ length: DEVICES }, (_, i) => `bc-${i}/bench-${i}`).sort(),
      );

      const before = Date.now();
      for (const qos of [0, 1] as const) {
        const from = b.seen.publishes.length;
        const ran = await fleet.ask<{ sent: number; errors: number; seconds: number }>(
          { cmd: 'run', qos, messagesPerSecond: 200, seconds: 1 },
          'ran',
          20_000,
        );
        expect(ran.errors).toBe(0);
        // paced: about 200 in the second (the last tick may fall just short)
        expect(ran.sent).toBeGreaterThanOrEqual(190);
        expect(ran.sent).toBeLessThanOrEqual(200);
        for (let i = 0; i < 100 && b.seen.publishes.length - from < ran.sent; i++)
          await new Promise((r) => setTimeout(r, 20));
        const got = b.seen.publishes.slice(from);
        expect(got).toHaveLength(ran.sent);
        // round-robin over the devices, each on its own topic
        expect(new Set(got.map((p) => p.clientId)).size).toBe(DEVICES);
        for (const p of got) {
          expect(p.topic).toBe(`d/${p.clientId.slice(3)}/data`);
          expect(p.qos).toBe(qos);
          const body = JSON.parse(p.payload) as {
            env: { data: { temperature: number; humidity: number } };
            bench: { data: { sent_at: number } };
          };
          expect(body.env.data.temperature).toBeGreaterThanOrEqual(20);
          expect(body.env.data.temperature).toBeLessThan(30);
          expect(body.env.data.humidity).toBeGreaterThanOrEqual(40);
          expect(body.env.data.humidity).toBeLessThan(47);
          expect(body.bench.data.sent_at).toBeGreaterThanOrEqual(before - 5);
          expect(body.bench.data.sent_at).toBeLessThanOrEqual(Date.now());
        }
      }

      await fleet.quit();
      for (let i = 0; i < 100 && b.seen.disconnects < DEVICES; i++) await new Promise((r) => setTimeout(r, 20));
      expect(b.seen.disconnects).toBe(DEVICES);
    },
  );

  it.skipIf(kind === 'native' && !required('a C compiler (the C fleet)', nativeFleetAvailable()))(
    'signs each device in with the credentials the registration answered and publishes on its own topic',
    async () => {
      fleet = startFleet(15, kind);
      const b = await broker();
      open = b;
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-fleet-test-')), 'devices.txt');
      const rows = Array.from({ length: 5 }, (_, i) => ({
        id: `bench-c${i}`,
        user: `mqtt_abc${i}`,
        pass: `S3cr3t-${i}_x`,
        topic: `d/${100 + i}/data`,
      }));
      fs.writeFileSync(file, rows.map((r) => `${r.id} ${r.user} ${r.pass} ${r.topic}\n`).join(''));
      expect(await fleet.ask<{ loaded: number }>({ cmd: 'devices', file }, 'devices', 10_000)).toMatchObject({
        loaded: 5,
      });
      const conn = await fleet.ask<{ connected: number }>(
        { cmd: 'connect', port: b.port, devices: 5, concurrency: 5 },
        'connected',
        20_000,
      );
      expect(conn.connected).toBe(5);
      expect(b.seen.clients.map((c) => `${c.id} ${c.username} ${c.password}`).sort()).toEqual(
        rows.map((r) => `${r.id} ${r.user} ${r.pass}`).sort(),
      );
      const ran = await fleet.ask<{ sent: number; errors: number }>(
        { cmd: 'run', qos: 1, messagesPerSecond: 50, seconds: 0.5 },
        'ran',
        20_000,
      );
      expect(ran.errors).toBe(0);
      for (let i = 0; i < 100 && b.seen.publishes.length < ran.sent; i++) await new Promise((r) => setTimeout(r, 20));
      for (const p of b.seen.publishes) expect(p.topic).toBe(rows.find((r) => r.id === p.clientId)!.topic);
      expect(new Set(b.seen.publishes.map((p) => p.topic)).size).toBe(5);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    },
  );
});
