// The PUBLISH fast path against mqtt-packet's own parser: the same packets in the same order, whatever the chunking,
// with other packet types, packets split across chunks, re-entrant parses and malformed packets left to the original.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fastPublishParse, type PacketParser } from './fast-publish.js';

const requireInAedes = createRequire(createRequire(import.meta.url).resolve('aedes'));
const mqtt = requireInAedes('mqtt-packet') as { parser(): PacketParser & { on(e: string, fn: (x: unknown) => void): void }; generate(p: object): Buffer };
const fast = fastPublishParse(requireInAedes('mqtt-packet/packet') as new () => Record<string, unknown>, (requireInAedes('mqtt-packet/parser') as { prototype: PacketParser }).prototype.parse);

const publish = (topic: string, payload: string, qos: 0 | 1 | 2, extra: object = {}) => mqtt.generate({ cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false, ...(qos > 0 ? { messageId: 100 + topic.length } : {}), ...extra });

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
    seen.packets.push({ ...packet, payload: packet.payload ? Buffer.from(packet.payload as Buffer).toString('hex') : packet.payload });
    // as aedes does when a packet's handling completes at once: the socket is read again from inside the handler
    if (reenter && pending.length) p.parse(pending.shift()!);
  });
  p.on('error', (e) => seen.errors.push((e as Error).message));
  while (pending.length) p.parse(pending.shift()!);
  return seen;
}

/** `buf` cut at the given offsets */
const cut = (buf: Buffer, at: number[]) => [0, ...at, buf.length].slice(1).map((end, i, all) => buf.subarray(i === 0 ? 0 : all[i - 1], end));

describe('PUBLISH fast path', () => {
  const expected = parse([stream], false);

  it('emits what mqtt-packet emits for a whole chunk', () => {
    expect(expected.packets.map((p) => p.cmd)).toEqual(['publish', 'publish', 'pingreq', 'publish', 'publish', 'subscribe', 'publish', 'publish']);
    expect(parse([stream], true)).toEqual(expected);
  });

  it('and for every way of cutting the stream in two or three chunks, read again from inside the handler or not', () => {
    for (let a = 1; a < stream.length; a++) {
      expect(parse(cut(stream, [a]), true)).toEqual(expected);
      expect(parse(cut(stream, [a]), true, true)).toEqual(expected);
    }
    for (let a = 1; a < stream.length; a += 7) for (let b = a + 1; b < stream.length; b += 11) expect(parse(cut(stream, [a, b]), true, true)).toEqual(expected);
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
