import { describe, expect, it } from 'vitest';
import { FAMILY_POINTS, type DeviceDataRow } from '@sentra/contracts';
import { pointOptions } from './useRuleDevices.js';

const row = (sensor: string, configtype: string, param: string, subs: string[] = []): DeviceDataRow => ({
  sensor,
  configtype,
  param,
  datatype: subs.length ? 'object' : 'number',
  subparam_datatypes: Object.fromEntries(subs.map((s) => [s, 'number'])),
  value: 1,
  ts: 1,
  data_exist: true,
});
const POINTS = [
  row('tank', 'data', 'level'),
  row('tank', 'config', 'low'),
  row('meter', 'data', 'phase', ['r', 's']),
  row('meter', 'data', 'power'),
];

describe('trigger pickers', () => {
  it('offers the sensors, then the configs of the chosen sensor, then its params and subparams', () => {
    expect(pointOptions(POINTS, 'SENSOR', {})).toEqual(['tank', 'meter']);
    expect(pointOptions(POINTS, 'CONFIG', { sensor: 'tank' })).toEqual(['data', 'config']);
    expect(pointOptions(POINTS, 'PARAM', { sensor: 'tank', config: 'data' })).toEqual(['level']);
    expect(pointOptions(POINTS, 'PARAM', { sensor: 'meter', config: 'data' })).toEqual([
      'phase',
      'phase.r',
      'phase.s',
      'power',
    ]);
    expect(pointOptions(POINTS, 'PARAM', {})).toEqual(['level', 'low', 'phase', 'phase.r', 'phase.s', 'power']);
  });
});

describe('a device without data yet (issue 38)', () => {
  it("offers its family's known points: a Tasmota plug's ENERGY readings", () => {
    const known = FAMILY_POINTS.tasmota.points;
    expect(pointOptions([], 'SENSOR', {}, known)).toEqual(['ENERGY', 'BME280', 'AM2301', 'DS18B20', 'device']);
    expect(pointOptions([], 'CONFIG', { sensor: 'ENERGY' }, known)).toEqual(['data']);
    expect(pointOptions([], 'PARAM', { sensor: 'ENERGY', config: 'data' }, known)).toContain('Power');
    expect(pointOptions([], 'PARAM', { sensor: 'device', config: 'data' }, known)).toContain('Wifi.RSSI');
  });
  it("puts the device's own points first and does not repeat a known one it sent", () => {
    const sent = [row('ENERGY', 'data', 'Power'), row('POWER2', 'data', 'x')];
    const sensors = pointOptions(sent, 'SENSOR', {}, FAMILY_POINTS.tasmota.points);
    expect(sensors.slice(0, 2)).toEqual(['ENERGY', 'POWER2']);
    expect(sensors.filter((s) => s === 'ENERGY')).toHaveLength(1);
  });
  it('offers nothing but the hint for families whose devices name their own sensors', () => {
    expect(FAMILY_POINTS.mqtt.points).toEqual([]);
    expect(FAMILY_POINTS.mqtt.hint).toMatch(/d\/<id>\/data/);
    expect(FAMILY_POINTS.zlan.hint).toMatch(/node/);
  });
});
