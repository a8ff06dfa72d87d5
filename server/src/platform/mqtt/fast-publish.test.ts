// The PUBLISH fast path against mqtt-packet's own parser: the same packets in the same order, whatever the chunking,
// with other packet types, packets split across chunks, re-entrant parses and malformed packets left to the original;
// and a packet over MQTT_MAX_PACKET_BYTES refused once its header is read, whatever the path and the chunking.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fastPublishParse, MQTT_MAX_PACKET_BYTES, PacketTooLarge, type PacketParser } from './fast-publish.js';
import { fixedHeader } from './testing/packets.js';

const requireInAedes = createRequire(createRequire(import.meta.url).resolve('aedes'));
const mqtt = requireInAedes('mqtt-packet') as {
  parser(): PacketParser & { on(e: string, fn: (x: unknown) => void): void };
  generate(p: object): Buffer;
};
/** the packets refused for their length, as the broker thread hears of them */
const refusals: number[] = [];
const fast = fastPublishParse(
  requireInAedes('mqtt-packet/packet') as new () => Record<string, unknown>,
  (requireInAedes('mqtt-packet/parser') as { prototype: PacketParser }).prototype.parse,
  (_parser, length) => refusals.push(length),
);

const publish = (topic: string, payload: string, qos: 0 | 1 | 2, extra: object = {}) =>
  mqtt.generate({
    cmd: 'publish',
    topic,
    payload: Buffer.from(payload),
    qos,
    retain: false,
    dup: false,
    ...(qos > 0 ? { messageId: 100 + topic.length } : {}),
    ...extra,
  });

/** a device's traffic: publishes of every QoS (one retained, one long enough for a 2-byte length), pings, a subscribe */
const stream = Buffer.concat([
  publish('d/1/data', '{"t":21.5}', 0),
  publish('d/1/data', '{"t":21.6}', 1),
  mqtt.generate({ cmd: 'pingreq' }),
  publish('tele/plug/SENSOR', JSON.stringify({ ENERGY: { Power: 12 }, pad: 'x'.repeat(300) }), 1, { retain: true }),
  publish('d/1/state', '{"on":true}', 2),
  mqtt.generate({ cmd: 'subscribe', messageId: 7, subscriptions: [{ topic: 'd/1/cmd', qos: 1 }] }),
  publish('gw/ab/up', '0102', 0, { dup: true }),
  publish('d/1/data', '', 1),
]);

type Seen = { packets: Record<string, unknown>[]; errors: string[] };
function parse(chunks: Buffer[], fastPath: boolean, reenter = false): Seen {
  const p = mqtt.parser();
  if (fastPath) p.parse = fast;
  const seen: Seen = { packets: [], errors: [] };
  const pending = [...chunks];
  p.on('packet', (x) => {
    const packet = x as Record<string, unknown>;
    seen.packets.push({
      ...packet,
      payload: packet.payload ? Buffer.from(packet.payload as Buffer).toString('hex') : packet.payload,
    });
    // as aedes does when a packet's handling completes at once: the socket is read again from inside the handler
    if (reenter && pending.length) p.parse(pending.shift()!);
  });
  p.on('error', (e) => seen.errors.push((e as Error).message));
  while (pending.length) p.parse(pending.shift()!);
  return seen;
}

/** `buf` cut at the given offsets */
const cut = (buf: Buffer, at: number[]) =>
  [0, ...at, buf.length].slice(1).map((end, i, all) => buf.subarray(i === 0 ? 0 : all[i - 1], end));

describe('PUBLISH fast path', () => {
  const expected = parse([stream], false);

  it('emits what mqtt-packet emits for a whole chunk', () => {
    expect(expected.packets.map((p) => p.cmd)).toEqual([
      'publish',
      'publish',
      'pingreq',
      'publish',
      'publish',
      'subscribe',
      'publish',
      'publish',
    ]);
    expect(parse([stream], true)).toEqual(expected);
  });

  it('and for every way of cutting the stream in two or three chunks, read again from inside the handler or not', () => {
    for (let a = 1; a < stream.length; a++) {
      expect(parse(cut(stream, [a]), true)).toEqual(expected);
      expect(parse(cut(stream, [a]), true, true)).toEqual(expected);
    }
    for (let a = 1; a < stream.length; a += 7)
      for (let b = a + 1; b < stream.length; b += 11) expect(parse(cut(stream, [a, b]), true, true)).toEqual(expected);
  });

  it('leaves malformed packets to the original parser, which reports them as before', () => {
    const bad = [
      Buffer.from([0x36, 0x05, 0x00, 0x01, 0x61, 0x00, 0x01]), // QoS bits 11
      Buffer.from([0x30, 0x03, 0x00, 0x05, 0x61]), // topic longer than the packet
      Buffer.from([0x32, 0x03, 0x00, 0x01, 0x61]), // QoS 1 without a message id
      Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x7f]), // a length of five bytes
    ];
    for (const b of bad) {
      const chunk = Buffer.concat([publish('d/1/data', '1', 0), b]);
      expect(parse([chunk], true)).toEqual(parse([chunk], false));
    }
  });
});

describe('the packet size limit', () => {
  const LIMIT = MQTT_MAX_PACKET_BYTES;
  /** a QoS 0 PUBLISH on d/1/data whose remaining length is exactly `length` */
  const publishOf = (length: number) => publish('d/1/data', 'x'.repeat(length - 2 - 'd/1/data'.length), 0);
  const remainingOf = (p: Record<string, unknown>) => p.length;
  /** what follows an announced length: bytes that would never end the packet */
  const noiseOf = (n: number) => Buffer.alloc(n, 0x5b);

  /** what a parser with the fast path sees of `chunks`, and what it still holds afterwards */
  function feed(chunks: Buffer[]) {
    const p = mqtt.parser();
    p.parse = fast;
    const seen: Seen & { refused: number[] } = { packets: [], errors: [], refused: [] };
    const before = refusals.length;
    p.on('packet', (x) => seen.packets.push(x as Record<string, unknown>));
    p.on('error', (e) =>
      seen.errors.push(e instanceof PacketTooLarge ? `too large: ${e.length}` : (e as Error).message),
    );
    for (const c of chunks) p.parse(c);
    seen.refused = refusals.slice(before);
    return { seen, held: p._list.length };
  }

  it('takes a PUBLISH of exactly the limit, whole or in pieces', () => {
    const atLimit = publishOf(LIMIT);
    for (const chunks of [[atLimit], cut(atLimit, [3]), cut(atLimit, [1, 64 * 1024, LIMIT - 5])]) {
      const { seen, held } = feed([...chunks, publish('d/1/data', '1', 0)]);
      expect(seen.errors).toEqual([]);
      expect(seen.packets.map(remainingOf)).toEqual([LIMIT, 'd/1/data'.length + 3]);
      expect(held).toBe(0);
    }
  });

  it('refuses a packet one byte over the limit as soon as its header is read, holds nothing and parses nothing more', () => {
    const over = publishOf(LIMIT + 1);
    const cases: [string, Buffer[]][] = [
      ['the whole packet in one chunk', [over]],
      ['after a whole PUBLISH in the same chunk', [Buffer.concat([publish('d/1/data', '1', 0), over])]],
      ['its header, then the rest', cut(over, [5, 64 * 1024, 512 * 1024])],
      ['its header cut in the middle of the length', cut(over, [2, 3, 70_000])],
      ['a backlog of several MB read at once', [Buffer.concat([over, publishOf(100), over, over])]],
    ];
    for (const [name, chunks] of cases) {
      const { seen, held } = feed([...chunks, publish('d/1/data', 'after', 0)]);
      // only the small whole PUBLISH before it, if any
      expect(seen.packets.map(remainingOf), name).toEqual(
        name.startsWith('after a whole') ? ['d/1/data'.length + 3] : [],
      );
      expect(seen.errors, name).toEqual([`too large: ${LIMIT + 1}`]);
      expect(seen.refused, name).toEqual([LIMIT + 1]);
      expect(held, name).toBe(0);
    }
  });

  it('refuses any packet type announcing more than the limit, CONNECT first, and 256 MB, before reading any of its body', () => {
    for (const [first, length] of [
      [0x10, LIMIT + 1],
      [0x10, 268_435_455],
      [0x30, 10 << 20],
      [0x32, 268_435_455],
      [0x82, 5 << 20],
      [0xc0, LIMIT * 2],
    ] as const) {
      const { seen, held } = feed([fixedHeader(first, length), noiseOf(64 * 1024), noiseOf(64 * 1024)]);
      expect(seen.errors).toEqual([`too large: ${length}`]);
      expect(seen.packets).toEqual([]);
      expect(held).toBe(0);
    }
  });

  it('refuses it when its header arrives while a packet handler reads the socket again', () => {
    const p = mqtt.parser();
    p.parse = fast;
    const errors: string[] = [];
    const packets: unknown[] = [];
    p.on('error', (e) => errors.push((e as Error).message));
    p.on('packet', (x) => {
      packets.push(x);
      if (packets.length > 1) return;
      p.parse(Buffer.concat([fixedHeader(0x30, 10 << 20), noiseOf(1000)]));
      p.parse(publish('d/1/data', '4', 0));
    });
    p.parse(Buffer.concat([publish('d/1/data', '1', 0), publish('d/1/data', '2', 0)]));
    p.parse(publish('d/1/data', '3', 0));
    expect(packets).toHaveLength(2);
    expect(errors).toEqual([new PacketTooLarge(10 << 20).message]);
    expect(p._list.length).toBe(0);
  });
});
