import { describe, expect, it } from 'vitest';
import type { DeviceRow } from '../../devices.table.js';
import { encodeCommand, WIRE_FAMILIES } from '../index.js';

describe('LoRa downlinks', () => {
  const row = { id: 7, appId: 3, category: 3, devEui: '70B3D57ED0050010' } as unknown as DeviceRow;
  const cmd = { sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 22.5 };
  it('carry data (base64 from the device decoder table) when the table encodes the field, on the ChirpStack application UUID topic', () => {
    const decoder = { ports: { '10': [{ name: 'setpoint', offset: 0, type: 'i16' as const, scale: 0.1 }] } };
    const out = encodeCommand(row, 'q1', cmd, { application: 'b1c2d3e4-0000-4000-8000-000000000001', decoder })!;
    expect(out.topic).toBe('application/b1c2d3e4-0000-4000-8000-000000000001/device/70b3d57ed0050010/command/down');
    expect(JSON.parse(out.payload)).toEqual({
      id: 'q1',
      devEui: '70b3d57ed0050010',
      confirmed: true,
      fPort: 10,
      data: Buffer.from([0x00, 0xe1]).toString('base64'),
    });
  });
  it('carry object for the network server codec otherwise, on the numeric application id by default', () => {
    const out = encodeCommand(row, 'q2', cmd, {
      decoder: { ports: { '10': [{ name: 'other', offset: 0, type: 'u8' as const }] } },
    })!;
    expect(out.topic).toBe('application/3/device/70b3d57ed0050010/command/down');
    expect(JSON.parse(out.payload)).toEqual({
      id: 'q2',
      devEui: '70b3d57ed0050010',
      confirmed: true,
      fPort: 10,
      object: cmd,
    });
  });
});

describe('LoRa reachability', () => {
  it('reaches a device only through a network server of its own application', () => {
    const row = { id: 7, appId: 3, category: 3, devEui: '70B3D57ED0050010' } as unknown as DeviceRow;
    const reachable = WIRE_FAMILIES.lora.command.reachable!;
    expect(reachable(row, [{ key: 'ns:1', role: 'networkServer', appId: 3 }])).toBe(true);
    expect(reachable(row, [{ key: 'ns:2', role: 'networkServer', appId: 4 }])).toBe(false);
    // a connection naming the device itself is no LoRa path
    expect(reachable(row, [{ key: 'device:7', role: 'device', appId: 3, deviceId: 7 }])).toBe(false);
  });
});
