import { describe, expect, it } from 'vitest';
import { MessagePacker, unpackMessages } from './broker-wire.js';

const unpackAll = (buf: ArrayBuffer) => {
  const out: { sid: number; qos: number; retain?: true; topic: string; payload: string }[] = [];
  unpackMessages(buf, (sid, qos, retain, topic, payload) =>
    out.push({ sid, qos, ...(retain ? { retain } : {}), topic, payload: payload.toString() }),
  );
  return out;
};

describe('packed broker messages', () => {
  it('hands over every message in order with its session, QoS, retain flag, topic and payload', () => {
    const p = new MessagePacker();
    p.add(1, 0, false, 'd/1/data', Buffer.from('{"a":1}'));
    p.add(4_000_000_000, 1, false, 'tele/plug-ü/SENSOR', Buffer.from('{"ENERGY":{}}'));
    p.add(7, 1, true, 'd/7/state', Buffer.alloc(0));
    expect(p.count).toBe(3);
    expect(unpackAll(p.take()!)).toEqual([
      { sid: 1, qos: 0, topic: 'd/1/data', payload: '{"a":1}' },
      { sid: 4_000_000_000, qos: 1, topic: 'tele/plug-ü/SENSOR', payload: '{"ENERGY":{}}' },
      { sid: 7, qos: 1, retain: true, topic: 'd/7/state', payload: '' },
    ]);
  });

  it('grows past its first buffer and starts afresh after a take', () => {
    const p = new MessagePacker();
    const big = Buffer.alloc(100_000, 7);
    for (let i = 0; i < 5; i++) p.add(i, 0, false, `d/${i}/data`, big);
    const first = unpackAll(p.take()!);
    expect(first.map((m) => [m.sid, m.payload.length])).toEqual([0, 1, 2, 3, 4].map((i) => [i, 100_000]));
    expect(p.take()).toBeNull();
    p.add(9, 0, false, 'd/9/data', Buffer.from('x'));
    expect(unpackAll(p.take()!)).toEqual([{ sid: 9, qos: 0, topic: 'd/9/data', payload: 'x' }]);
  });

  it('takes exactly the bytes written (a transferable buffer of its own)', () => {
    const p = new MessagePacker();
    p.add(1, 0, false, 'a', Buffer.from('b'));
    expect(p.take()!.byteLength).toBe(11 + 1 + 1);
  });

  it('refuses a run cut short instead of reading past it', () => {
    const p = new MessagePacker();
    p.add(1, 0, false, 'd/1/data', Buffer.from('payload'));
    const buf = p.take()!;
    expect(() => unpackAll(buf.slice(0, buf.byteLength - 2))).toThrow(/cut short/);
  });
});
