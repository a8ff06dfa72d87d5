// A broker thread with raw MQTT connections, as device stacks that write without waiting use it:
// - its own bound (issue 24): while the event loop is busy (a saturated or starved gateway), the thread stops reading
//   once it has handed over MAX_UNTAKEN_MESSAGES the event loop has not taken, instead of reading on and queueing
//   everything in between. So the event loop's next turn is a few milliseconds of ingest, not seconds (HTTP and
//   socket.io answer meanwhile), and the rest follows, in order, as the event loop takes it;
// - a session's publishes in order while the first one's authorisation is asked;
// - a persistent session's QoS 2 packet ids awaiting PUBREL kept across a reconnection (no duplicate);
// each with the connections read by the native reader and by Node's own reads (its fallback).
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqttPacket from 'mqtt-packet';
import { createBroker, type EmbeddedBroker } from '../src/platform/mqtt/broker.js';
import type { AckRelease } from '../src/platform/mqtt/types.js';
import { HANDOVER_RUN, MAX_UNTAKEN_MESSAGES } from '../src/platform/mqtt/handover-bound.js';
import { createLogger } from '../src/platform/log.js';
import { nativeFd } from '../src/platform/native-fd.js';
import { required } from '../src/platform/testing/required.js';
import { findUp, openDb } from '../src/platform/db/sqlite.js';
import { SessionStore } from '../src/platform/mqtt/persistence/session-store.js';
import * as schema from '../src/schema.js';
import { until } from '../src/platform/testing/until.js';

let broker: EmbeddedBroker | undefined;
/** the connections read by the native reader (native-reads.ts), or by Node's own reads (its fallback) */
let nativeReads = true;
/** the broker's mode: the fast path, or aedes as it is (MQTT_FAST_PATH=off, project `plain-aedes`; no native reader) */
const fastPath = process.env.MQTT_FAST_PATH !== 'off';
let socket: net.Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await broker?.close();
  broker = socket = undefined;
});

/** a raw MQTT 3.1.1 connection, signed in: what a device stack that writes without waiting sends */
async function signedIn(port: number, { clean = true, clientId = 'flood-1' } = {}): Promise<net.Socket> {
  const s = net.connect(port, '127.0.0.1');
  s.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean,
      clientId,
      keepalive: 60,
      username: 'dev1',
      password: Buffer.from('rahasia'),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    s.once('data', (d: Buffer) => (d[0] === 0x20 && d[3] === 0 ? resolve() : reject(new Error('CONNACK refused'))));
    s.once('error', reject);
  });
  return s;
}

const noLog = createLogger('silent').debug;

/** a broker whose one device may publish on d/1/data; what reaches the event loop, by the payload's `n` */
async function started(log = createLogger('silent'), more: Partial<Parameters<typeof createBroker>[0]> = {}) {
  // one thread unless a test asks for more (these tests read one thread's behaviour)
  broker = createBroker({
    host: '127.0.0.1',
    port: 0,
    log,
    debug: log.debug !== noLog,
    nativeReads,
    fastPath,
    threads: 1,
    ...more,
  });
  broker.addAuthority({
    authenticate: (_c, username, password) =>
      username === 'dev1' && password?.toString() === 'rahasia' ? { key: 'device:1', appId: 1 } : null,
    authorizePublish: (_id, topic) => topic === 'd/1/data',
    authorizeSubscribe: () => false,
  });
  const port = await broker.listen();
  const got: number[] = [];
  broker.on('message', (_identity, _topic, payload) => got.push(JSON.parse(payload.toString()).n));
  return { port, got };
}

const publish = (n: number, pad = '', qos: 0 | 1 | 2 = 0, messageId?: number, dup = false) =>
  mqttPacket.generate({
    cmd: 'publish',
    topic: 'd/1/data',
    payload: Buffer.from(JSON.stringify({ n, pad })),
    qos,
    retain: false,
    dup,
    ...(messageId !== undefined && { messageId }),
  });

/** the bytes a connection received, and a wait for a packet among them */
function received(s: net.Socket) {
  let bytes = Buffer.alloc(0);
  s.on('data', (d: Buffer) => (bytes = Buffer.concat([bytes, d])));
  return { has: (packet: number[]) => bytes.includes(Buffer.from(packet)), bytes: () => bytes };
}

/** a connection of `watcher` (a user allowed to subscribe) subscribed to `filter`, and what it received */
async function watching(port: number, filter: string) {
  const watcher = net.connect(port, '127.0.0.1');
  watcher.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: 'w',
      keepalive: 60,
      username: 'watcher',
    }),
  );
  const watched = received(watcher);
  watcher.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: filter, qos: 0 }] }));
  expect(await until(() => watched.has([0x90, 3, 0, 1, 0]))).toBe(true);
  return { watcher, watched };
}

describe.each(fastPath && nativeFd() ? [true, false] : [false])('native reads %s', (native) => {
  beforeEach(() => {
    nativeReads = native;
  });

  describe('a broker thread while the event loop is busy', () => {
    it('stops reading at its bound and hands the rest over, in order and complete, as the event loop takes it', async () => {
      const { port, got } = await started();
      socket = await signedIn(port);
      // the session's first publish on its topic asks the event loop (authorisation); later ones the thread passes alone
      socket.write(publish(-1));
      expect(await until(() => got.length === 1)).toBe(true);
      got.length = 0;

      // five times the bound of ~200-byte QoS 0 publishes, written at once
      const total = MAX_UNTAKEN_MESSAGES * 5;
      const pad = 'x'.repeat(180);
      const packets: Buffer[] = [];
      for (let n = 0; n < total; n++) packets.push(publish(n, pad));
      socket.write(Buffer.concat(packets));
      // the event loop is busy for a while (the broker thread is not): it reads what it may meanwhile
      const busyUntil = Date.now() + 1500;
      while (Date.now() < busyUntil);
      // what the event loop is handed in one turn: the count at the end of each turn (setImmediate: after the turn's
      // I/O, where the thread's runs arrive), until the first turn that received any
      let firstTurn = 0;
      const turn = () =>
        setImmediate(() => {
          if (got.length > 0) firstTurn = got.length;
          else turn();
        });
      turn();
      expect(await until(() => got.length === total, 30_000)).toBe(true);

      // at most the bound, plus what the read that reached it already held (a socket read of ~64 KiB: ~300 of these)
      expect(firstTurn).toBeGreaterThan(0);
      expect(firstTurn).toBeLessThanOrEqual(MAX_UNTAKEN_MESSAGES + HANDOVER_RUN + 400);
      // nothing lost, nothing out of order
      const wrong = got.findIndex((n, i) => n !== i);
      expect(
        wrong,
        `first out of place: ${got.slice(Math.max(0, wrong - 3), wrong + 5)}; ${wrong} is at ${got.indexOf(wrong)}, ${wrong + 1} at ${got.indexOf(wrong + 1)}; first turn ${firstTurn}`,
      ).toBe(-1);
    }, 60_000);

    it("keeps the order of a device's first publishes on a topic, read while the first one's authorisation was asked", async () => {
      const { port, got } = await started();
      socket = await signedIn(port);
      // one write: aedes reads and handles many of them before the event loop has answered whether d/1/data is allowed
      const total = 3000;
      const packets: Buffer[] = [];
      for (let n = 0; n < total; n++) packets.push(publish(n, 'x'.repeat(100)));
      socket.write(Buffer.concat(packets));
      expect(await until(() => got.length === total, 30_000)).toBe(true);
      const wrong = got.findIndex((n, i) => n !== i);
      expect(wrong, `first out of place: ${got.slice(Math.max(0, wrong - 3), wrong + 5)}`).toBe(-1);
    }, 60_000);
  });

  describe("a session's publishes, some on a topic somebody subscribes to", () => {
    it('hands them over in the order the device sent them (each topic allowed, QoS 1 and 0 mixed)', async () => {
      broker = createBroker({ host: '127.0.0.1', port: 0, log: createLogger('silent'), nativeReads, fastPath });
      broker.addAuthority({
        authenticate: (_c, username, password) =>
          username === 'dev1' && password?.toString() === 'rahasia'
            ? { key: 'device:1', appId: 1 }
            : username === 'watcher'
              ? { key: 'user:1', appId: 1 }
              : null,
        authorizePublish: (_id, topic) => topic === 'd/1/data' || topic === 'd/1/state',
        authorizeSubscribe: (id) => id.key === 'user:1',
      });
      const port = await broker.listen();
      const got: number[] = [];
      broker.on('message', (_identity, topic, payload) => {
        if (topic.startsWith('d/1/')) got.push(JSON.parse(payload.toString()).n);
      });
      // somebody watches d/1/state: its publishes go aedes' whole way (delivery), d/1/data's the hot path
      const { watcher } = await watching(port, 'd/1/state');
      socket = await signedIn(port);
      const device = received(socket);
      const packet = (n: number, topic: string, qos: 0 | 1) =>
        mqttPacket.generate({
          cmd: 'publish',
          topic,
          payload: Buffer.from(JSON.stringify({ n })),
          qos,
          retain: false,
          dup: false,
          ...(qos > 0 && { messageId: n + 1 }),
        });
      // each topic allowed first (its first publish asks the event loop)
      socket.write(Buffer.concat([packet(0, 'd/1/state', 1), packet(1, 'd/1/data', 1)]));
      expect(await until(() => got.length === 2), `first two: ${got}`).toBe(true);
      const total = 400;
      const packets: Buffer[] = [];
      for (let n = 2; n < total; n++)
        packets.push(packet(n, n % 3 === 0 ? 'd/1/state' : 'd/1/data', n % 2 === 0 ? 1 : 0));
      socket.write(Buffer.concat(packets));
      const all = await until(() => got.length === total);
      expect(all, `handed over ${got.length}: ${got.slice(-8)}`).toBe(true);
      watcher.destroy();
      const wrong = got.findIndex((n, i) => n !== i);
      expect(wrong, `first out of place: ${got.slice(Math.max(0, wrong - 3), wrong + 5)}`).toBe(-1);
      // and the device's PUBACKs come in the order of its PUBLISHes (MQTT-4.6.0-2)
      const qos1 = Array.from({ length: total - 2 }, (_, i) => i + 2).filter((n) => n % 2 === 0);
      const sentIds = [1, 2, ...qos1.map((n) => n + 1)];
      expect(await until(() => device.bytes().length >= sentIds.length * 4)).toBe(true);
      const acked: number[] = [];
      for (let at = 0; at + 4 <= device.bytes().length; at += 4) acked.push(device.bytes().readUInt16BE(at + 2));
      expect(acked).toEqual(sentIds);
    }, 30_000);
  });

  describe('acknowledgements', () => {
    it('writes a PUBACK (a PUBREC) once its message is stored, and closes unacknowledged the connection of one not stored', async () => {
      const { port } = await started();
      const holds: AckRelease[] = [];
      broker!.on('message', (_identity, _topic, _payload, qos, hold) => {
        if (qos > 0) holds.push(hold!());
      });
      socket = await signedIn(port);
      const answers = received(socket);
      socket.write(Buffer.concat([publish(1, '', 1, 5), publish(2, '', 2, 6)]));
      expect(await until(() => holds.length === 2)).toBe(true);
      // another connection signed in through the same thread and the event loop: an acknowledgement written before
      // its message was stored would have been written before that
      (await signedIn(port, { clientId: 'marker' })).destroy();
      expect(answers.has([0x40, 2, 0, 5]) || answers.has([0x50, 2, 0, 6])).toBe(false);
      holds[0]!();
      expect(await until(() => answers.has([0x40, 2, 0, 5]))).toBe(true);
      expect(answers.has([0x50, 2, 0, 6])).toBe(false);
      holds[1]!();
      expect(await until(() => answers.has([0x50, 2, 0, 6]))).toBe(true);
      const closed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
      socket.write(publish(3, '', 1, 7));
      expect(await until(() => holds.length === 3)).toBe(true);
      holds[2]!(false);
      await closed;
      expect(answers.has([0x40, 2, 0, 7])).toBe(false);
    });
  });

  describe('a publish outside the rights', () => {
    it('is acknowledged (QoS 1 PUBACK, QoS 2 PUBREC, PUBREL completed) and delivered to nobody, not even on this thread', async () => {
      const { port, got } = await started();
      broker!.addAuthority({
        authenticate: (_c, username) => (username === 'watcher' ? { key: 'user:1', appId: 1 } : null),
        authorizePublish: () => false,
        authorizeSubscribe: () => true,
      });
      const { watcher, watched } = await watching(port, 'd/#');
      socket = await signedIn(port);
      const answers = received(socket);
      const outside = (qos: 0 | 1 | 2, messageId?: number) =>
        mqttPacket.generate({
          cmd: 'publish',
          topic: 'd/2/data',
          payload: Buffer.from('{"n":-1}'),
          qos,
          retain: false,
          dup: false,
          ...(messageId !== undefined && { messageId }),
        });
      socket.write(Buffer.concat([outside(0), outside(1, 8), outside(2, 9), publish(1, '', 1, 10)]));
      expect(await until(() => watched.bytes().includes(Buffer.from('{"n":1'))), 'the allowed one').toBe(true);
      expect(watched.bytes().includes(Buffer.from('d/2/data'))).toBe(false);
      expect(await until(() => answers.has([0x40, 2, 0, 8]) && answers.has([0x50, 2, 0, 9]))).toBe(true);
      socket.write(mqttPacket.generate({ cmd: 'pubrel', messageId: 9 }));
      expect(await until(() => answers.has([0x70, 2, 0, 9]))).toBe(true);
      expect(got).toEqual([1]);
      watcher.destroy();
    });
  });

  describe("a persistent session's QoS 2 messages across a reconnection", () => {
    /** a QoS 2 message stored, its connection gone before the client heard the PUBREC, then sent again with DUP */
    async function resentAfterReconnect(clean: boolean) {
      const { port, got } = await started();
      const first = await signedIn(port, { clean: false, clientId: 'q2-device' });
      first.write(publish(1, '', 2, 7));
      expect(await until(() => got.length === 1)).toBe(true);
      first.destroy();
      // time for the broker thread to see the connection close before the same client id connects again
      await new Promise((r) => setTimeout(r, 100));
      socket = await signedIn(port, { clean, clientId: 'q2-device' });
      const answers = received(socket);
      socket.write(publish(1, '', 2, 7, true));
      // a QoS 0 marker after it: once it arrived, the copy had its chance to arrive too
      socket.write(publish(2));
      expect(await until(() => got.includes(2))).toBe(true);
      expect(await until(() => answers.has([0x50, 2, 0, 7]))).toBe(true);
      return { got, answers };
    }

    it('does not store the copy a persistent session sends again, answers it with PUBREC and its PUBREL with PUBCOMP', async () => {
      const { got, answers } = await resentAfterReconnect(false);
      expect(got).toEqual([1, 2]);
      socket!.write(mqttPacket.generate({ cmd: 'pubrel', messageId: 7 }));
      expect(await until(() => answers.has([0x70, 2, 0, 7]))).toBe(true);
    });

    it('takes the same packet id of a clean session as a new message (its state was discarded)', async () => {
      const { got } = await resentAfterReconnect(true);
      expect(got).toEqual([1, 1, 2]);
    });

    it('keeps the ids through the session store, whichever of two broker threads the client returns to', async () => {
      const db = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
      const { port, got } = await started(undefined, { threads: 2, store: new SessionStore(db.sqlite) });
      // eight returns: the kernel hands each connection to either thread, so some land on the other one
      for (let round = 1; round <= 8; round++) {
        const first = await signedIn(port, { clean: false, clientId: 'q2-wandering' });
        first.write(publish(round, '', 2, round));
        expect(await until(() => got.includes(round))).toBe(true);
        first.destroy();
        await until(() => broker!.metrics().away_sessions === 1);
        const again = await signedIn(port, { clean: false, clientId: 'q2-wandering' });
        const answers = received(again);
        again.write(publish(round, '', 2, round, true));
        again.write(mqttPacket.generate({ cmd: 'pubrel', messageId: round }));
        expect(await until(() => answers.has([0x70, 2, 0, round]))).toBe(true);
        again.destroy();
        await until(() => broker!.metrics().away_sessions === 1);
      }
      expect(got).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      await broker!.close();
      broker = undefined;
      db.close();
    });
  });
});

describe.skipIf(!fastPath || !required('the native reader (server/native)', nativeFd() !== null, 'npm run native'))(
  'the native reader on a broker thread',
  () => {
    it("takes a device's connection over once signed in: what it sent with its CONNECT and after reaches the event loop in order", async () => {
      nativeReads = true;
      const lines: string[] = [];
      const { port, got } = await started({ ...createLogger('silent'), debug: (m: string) => lines.push(m) });
      const s = (socket = net.connect(port, '127.0.0.1'));
      // the whole sequence in one write, as a device stack that does not wait for CONNACK sends it
      const connect = mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: 'native-1',
        keepalive: 60,
        username: 'dev1',
        password: Buffer.from('rahasia'),
      });
      // (aedes holds at most 42 packets read before the CONNECT is answered)
      s.write(Buffer.concat([connect, ...Array.from({ length: 20 }, (_, n) => publish(n))]));
      expect(await until(() => got.length === 20)).toBe(true);
      expect(await until(() => lines.some((l) => l.includes('native-1 read by the native reader')))).toBe(true);
      for (let n = 20; n < 250; n++) s.write(publish(n, 'x'.repeat(n)));
      expect(await until(() => got.length === 250)).toBe(true);
      expect(got).toEqual(Array.from({ length: 250 }, (_, n) => n));
    });
  },
);
