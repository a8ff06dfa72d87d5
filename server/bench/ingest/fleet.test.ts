// The ingest benchmark's fleets against a bare aedes broker on a loopback port: the C fleet (fleet.c) and the Node one
// connect one client per device, publish the same 3-point payloads on d/<n>/data at the asked rate, have every QoS 1
// publish acknowledged and end with DISCONNECT.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBroker } from 'aedes';
import { nativeFleetAvailable, startFleet, type Fleet } from './fleet.js';

interface Seen {
  clients: { id: string; username?: string }[];
  publishes: { clientId: string; topic: string; qos: number; payload: string }[];
  disconnects: number;
}

async function broker(): Promise<{ port: number; seen: Seen; close(): Promise<void> }> {
  const seen: Seen = { clients: [], publishes: [], disconnects: 0 };
  const aedes = createBroker();
  aedes.authenticate = (client, username, _password, done) => {
    seen.clients.push({ id: client.id, username });
    done(null, true);
  };
  aedes.on('publish', (packet, client) => {
    if (client) seen.publishes.push({ clientId: client.id, topic: packet.topic, qos: packet.qos, payload: packet.payload.toString() });
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
  it.skipIf(kind === 'native' && !nativeFleetAvailable())('connects one client per device, publishes the asked rate at QoS 0 and 1 with every PUBACK read, and disconnects', async () => {
    fleet = startFleet(15, kind);
    const b = await broker();
    open = b;
    expect(fleet.kind).toBe(kind);

    const conn = await fleet.ask<{ connected: number; failed: number }>({ cmd: 'connect', port: b.port, devices: DEVICES, concurrency: 5 }, 'connected', 20_000);
    expect(conn).toMatchObject({ connected: DEVICES, failed: 0 });
    expect(b.seen.clients.map((c) => `${c.id}/${c.username}`).sort()).toEqual(Array.from({ length: DEVICES }, (_, i) => `bc-${i}/bench-${i}`).sort());

    const before = Date.now();
    for (const qos of [0, 1] as const) {
      const from = b.seen.publishes.length;
      const ran = await fleet.ask<{ sent: number; errors: number; seconds: number }>({ cmd: 'run', qos, messagesPerSecond: 200, seconds: 1 }, 'ran', 20_000);
      expect(ran.errors).toBe(0);
      // paced: about 200 in the second (the last tick may fall just short)
      expect(ran.sent).toBeGreaterThanOrEqual(190);
      expect(ran.sent).toBeLessThanOrEqual(200);
      for (let i = 0; i < 100 && b.seen.publishes.length - from < ran.sent; i++) await new Promise((r) => setTimeout(r, 20));
      const got = b.seen.publishes.slice(from);
      expect(got).toHaveLength(ran.sent);
      // round-robin over the devices, each on its own topic
      expect(new Set(got.map((p) => p.clientId)).size).toBe(DEVICES);
      for (const p of got) {
        expect(p.topic).toBe(`d/${p.clientId.slice(3)}/data`);
        expect(p.qos).toBe(qos);
        const body = JSON.parse(p.payload) as { env: { data: { temperature: number; humidity: number } }; bench: { data: { sent_at: number } } };
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
  });
});
