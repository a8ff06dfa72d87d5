import { describe, expect, it } from 'vitest';
import type { DeviceDataRow } from '@sentra/contracts';
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
