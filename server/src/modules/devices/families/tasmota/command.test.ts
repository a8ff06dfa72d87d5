import { describe, expect, it } from 'vitest';
import type { DeviceRow } from '../../devices.table.js';
import { matchReply } from '../index.js';
import { tasmotaTook } from './command.js';

describe('Tasmota replies', () => {
  it('take the answer as success only when it shows the value sent, where it can be checked', () => {
    expect([
      tasmotaTook(true, 'ON'),
      tasmotaTook('on', 'ON'),
      tasmotaTook(1, 'ON'),
      tasmotaTook(false, 'OFF'),
      tasmotaTook('0', 'OFF'),
    ]).toEqual([true, true, true, true, true]);
    // the plug stayed as it was (power lock, interlock)
    expect([tasmotaTook(true, 'OFF'), tasmotaTook('OFF', 'ON')]).toEqual([false, false]);
    // a toggle or blink cannot be checked against the new state
    expect([tasmotaTook('TOGGLE', 'OFF'), tasmotaTook(2, 'ON'), tasmotaTook('blink', 'ON')]).toEqual([
      true,
      true,
      true,
    ]);
    expect([
      tasmotaTook(40, 40),
      tasmotaTook('40', 40),
      tasmotaTook(40, 100),
      tasmotaTook('+', 41),
      tasmotaTook({ a: 1 }, 'x'),
    ]).toEqual([true, true, false, true, true]);
  });

  it('answer a refusal for a RESULT naming the command with another value, and nothing for other commands', () => {
    const row = { id: 5, appId: 1, category: 9, topic: 'plug5' } as unknown as DeviceRow;
    const cmd = { sensor: 'relay', configtype: 'config', param: 'Power', value: true };
    const reply = (body: unknown) => matchReply(row, 'c1', cmd, 'stat/plug5/RESULT', Buffer.from(JSON.stringify(body)));
    expect(reply({ POWER: 'ON' })).toEqual({ ok: true, reply: { POWER: 'ON' } });
    expect(reply({ POWER: 'OFF' })).toEqual({ ok: false, code: 'unchanged', reply: { POWER: 'OFF' } });
    expect(reply({ Dimmer: 20 })).toBeUndefined();
    expect(reply({ Command: 'Unknown' })).toMatchObject({ ok: false, code: 'Unknown' });
  });

  it('take stat/<topic>/POWER<n> alone (SetOption4 1, no RESULT) as the answer of that POWER command only', () => {
    const row = { id: 5, appId: 1, category: 9, topic: 'plug5' } as unknown as DeviceRow;
    const on = { sensor: 'relay', configtype: 'config', param: 'Power', value: true };
    const stat = (param: string, topic: string, text: string) =>
      matchReply(row, 'c1', { ...on, param }, topic, Buffer.from(text));
    expect(stat('Power', 'stat/plug5/POWER', 'ON')).toEqual({ ok: true, reply: { POWER: 'ON' } });
    expect(stat('POWER2', 'stat/plug5/POWER2', 'OFF')).toEqual({
      ok: false,
      code: 'unchanged',
      reply: { POWER2: 'OFF' },
    });
    // another relay's state, another device's topic, or text that is no state answer nothing
    expect(stat('Power', 'stat/plug5/POWER2', 'ON')).toBeUndefined();
    expect(stat('Power', 'stat/plug6/POWER', 'ON')).toBeUndefined();
    expect(stat('Power', 'stat/plug5/POWER', '{"POWER":"ON"}')).toBeUndefined();
    expect(stat('Dimmer', 'stat/plug5/DIMMER', '40')).toBeUndefined();
  });
});
