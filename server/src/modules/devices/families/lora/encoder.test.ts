import { describe, expect, it } from 'vitest';
import { decodeLora, type LoraDecoder } from './decoder.js';
import { encodeLora } from './encoder.js';

const table: LoraDecoder = {
  ports: {
    '10': [
      { name: 'setpoint', offset: 0, type: 'i16', scale: 0.1 },
      { name: 'relay', offset: 2, type: 'bit', bit: 3 },
      { name: 'interval', offset: 3, type: 'u16', littleEndian: true },
    ],
    '*': [{ name: 'mode', offset: 0, type: 'u8' }],
  },
};

describe('LoRa downlink bytes from the device decoder table', () => {
  it('writes the named field into a frame as long as the port table, which the same table decodes back', () => {
    const bytes = encodeLora(table, 10, 'setpoint', 22.5)!;
    expect(bytes.toString('hex')).toBe('00e1000000');
    expect(decodeLora(table, 10, bytes)).toEqual({ ok: true, values: { setpoint: 22.5, relay: false, interval: 0 } });
    expect(encodeLora(table, 10, 'relay', true)!.toString('hex')).toBe('0000080000');
    expect(encodeLora(table, 10, 'interval', 600)!.toString('hex')).toBe('0000005802');
    // another port falls back to '*'
    expect(encodeLora(table, 2, 'mode', 3)!.toString('hex')).toBe('03');
  });
  it('answers null for a field the table does not have, or a value it cannot hold', () => {
    expect(encodeLora(table, 10, 'unknown', 1)).toBeNull();
    expect(encodeLora(table, 10, 'interval', 70_000)).toBeNull();
    expect(encodeLora(table, 10, 'interval', 'abc')).toBeNull();
    expect(encodeLora(table, 10, 'relay', 2)).toBeNull();
    expect(encodeLora({ ports: { '1': [{ name: 'x', offset: 0, type: 'u8' }] } }, 10, 'x', 1)).toBeNull();
  });
});
