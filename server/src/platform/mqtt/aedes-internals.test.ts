// The broker threads reach into aedes (broker.worker.ts and its thread-*.ts, read-gate.ts, native-reads.ts,
// held-acks.ts) on the fast path (MQTT_FAST_PATH=off runs aedes as it is but for read-gate.ts: thread-plain.ts): they
// replace its publish, pubrel, connect, unsubscribe and packet-dispatch handlers by module path, wrap aedes-packet's class and
// mqtt-packet's parser and writer, read the subscription matcher (`mq._matcher`) and drive a client's read loop
// (`_nextBatch`, `_parsingBatch`, `_paused`, `_parser`, `conn`). None of that is aedes' public interface, so the
// versions are pinned exactly (server/package.json, the root's overrides) and this test fails the moment one of them
// changes or a shape the threads rely on is not there any more: revisit the threads before moving a pin.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';

const requireHere = createRequire(import.meta.url);
const aedesMain = requireHere.resolve('aedes');
const requireInAedes = createRequire(aedesMain);
const versionOf = (name: string) =>
  (JSON.parse(fs.readFileSync(requireInAedes.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;

/** what the threads were written against */
const PINNED = {
  aedes: '0.51.3',
  'aedes-packet': '3.0.0',
  'aedes-persistence': '9.1.2',
  mqemitter: '6.0.2',
  'mqtt-packet': '9.0.2',
};

describe('the aedes internals the broker threads rely on', () => {
  it('are the pinned versions, as aedes resolves them', () => {
    expect(JSON.parse(fs.readFileSync(path.join(path.dirname(aedesMain), 'package.json'), 'utf8')).version).toBe(
      PINNED.aedes,
    );
    for (const name of ['aedes-packet', 'aedes-persistence', 'mqemitter', 'mqtt-packet'] as const)
      expect(versionOf(name), name).toBe(PINNED[name]);
    const server = JSON.parse(fs.readFileSync(requireHere.resolve('../../../package.json'), 'utf8'));
    expect(server.dependencies.aedes).toBe(PINNED.aedes);
    expect(server.devDependencies['mqtt-packet']).toBe(PINNED['mqtt-packet']);
  });

  it('has the handler modules replaced by path, each a function of (client, packet, done)', () => {
    for (const name of ['publish', 'pubrel', 'connect', 'unsubscribe']) {
      const handler = requireInAedes(path.join(path.dirname(aedesMain), 'lib', 'handlers', `${name}.js`));
      expect(typeof handler, name).toBe('function');
      expect((handler as (...a: unknown[]) => unknown).length, name).toBe(3);
    }
    expect(typeof requireInAedes(path.join(path.dirname(aedesMain), 'lib', 'handlers', 'index.js'))).toBe('function');
  });

  it("has mqtt-packet's writer, parser, packet class and parse method where the threads wrap them", () => {
    const mqttPacket = requireInAedes('mqtt-packet');
    expect(typeof mqttPacket.writeToStream).toBe('function');
    expect(typeof mqttPacket.parser).toBe('function');
    expect(typeof requireInAedes('mqtt-packet/packet')).toBe('function');
    expect(typeof requireInAedes('mqtt-packet/parser').prototype.parse).toBe('function');
  });

  it("builds aedes-packet's packets with the fields the wrapped class copies", () => {
    const Packet = requireInAedes('aedes-packet') as new (p: Record<string, unknown>) => Record<string, unknown>;
    const p = new Packet({ cmd: 'publish', topic: 'a/b', payload: Buffer.from('x'), qos: 1, retain: true });
    expect(p).toMatchObject({ cmd: 'publish', topic: 'a/b', qos: 1, retain: true, dup: false });
    expect(Buffer.from(p.payload as Buffer).toString()).toBe('x');
    expect(Object.keys(p)).toEqual(
      expect.arrayContaining([
        'cmd',
        'brokerId',
        'brokerCounter',
        'topic',
        'payload',
        'qos',
        'retain',
        'dup',
        'messageId',
      ]),
    );
  });

  it("keeps the subscription matcher at mq._matcher and a client's read loop fields", async () => {
    const Aedes = requireInAedes(aedesMain) as { createBroker?: () => unknown } & (new () => unknown);
    const broker = (Aedes.createBroker ? Aedes.createBroker() : new Aedes()) as {
      mq: { _matcher: Record<string, unknown> };
      handle(conn: Duplex): Record<string, unknown>;
      close(cb: () => void): void;
    };
    try {
      for (const method of ['match', 'add', 'remove', 'clear'])
        expect(typeof broker.mq._matcher[method], method).toBe('function');
      const conn = new Duplex({ read() {}, write: (_c, _e, cb) => cb() });
      const client = broker.handle(conn);
      expect(client.conn).toBe(conn);
      expect(typeof client._nextBatch).toBe('function');
      expect(conn.listeners('readable')).toContain(client._nextBatch);
      expect(typeof client._parsingBatch).toBe('number');
      expect(typeof (client._parser as { parse?: unknown }).parse).toBe('function');
      (client as { pause(): void }).pause();
      expect(client._paused).toBe(true);
      conn.destroy();
    } finally {
      await new Promise<void>((r) => broker.close(r));
    }
  });
});
