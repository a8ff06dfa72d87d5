import { describe, expect, it } from 'vitest';
import { filterDevices, type DeviceChoice } from './DevicePicker.js';

const devices: DeviceChoice[] = [
  { value: '12', label: 'Panel Gedung A', serial: 'SN-PANEL-0001' },
  { value: '40', label: 'Pompa Air', serial: 'SN-POMPA-0040' },
  { value: '7', label: 'Meter Lobi' },
];
const find = (inputValue: string) =>
  filterDevices(devices, { inputValue, getOptionLabel: (d) => d.label }).map((d) => d.value);

describe('the searchable device picker', () => {
  it('finds a device by part of its name, any case', () => {
    expect(find('gedung')).toEqual(['12']);
  });
  it('finds a device by part of its serial number or by its id', () => {
    expect(find('pompa-0040')).toEqual(['40']);
    expect(find('sn-')).toEqual(['12', '40']);
    expect(find('7')).toContain('7');
  });
  it('offers every device with an empty search', () => {
    expect(find('')).toEqual(['12', '40', '7']);
  });
});
