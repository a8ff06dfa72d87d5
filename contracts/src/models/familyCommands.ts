// The commands a device's own screens offer beside its configuration rows: the family's fixed commands (Tasmota's
// POWER and TelePeriod) and, for any family, the states whose values read as a switch (a meter's breaker
// open/closed, a relay's ON/OFF). Each goes through the one command call (`POST /fetch/web/device/p/{id}`) and the
// family's wire format; a state is addressed as the cards address it (sensor STATE_SENSOR, config STATE_CONFIG).
import { STATE_CONFIG, STATE_SENSOR } from '../catalogue/queries.js';
import { T } from '../text/id.js';
import { familyByCategory, type DeviceFamilyKey } from './deviceFamilies.js';

export interface CommandTarget {
  sensor: string;
  configtype: string;
  param: string;
}

/** A command with fixed values (one button each), or one typed number within its bounds. */
export type FamilyCommand = CommandTarget & { key: string; label: string } & (
    | { values: readonly { value: string | number | boolean; label: string }[] }
    | { number: { min: number; max: number; unit: string } }
  );

const state = (param: string): CommandTarget => ({ sensor: STATE_SENSOR, configtype: STATE_CONFIG, param });
const C = T.deviceCommands;

export const FAMILY_COMMANDS: Partial<Record<DeviceFamilyKey, readonly FamilyCommand[]>> = {
  // Tasmota takes `cmnd/<topic>/POWER` ON, OFF or TOGGLE and answers the POWER it keeps; TelePeriod 10..3600 s
  tasmota: [
    {
      key: 'power',
      label: C.power,
      ...state('POWER'),
      values: [
        { value: 'ON', label: C.on },
        { value: 'OFF', label: C.off },
        { value: 'TOGGLE', label: C.toggle },
      ],
    },
    {
      key: 'teleperiod',
      label: C.telePeriod,
      sensor: 'system',
      configtype: 'config',
      param: 'TelePeriod',
      number: { min: 10, max: 3600, unit: C.seconds },
    },
  ],
};

export const familyCommandsOf = (category: number | undefined): readonly FamilyCommand[] => {
  const family = category === undefined ? undefined : familyByCategory(category);
  return (family && FAMILY_COMMANDS[family.key as DeviceFamilyKey]) ?? [];
};

/** Pairs of values a state switches between (compared without case); a boolean state switches true/false. */
const SWITCHES: readonly (readonly [string, string])[] = [
  ['ON', 'OFF'],
  ['open', 'closed'],
  ['running', 'stopped'],
  ['start', 'stop'],
];

/** The two values a state's current value switches between, in that pair's order, or undefined (not a switch). */
export function switchValues(value: unknown): readonly [string | boolean, string | boolean] | undefined {
  if (typeof value === 'boolean') return [true, false];
  if (typeof value !== 'string') return undefined;
  const v = value.toLowerCase();
  const pair = SWITCHES.find(([a, b]) => a.toLowerCase() === v || b.toLowerCase() === v);
  if (!pair) return undefined;
  // answer in the device's own case ("ON" stays upper case, "open" lower)
  const upper = value === value.toUpperCase();
  return upper ? [pair[0].toUpperCase(), pair[1].toUpperCase()] : [pair[0].toLowerCase(), pair[1].toLowerCase()];
}

/** A state as a command target. */
export const stateTarget = state;
