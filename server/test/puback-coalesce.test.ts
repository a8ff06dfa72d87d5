// PUBACKs under load share a write (held-acks.ts), through a real broker thread and a real MQTT connection: written at
// once while the thread is quiet; once it releases more than its threshold a second, a PUBACK waits up to the
// coalescing time for the connection's next ones; and at once again after the load is gone. Every publish is
// acknowledged, in order, whichever way.
import net from 'node:net';
import mqttPacket from 'mqtt-packet';
import { afterEach, expect, it } from 'vitest';
import { createBroker, type EmbeddedBroker } from '../src/platform/mqtt/broker.js';
import { createLogger } from '../src/platform/log.js';
import { until } from '../src/platform/testing/until.js';

const WAIT_MS = 400;
let broker: EmbeddedBroker | undefined;
let socket: net.Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await broker?.close();
  broker = socket = undefined;
});

it('writes PUBACKs at once when quiet, lets them wait for each other under load, and at once again after it', async () => {
  broker = createBroker({
    host: '127.0.0.1',
    port: 0,
    log: createLogger('silent'),
    ackCoalesce: { ms: WAIT_MS, abovePerS: 100 },
  });
  broker.addAuthority({
    authenticate: (_c, username) => (username === 'dev1' ? { key: 'device:1', appId: 1 } : null),
    authorizePublish: (_id, topic) => topic === 'd/1/data',
    authorizeSubscribe: () => false,
  });
  // stored at once: each message's hold is let go on the next turn, as a commit would
  broker.on('message', (_identity, _topic, _payload, _qos, hold) => {
    const release = hold?.();
    setImmediate(() => release?.());
  });
  const port = await broker.listen();

  const s = (socket = net.connect(port, '127.0.0.1'));
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const acked: number[] = [];
  const ackedAt = new Map<number, number>();
  let connacked = false;
  parser.on('packet', (p) => {
    if (p.cmd === 'connack') connacked = true;
    if (p.cmd === 'puback') {
      acked.push(p.messageId!);
      ackedAt.set(p.messageId!, performance.now());
    }
  });
  s.on('data', (d) => parser.parse(d));
  s.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: 'c1',
      keepalive: 60,
      username: 'dev1',
    }),
  );
  await until(() => connacked);

  let next = 1;
  const sentAt = new Map<number, number>();
  const send = () => {
    const id = next++;
    sentAt.set(id, performance.now());
    s.write(
      mqttPacket.generate({
        cmd: 'publish',
        topic: 'd/1/data',
        payload: Buffer.from(`{"n":${id}}`),
        qos: 1,
        messageId: id,
        retain: false,
        dup: false,
      }),
    );
    return id;
  };
  const took = async (id: number) => {
    await until(() => ackedAt.has(id), 5000);
    return ackedAt.get(id)! - sentAt.get(id)!;
  };

  // quiet: at once
  expect(await took(send())).toBeLessThan(WAIT_MS / 2);

  // 400 a second for 1.5 s: past the threshold, so the thread coalesces
  const loadEnds = performance.now() + 1500;
  while (performance.now() < loadEnds) {
    for (let k = 0; k < 4; k++) send();
    await new Promise((r) => setTimeout(r, 10));
  }
  await until(() => acked.length === next - 1, 5000);
  const waited = await took(send());
  expect(waited).toBeGreaterThanOrEqual(WAIT_MS * 0.75);
  expect(waited).toBeLessThan(WAIT_MS * 3);

  // a second and more without load: at once again
  await new Promise((r) => setTimeout(r, 1300));
  expect(await took(send())).toBeLessThan(WAIT_MS / 2);

  // every publish acknowledged, once, in the order sent
  expect(acked).toEqual(Array.from({ length: next - 1 }, (_, k) => k + 1));
}, 20_000);
