// No acknowledgement waits for a timer (held-acks.ts), through a real broker thread and real MQTT connections: while
// one client floods the thread, a client that waits for each PUBACK before its next publish (window 1, as Paho
// embedded or any SDK with one message in flight) still gets each PUBACK as soon as its message is "stored" (here: the
// turn after it arrives, as a commit would release it). Every publish is acknowledged, once, in order.
import type net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createBroker, type EmbeddedBroker } from '../src/platform/mqtt/broker.js';
import { createLogger } from '../src/platform/log.js';
import { until } from '../src/platform/testing/until.js';
import { connectRaw } from '../src/platform/mqtt/testing/raw-client.js';

let broker: EmbeddedBroker | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await broker?.close();
  broker = undefined;
});

/** a raw MQTT 3.1.1 client: `publish` sends a QoS 1 message, `acked` lists the PUBACK ids, `ackedAt` their times */
async function client(port: number, username: string) {
  const c = await connectRaw(port, { clientId: username, username });
  sockets.push(c.socket);
  const acked: number[] = [];
  const ackedAt = new Map<number, number>();
  c.onPacket((p) => {
    if (p.cmd !== 'puback') return;
    acked.push(p.messageId!);
    ackedAt.set(p.messageId!, performance.now());
  });
  let next = 1;
  return {
    acked,
    ackedAt,
    publish(topic: string) {
      const id = next;
      next = (next % 65535) + 1;
      c.send({
        cmd: 'publish',
        topic,
        payload: Buffer.from(`{"n":${id}}`),
        qos: 1,
        messageId: id,
        retain: false,
        dup: false,
      });
      return id;
    },
  };
}

it('acknowledges a window-1 client at the pace of its commits while another client floods the thread', async () => {
  broker = createBroker({ host: '127.0.0.1', port: 0, log: createLogger('silent') });
  broker.addAuthority({
    authenticate: (_c, username) =>
      username === 'dev1' || username === 'dev2' ? { key: `device:${username}`, appId: 1 } : null,
    authorizePublish: (id, topic) => topic === `d/${id.key.slice(7)}/data`,
    authorizeSubscribe: () => false,
  });
  // stored at once: each message's hold is let go on the next turn, as a commit would
  broker.on('message', (_identity, _topic, _payload, _qos, hold) => {
    const release = hold?.();
    setImmediate(() => release?.());
  });
  const port = await broker.listen();
  const flood = await client(port, 'dev1');
  const closed = await client(port, 'dev2');

  // the flood: 2,000 QoS 1 messages a second, in 10 ms bursts, for 2 s
  let flooded = 0;
  const floodEnds = performance.now() + 2000;
  const flooding = (async () => {
    while (performance.now() < floodEnds) {
      for (let k = 0; k < 20; k++) (flood.publish('d/dev1/data'), flooded++);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();

  // the closed-loop client: its next publish only after the PUBACK of the last one
  const latencies: number[] = [];
  while (performance.now() < floodEnds) {
    const sent = performance.now();
    const id = closed.publish('d/dev2/data');
    await until(() => closed.ackedAt.has(id), 5000, 1);
    latencies.push(closed.ackedAt.get(id)! - sent);
    closed.ackedAt.delete(id);
  }
  await flooding;
  await until(() => flood.acked.length === flooded, 5000);

  // a PUBACK held for a 200 ms timer would allow at most 10 round trips in 2 s; at the pace of commits, hundreds
  expect(latencies.length).toBeGreaterThan(100);
  latencies.sort((x, y) => x - y);
  expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(20);
  // every publish acknowledged, once, in the order sent
  expect(closed.acked).toEqual(Array.from({ length: latencies.length }, (_, k) => k + 1));
  expect(flood.acked).toEqual(Array.from({ length: flooded }, (_, k) => k + 1));
}, 20_000);
