import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { clampDecimals, formatCardNumber, formatPercent, formatValue, unitOf } from './format.js';

describe('card numbers (spec 02 section 9 "Display")', () => {
  it('abbreviates with k, M, B, T at 1e3, 1e6, 1e9, 1e12 in id-ID', () => {
    expect(formatCardNumber(999, { decimals: 0 })).toBe('999');
    expect(formatCardNumber(1000, { decimals: 0 })).toBe('1k');
    expect(formatCardNumber(1234.5, {})).toBe('1,23k');
    expect(formatCardNumber(1_234_567, { decimals: 2 })).toBe('1,23M');
    expect(formatCardNumber(2_500_000_000, { decimals: 1 })).toBe('2,5B');
    expect(formatCardNumber(7.25e12, { decimals: 2 })).toBe('7,25T');
    expect(formatCardNumber(-45_600, { decimals: 1 })).toBe('-45,6k');
  });

  it('moves a value that rounds up into the next step', () => {
    expect(formatCardNumber(999_999, { decimals: 2 })).toBe('1,00M');
  });

  it.each([
    [999.995, 2, '1,00k'],
    [999.994, 2, '999,99'],
    [999.5, 0, '1k'],
    [999.4, 0, '999'],
    [-999.995, 2, '-1,00k'],
    [999_995, 2, '1,00M'],
    [999_994, 2, '999,99k'],
    [999_995_000, 2, '1,00B'],
    [999_995_000_000, 2, '1,00T'],
    // past the last step the number stays in T
    [999_995_000_000_000, 2, '1.000,00T'],
    [999.99999, 5, '999,99999'],
    [999.999995, 5, '1,00000k'],
  ])('prints %d with %d decimals as %s at the k/M/B/T boundaries', (n, decimals, text) => {
    expect(formatCardNumber(n, { decimals })).toBe(text);
  });

  it('prints the full number when asked, with id-ID separators', () => {
    expect(formatCardNumber(1_234_567.891, { fullNumber: true, decimals: 2 })).toBe('1.234.567,89');
    expect(formatCardNumber(1_234_567.891, { fullNumber: true, decimals: 0 })).toBe('1.234.568');
  });

  it('keeps decimals between 0 and 5 (default 2)', () => {
    expect(clampDecimals(undefined)).toBe(2);
    expect(clampDecimals(9)).toBe(5);
    expect(clampDecimals(-1)).toBe(0);
    expect(formatCardNumber(3.14159265, { decimals: 9 })).toBe('3,14159');
  });

  it('formats in the card locale when it sets one', () => {
    expect(formatCardNumber(1234.5, { fullNumber: true, decimals: 1, locale: 'en-US' })).toBe('1,234.5');
  });
});

describe('units of the single-value subtypes', () => {
  const cases: [string, unknown, string][] = [
    ['CUSTOM', 12.5, '12,50'],
    ['AMPERE', 3.2, '3,20 A'],
    ['HUMIDITY', 65, '65,00 %RH'],
    ['KW', 1500, '1,50k kW'],
    ['KWH', 1_234_567, '1,23M kWh'],
    ['OHM', 47, '47,00 Ω'],
    ['PERCENTAGE', 55.5, '55,50%'],
    ['PRESSURE_AIR', 30, '30,00 psi'],
    ['PRESSURE_WATER', 2.5, '2,50 bar'],
    ['RUPIAH', 1_250_000, 'Rp 1,25M'],
    ['TEMP_CELCIUS', 23.456, '23,46 °C'],
    ['TEMP_FAHRENHEIT', 74, '74,00 °F'],
    ['TEMP_KELVIN', 296.15, '296,15 K'],
    ['VERSION', '1.2.3', 'v1.2.3'],
    ['VOLT', 220.4, '220,40 V'],
    ['WATT', 850, '850,00 W'],
    ['DEGREE', 90, '90,00°'],
  ];
  it.each(cases)('%s prints %s as %s', (type, value, text) => {
    expect(formatValue(value, { type })).toBe(text);
  });

  it('puts the unit in front or behind as the card says, and the card’s own unit wins', () => {
    expect(formatValue(5, { type: 'CUSTOM', unit: 'L', decimal: 0 })).toBe('5 L');
    expect(formatValue(5, { type: 'CUSTOM', unit: '$', unit_front: true, decimal: 0 })).toBe('$ 5');
    expect(formatValue(1500, { type: 'RUPIAH', unit_front: false, decimal: 0 })).toBe('2k Rp');
    expect(unitOf({ type: 'WATT', unit: 'kVA' }).symbol).toBe('kVA');
  });

  it('prints the full number and the dashboard decimals', () => {
    expect(formatValue(1_250_000, { type: 'RUPIAH', full_number: true, decimal: 0 })).toBe('Rp 1.250.000');
    expect(formatValue(1.23456, { type: 'VOLT' }, 4)).toBe('1,2346 V');
  });

  it('prints text, booleans and missing values readably', () => {
    expect(formatValue('12.5', { type: 'VOLT' })).toBe('12,50 V');
    expect(formatValue('ready', { type: 'CUSTOM' })).toBe('ready');
    expect(formatValue(true, {})).toBe(T.cardViews.on);
    expect(formatValue(null, { type: 'VOLT' })).toBe(T.cardViews.noValue);
  });
});

describe('percentages', () => {
  it('are the ratio times 100 with 0 or 2 decimals', () => {
    expect(formatPercent(0.5)).toBe('50%');
    expect(formatPercent(0.12345)).toBe('12,35%');
    expect(formatPercent(1)).toBe('100%');
  });

  it('print a ratio that rounds to a whole percentage without decimals', () => {
    expect(formatPercent(0.999999)).toBe('100%');
    expect(formatPercent(0.000001)).toBe('0%');
    expect(formatPercent(0.12499999)).toBe('12,50%');
    expect(formatPercent(0.99994)).toBe('99,99%');
    expect(formatPercent(0.99995)).toBe('100%');
    expect(formatPercent(1 / 3)).toBe('33,33%');
  });
});
