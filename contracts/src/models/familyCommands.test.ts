import { describe, expect, it } from 'vitest';
import { STATE_CONFIG, STATE_SENSOR } from '../catalogue/queries.js';
import { familyByKey } from './deviceFamilies.js';
import { familyCommandsOf, switchValues } from './familyCommands.js';

describe("the commands of a device's screens (issue 38)", () => {
  it("offers Tasmota's POWER ON, OFF and TOGGLE on its POWER state, and TelePeriod 10..3600", () => {
    const [power, tele] = familyCommandsOf(familyByKey('tasmota')!.category);
    expect(power).toMatchObject({ sensor: STATE_SENSOR, configtype: STATE_CONFIG, param: 'POWER' });
    expect('values' in power! && power.values.map((v) => v.value)).toEqual(['ON', 'OFF', 'TOGGLE']);
    expect(tele).toMatchObject({ param: 'TelePeriod', number: { min: 10, max: 3600 } });
  });
  it('has no fixed commands for families whose devices name their own', () => {
    expect(familyCommandsOf(familyByKey('mqtt')!.category)).toEqual([]);
    expect(familyCommandsOf(undefined)).toEqual([]);
  });
  it("reads a state as a switch in the device's own case: a meter's breaker, a relay, a flag", () => {
    expect(switchValues('closed')).toEqual(['open', 'closed']);
    expect(switchValues('OFF')).toEqual(['ON', 'OFF']);
    expect(switchValues(true)).toEqual([true, false]);
    expect(switchValues('hPa')).toBeUndefined();
    expect(switchValues(42)).toBeUndefined();
  });
});
