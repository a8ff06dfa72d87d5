import { describe, expect, it } from 'vitest';
import { adaptMessage, MAX_PAYLOAD_BYTES } from '../index.js';
import type { DeviceContext } from '../wire.js';

const node: DeviceContext = { deviceId: 42, appId: 1, category: 8 };
const msg = (topic: string, payload: unknown, ctx = node) =>
  adaptMessage(ctx, topic, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)));

describe('generic MQTT / Sentra / Dummy adapter', () => {
  it('turns d/<id>/data into points keeping each datatype, with subparams for nested params', () => {
    const r = msg('d/42/data', {
      env: {
        data: { temperature: 21.5, door: true, label: 'ruang server', acc: { x: 0.1, y: -0.2 }, history: [1, 2, 3] },
      },
      gps: { config: { interval: 30 } },
    });
    expect(r).toEqual({
      ok: true,
      out: {
        states: [],
        ts: undefined,
        points: [
          { sensor: 'env', configtype: 'data', param: 'temperature', subparam: '', datatype: 'number', value: 21.5 },
          { sensor: 'env', configtype: 'data', param: 'door', subparam: '', datatype: 'boolean', value: true },
          {
            sensor: 'env',
            configtype: 'data',
            param: 'label',
            subparam: '',
            datatype: 'string',
            value: 'ruang server',
          },
          { sensor: 'env', configtype: 'data', param: 'acc', subparam: 'x', datatype: 'number', value: 0.1 },
          { sensor: 'env', configtype: 'data', param: 'acc', subparam: 'y', datatype: 'number', value: -0.2 },
          { sensor: 'env', configtype: 'data', param: 'history', subparam: '', datatype: 'array', value: [1, 2, 3] },
          { sensor: 'gps', configtype: 'config', param: 'interval', subparam: '', datatype: 'number', value: 30 },
        ],
      },
    });
  });

  it('uses the datatypes the sensor configuration declares (object, image, datetime)', () => {
    const declared: Record<string, string> = {
      'cam/data/snapshot/': 'image',
      'cam/data/meta/': 'object',
      'cam/data/taken/': 'datetime',
    };
    const ctx: DeviceContext = {
      ...node,
      declaredDatatype: (s, c, p, sp) => declared[`${s}/${c}/${p}/${sp}`] as never,
    };
    const r = msg(
      'd/42/data',
      {
        cam: {
          data: { snapshot: 'https://cdn.contoh.id/a.jpg', meta: { w: 640, h: 480 }, taken: '2024-01-01T00:00:00Z' },
        },
      },
      ctx,
    );
    expect(r.ok && r.out.points.map((p) => [p.param, p.subparam, p.datatype, p.value])).toEqual([
      ['snapshot', '', 'image', 'https://cdn.contoh.id/a.jpg'],
      ['meta', '', 'object', { w: 640, h: 480 }],
      ['taken', '', 'datetime', '2024-01-01T00:00:00Z'],
    ]);
  });

  it('reads the device time from _ts', () => {
    const r = msg('d/42/data', { _ts: 1704067200, env: { data: { t: 1 } } });
    expect(r.ok && r.out.ts).toBe(1704067200000);
  });

  it('turns d/<id>/state into states, null meaning inactive', () => {
    expect(msg('d/42/state', { mode: 'auto', alarm: null, setpoint: 22 })).toEqual({
      ok: true,
      out: {
        points: [],
        ts: undefined,
        states: [
          { key: 'mode', value: 'auto' },
          { key: 'alarm', value: null },
          { key: 'setpoint', value: 22 },
        ],
      },
    });
  });

  it('drops what is not JSON, has the wrong shape, is too large or names another device', () => {
    expect(msg('d/42/data', 'suhu=21')).toMatchObject({ ok: false, reason: 'not_json' });
    expect(msg('d/42/data', { env: 21.5 })).toMatchObject({ ok: false, reason: 'bad_shape' });
    expect(msg('d/42/data', { env: { data: 3 } })).toMatchObject({ ok: false, reason: 'bad_shape' });
    expect(msg('d/42/data', {})).toMatchObject({ ok: false, reason: 'bad_shape' });
    expect(msg('d/42/data', { ['x'.repeat(65)]: { data: { t: 1 } } })).toMatchObject({
      ok: false,
      reason: 'bad_shape',
    });
    expect(msg('d/42/data', { _ts: 'yesterday', env: { data: { t: 1 } } })).toMatchObject({
      ok: false,
      reason: 'bad_value',
    });
    for (const other of ['d/43/data', 'd/042/data', 'd//data', 'd/4 2/data', 'd/42.0/data', 'd/420/data', 'd/4/data'])
      expect(msg(other, { env: { data: { t: 1 } } }), other).toMatchObject({ ok: false, reason: 'topic_mismatch' });
    for (const unknown of ['d/42', 'x/42/data', 'D/42/data'])
      expect(msg(unknown, { env: { data: { t: 1 } } }), unknown).toMatchObject({ ok: false, reason: 'unknown_topic' });
    expect(msg('d/42/', { env: { data: { t: 1 } } })).toEqual({ ok: true, out: { points: [], states: [] } });
    expect(adaptMessage(node, 'd/42/data', Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 32))).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
    expect(msg('d/42/cmd/res', { id: 'x', ok: true })).toEqual({ ok: true, out: { points: [], states: [] } });
  });
});
