// Data messages read against the device's template must give exactly what the full way (JSON.parse and the walk) gives,
// and must go the full way whenever the template cannot say.
import { describe, expect, it } from 'vitest';
import type { DeviceContext } from '../wire.js';
import { fromTemplate, MAX_UNFIT, numberSlots, readNumber } from './template.js';
import { adaptGeneric } from './uplink.js';

const TOPIC = 'd/42/data';
const bytes = (s: string) => Buffer.from(s);
/** the full way: a context never seen, so it has no template */
const full = (ctx: DeviceContext, payload: string) =>
  adaptGeneric({ ...ctx, dataTemplate: undefined }, TOPIC, bytes(payload));

function primed(first: string, ctx: DeviceContext = { deviceId: 42, appId: 1, category: 8 }) {
  adaptGeneric(ctx, TOPIC, bytes(first));
  return ctx;
}

describe('readNumber', () => {
  const value = (s: string) => {
    const p = bytes(s + ',');
    const end = readNumber(p, 0);
    return end < 0 ? undefined : (expect(end).toBe(s.length), JSON.parse(s) as number);
  };
  it('reads what JSON.parse reads, bit for bit, for literals of up to 15 digits without an exponent', () => {
    const cases = ['0', '-0', '7', '-12', '21.5', '0.1', '-0.2', '123456789012345', '0.000000000000001', '99.99'];
    for (let k = 0; k < 2000; k++) cases.push((Math.random() * 10 ** ((k % 12) - 3)).toFixed(k % 8));
    for (const s of cases) {
      const p = bytes(s + '}');
      const end = readNumber(p, 0);
      if (s.replace(/[-.]/g, '').replace(/^0+(?=\d)/, '').length > 15) continue;
      expect(end, s).toBe(s.length);
      const read = fromBytes(s);
      expect(Object.is(read, JSON.parse(s)), `${s}: ${read} vs ${JSON.parse(s)}`).toBe(true);
    }
    expect(value('1e3')).toBeUndefined();
    expect(value('1234567890123456')).toBeUndefined();
  });
  it('refuses what is not a JSON number', () => {
    for (const s of ['-', '+1', '.5', '1.', '-.5', 'x', '']) expect(readNumber(bytes(s + ','), 0), s).toBe(-1);
    // a leading zero ends the literal: the bytes after it must then fit the template, and do not
    expect(readNumber(bytes('01,'), 0)).toBe(1);
  });
});

/** the value readNumber gives, through a template of one number */
function fromBytes(literal: string): number | undefined {
  const ctx = primed('{"s":{"c":{"p":1}}}');
  return fromTemplate(ctx, bytes(`{"s":{"c":{"p":${literal}}}}`))?.points[0]?.value as number | undefined;
}

describe('data messages read against a template', () => {
  /** the message with these numbers (written into their places, so that one number never lands inside another) */
  const message = (t: string, h: string, x: string, y: string, sent: string) =>
    `{"env":{"data":{"temperature":${t},"humidity":${h},"label":"ruang","door":true,"acc":{"x":${x},"y":${y}}}},"bench":{"data":{"sent_at":${sent}}}}`;
  const base = message('21.5', '40', '0.1', '-2', '1764300000000');

  it('gives what the full way gives for the same shape with new numbers, and takes the fast way for them', () => {
    const ctx = primed(base);
    for (let k = 0; k < 500; k++) {
      const next = message(
        (Math.random() * 100 - 50).toFixed(k % 4),
        String(k),
        String(Math.round(Math.random() * 1e6) / 1e3),
        String(-k),
        String(1764300000000 + k),
      );
      expect(fromTemplate(ctx, bytes(next)), next).toBeDefined();
      expect(adaptGeneric(ctx, TOPIC, bytes(next))).toEqual(full(ctx, next));
    }
  });

  it('goes the full way, with its answer, for anything else', () => {
    const ctx = primed(base);
    const variants = [
      base.replace('"ruang"', '"gudang"'), // a string changed
      base.replace('true', 'false'),
      base.replace('21.5', '"21.5"'), // a number became a string
      base.replace('21.5', 'null'),
      base.replace('21.5', '2.15e1'), // an exponent
      base.replace('21.5', '1e999'), // out of range: refused
      base.replace('21.5', '01'), // not JSON
      base.replace('21.5', '-'),
      base.replace('21.5', '21.'),
      base.replace('21.5', '1234567890.1234567'), // more than 15 digits
      base.replace('40', '40 '), // whitespace
      base.replace('"humidity"', '"humid"'),
      base + ' ',
      base.slice(0, -1),
      base.replace('"acc":{"x":0.1,"y":-2}', '"acc":{"x":0.1}'),
      '{}',
      '',
    ];
    for (const v of variants) {
      expect(fromTemplate(ctx, bytes(v)), v).toBeUndefined();
      expect(adaptGeneric(ctx, TOPIC, bytes(v))).toEqual(full(ctx, v));
      primed(base, ctx);
    }
  });

  it('reads the device time from _ts, and refuses an out-of-range one as the full way does', () => {
    const withTs = '{"_ts":1764300000,"env":{"data":{"t":1}}}';
    const ctx = primed(withTs);
    for (const ts of ['1764300001', '1764300000123', '0', '-5']) {
      const next = withTs.replace('1764300000', ts);
      expect(adaptGeneric(ctx, TOPIC, bytes(next))).toEqual(full(ctx, next));
    }
    expect(full(ctx, withTs.replace('1764300000', '0'))).toMatchObject({ ok: false, reason: 'bad_value' });
    const iso = '{"_ts":"2026-11-28T01:00:00Z","env":{"data":{"t":1}}}';
    primed(iso, ctx);
    expect(fromTemplate(ctx, bytes(iso.replace('"t":1', '"t":2')))).toMatchObject({
      ts: Date.parse('2026-11-28T01:00:00Z'),
    });
  });

  it('keeps the datatypes the sensor configuration declares', () => {
    const ctx = primed('{"s":{"c":{"when":1764300000000,"n":5}}}', {
      deviceId: 42,
      appId: 1,
      category: 8,
      declaredDatatype: (_s, _c, p) => (p === 'when' ? 'datetime' : undefined),
    });
    const next = '{"s":{"c":{"when":1764300000999,"n":6}}}';
    expect(fromTemplate(ctx, bytes(next))?.points.map((p) => [p.datatype, p.value])).toEqual([
      ['datetime', 1764300000999],
      ['number', 6],
    ]);
  });

  it('makes no template when key order or numbers would not map onto the points', () => {
    const none = [
      '{"s":{"c":{"1":5,"a":6}}}', // a key of digits iterates first
      '{"s":{"c":{"a":"x","b":1,"a":2}}}', // a duplicate key
      '{"s":{"c":{"te\\u006dp":1}}}', // an escape in a key
      '{"s":{"c":{"h":[1,2,3]}}}', // numbers in an array
    ];
    for (const first of none) {
      const ctx = primed(first);
      expect(fromTemplate(ctx, bytes(first)), first).toBeUndefined();
      expect(adaptGeneric(ctx, TOPIC, bytes(first))).toEqual(full(ctx, first));
    }
    expect(numberSlots(bytes('{"a":{"b":[1,-2.5e3]},"_ts":5}'))).toEqual({ slots: [11, 12, 13, 19, 28, 29], ts: 2 });
  });

  it('gives up on a device whose messages never fit, until its context is read again', () => {
    const ctx = primed('{"s":{"c":{"v":1,"label":"a0"}}}');
    for (let k = 1; k <= MAX_UNFIT + 2; k++) adaptGeneric(ctx, TOPIC, bytes(`{"s":{"c":{"v":1,"label":"a${k}"}}}`));
    const last = `{"s":{"c":{"v":1,"label":"a${MAX_UNFIT + 2}"}}}`;
    expect(fromTemplate(ctx, bytes(last))).toBeUndefined(); // the last message did not become the template
    const fresh = primed(last, { ...ctx, dataTemplate: undefined });
    expect(fromTemplate(fresh, bytes(last.replace('"v":1', '"v":2')))).toBeDefined();
  });
});
