// Unit codes of single-value cards (spec 02 section 3 "Unit codes") and the single-value subtypes the editor offers.
export const UNIT_CODES = [
  'DEGREE',
  'TEMP_CELCIUS',
  'TEMP_FAHRENHEIT',
  'TEMP_KELVIN',
  'VERSION',
  'VOLT',
  'AMPERE',
  'WATT',
  'OHM',
  'KWH',
  'KW',
  'PRESSURE_WATER',
  'PRESSURE_AIR',
  'HUMIDITY',
  'CUSTOM',
  'RUPIAH',
  'PERCENTAGE',
] as const;
export type UnitCode = (typeof UNIT_CODES)[number];

/**
 * "Single value types" of the editor in the spec's order; each names the unit code stored in `view.type`.
 * Custom Unit is the default. DEGREE is a unit code without an editor subtype (manual JSON only).
 */
export const SINGLE_VALUE_SUBTYPES: readonly { label: string; unit: UnitCode }[] = [
  { label: 'Custom Unit', unit: 'CUSTOM' },
  { label: 'Ampere', unit: 'AMPERE' },
  { label: 'Humidity', unit: 'HUMIDITY' },
  { label: 'KW', unit: 'KW' },
  { label: 'KWH', unit: 'KWH' },
  { label: 'Ohm', unit: 'OHM' },
  { label: 'Percentage', unit: 'PERCENTAGE' },
  { label: 'Pressure air', unit: 'PRESSURE_AIR' },
  { label: 'Pressure water', unit: 'PRESSURE_WATER' },
  { label: 'Sales', unit: 'RUPIAH' },
  { label: 'Temperature C', unit: 'TEMP_CELCIUS' },
  { label: 'Temperature F', unit: 'TEMP_FAHRENHEIT' },
  { label: 'Temperature K', unit: 'TEMP_KELVIN' },
  { label: 'Version', unit: 'VERSION' },
  { label: 'Volt', unit: 'VOLT' },
  { label: 'Watt', unit: 'WATT' },
];
export const DEFAULT_UNIT: UnitCode = 'CUSTOM';
