import { describe, expect, it } from 'vitest';
import { adaptMessage } from '../index.js';
import type { DeviceContext } from '../wire.js';

const zlan: DeviceContext = { deviceId: 5, appId: 1, category: 4, uid: 'ZL-0001' };
const msg = (topic: string, payload: unknown) =>
  adaptMessage(zlan, topic, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)));

describe('serial gateway adapter (gw/<uid>/up)', () => {
  it('turns one register frame into points of sensor node<n>', () => {
    expect(msg('gw/ZL-0001/up', { node: 1, registers: { '40001': 231.5, '40002': 4.2, coil1: true } })).toEqual({
      ok: true,
      out: {
        states: [],
        ts: undefined,
        points: [
          { sensor: 'node1', configtype: 'data', param: '40001', subparam: '', datatype: 'number', value: 231.5 },
          { sensor: 'node1', configtype: 'data', param: '40002', subparam: '', datatype: 'number', value: 4.2 },
          { sensor: 'node1', configtype: 'data', param: 'coil1', subparam: '', datatype: 'boolean', value: true },
        ],
      },
    });
  });

  it('reads a poll cycle of several nodes with its time', () => {
    const r = msg('gw/zl-0001/up', [
      { node: 1, ts: 1704067200000, registers: { '30001': 1 } },
      { node: 2, registers: { '30001': 2 } },
    ]);
    expect(r.ok && r.out.ts).toBe(1704067200000);
    expect(r.ok && r.out.points.map((p) => [p.sensor, p.value])).toEqual([
      ['node1', 1],
      ['node2', 2],
    ]);
  });

  it('drops frames with wrong types or of another gateway', () => {
    expect(msg('gw/ZL-0001/up', { node: 1, registers: { '40001': 'tinggi' } })).toMatchObject({
      ok: false,
      reason: 'bad_shape',
    });
    expect(msg('gw/ZL-0001/up', { node: 300, registers: { '40001': 1 } })).toMatchObject({
      ok: false,
      reason: 'bad_shape',
    });
    expect(msg('gw/ZL-0001/up', { node: 1, registers: {} })).toMatchObject({ ok: false, reason: 'bad_shape' });
    expect(msg('gw/ZL-0002/up', { node: 1, registers: { a: 1 } })).toMatchObject({
      ok: false,
      reason: 'topic_mismatch',
    });
    expect(msg('gw/ZL-0001/up', '\u0001\u0002')).toMatchObject({ ok: false, reason: 'not_json' });
  });
});
