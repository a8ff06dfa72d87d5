// Render tests of the single value card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { SINGLE_VALUE_SUBTYPES, T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('SINGLE_VALUE_CARD', () => {
  const reading: Record<string, [unknown, string]> = {
    CUSTOM: [42.5, '42,50'],
    AMPERE: [12.345, '12,35 A'],
    HUMIDITY: [71, '71,00 %RH'],
    KW: [3400, '3,40k kW'],
    KWH: [1_234_567, '1,23M kWh'],
    OHM: [220, '220,00 Ω'],
    PERCENTAGE: [87.5, '87,50%'],
    PRESSURE_AIR: [32, '32,00 psi'],
    PRESSURE_WATER: [1.8, '1,80 bar'],
    RUPIAH: [2_500_000, 'Rp 2,50M'],
    TEMP_CELCIUS: [27.3, '27,30 °C'],
    TEMP_FAHRENHEIT: [81.1, '81,10 °F'],
    TEMP_KELVIN: [300.45, '300,45 K'],
    VERSION: ['2.1.0', 'v2.1.0'],
    VOLT: [229.9, '229,90 V'],
    WATT: [1_500_000_000, '1,50B W'],
  };
  it.each(SINGLE_VALUE_SUBTYPES.map((s) => [s.label, s.unit]))('%s (%s) prints its unit', async (_label, unit) => {
    const [value, text] = reading[unit]!;
    renderCard('SINGLE_VALUE_CARD', { view: { type: unit }, data: { value, time: Date.now() } });
    expect((await screen.findByTestId('card-value')).textContent).toBe(text);
  });

  it('puts a custom unit in front, prints the full number and the time it was read', async () => {
    renderCard('SINGLE_VALUE_CARD', {
      view: { type: 'CUSTOM', unit: 'Rp', unit_front: true, full_number: true, decimal: 0 },
      data: { value: 1_234_567, time: new Date(2024, 0, 2, 3, 4, 5).getTime() },
    });
    expect((await screen.findByTestId('card-value')).textContent).toBe('Rp 1.234.567');
    expect(screen.getByTestId('card-time').textContent).toBe(T.cardViews.updatedAt('03:04:05, 02 Jan 24'));
  });

  it("shows '-' before the device has reported", async () => {
    renderCard('SINGLE_VALUE_CARD', { view: { type: 'VOLT' }, data: { value: null } });
    expect((await screen.findByTestId('card-value')).textContent).toBe('-');
  });
});
