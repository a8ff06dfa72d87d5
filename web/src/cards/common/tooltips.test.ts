import { describe, expect, it } from 'vitest';
import { FUEL_PRODUCTS, FUEL_SHIFT_TOTALIZER_OFFSETS, T, fuelProductOf } from '@sentra/contracts';
import {
  fuelFillKey,
  fuelShiftTooltip,
  fuelTooltip,
  genericTooltip,
  isSuspiciousFill,
  laundryUsageTooltip,
  sliceTooltip,
  vendingTooltip,
} from './tooltips.js';

const ts = new Date(2024, 0, 15, 14, 30, 0).getTime();
const ctx = { ts, dateFormat: 'HH:mm, DD MMM YY', decimals: 2 };

describe('chart tooltips (spec 02 section 2)', () => {
  it('generic: time label, series values with unit, optional total', () => {
    const m = genericTooltip(
      { ...ctx, unit: 'kW' },
      [
        { key: 'a', label: 'Fase R', value: 1200 },
        { key: 'b', value: 800.5 },
      ],
      true,
    );
    expect(m.title).toBe('14:30, 15 Jan 24');
    expect(m.rows).toEqual([
      { label: 'Fase R', value: '1,20k kW', color: undefined },
      { label: 'b', value: '800,50 kW', color: undefined },
    ]);
    expect(m.total).toBe('2,00k kW');
    expect(genericTooltip(ctx, [{ key: 'a', value: 1 }]).total).toBeUndefined();
  });

  it('pie slice: its value with unit and share of the whole, the whole as the optional total', () => {
    const slices = [
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
      { key: 'c', value: null },
    ];
    const m = sliceTooltip({ ...ctx, unit: 'kWh' }, slices, 1, true);
    expect(m.rows).toEqual([{ label: 'b', value: '2,00 kWh · 66,67%', color: undefined }]);
    expect(m.total).toBe('3,00 kWh');
    expect(sliceTooltip(ctx, slices, 2).rows[0]!.value).toBe(T.cardViews.noValue);
    expect(sliceTooltip(ctx, slices, 0).total).toBeUndefined();
    expect(sliceTooltip(ctx, [{ key: 'a', value: 0 }], 0).rows[0]!.value).toBe('0,00');
  });

  it('fuel station: remaining fuel and fill in L, the fraud hint when 0 < fill < 300 L', () => {
    const ok = fuelTooltip(ctx, 12345.6, 8000);
    expect(ok.rows.map((r) => [r.label, r.value])).toEqual([
      [T.cardViews.tank, '12.345,60 L'],
      [T.cardViews.fill, '8.000,00 L'],
    ]);
    expect(ok.alert).toBeUndefined();
    const bad = fuelTooltip(ctx, 5000, 250);
    expect(bad.alert).toBe('ada indikasi kecurangan!');
    expect(bad.rows[1]).toMatchObject({ warning: true, value: '250,00 L' });
    expect(fuelTooltip(ctx, 5000, 0).alert).toBeUndefined();
    expect(fuelTooltip(ctx, 5000, 300).alert).toBeUndefined();
    expect([isSuspiciousFill(0), isSuspiciousFill(0.1), isSuspiciousFill(299.9), isSuspiciousFill(300)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('fuel shift totals: litres per product by its name, the totalizer (fixed offset + shift) of the three products that have one, and the shift total', () => {
    const m = fuelShiftTooltip(ctx, [
      { key: 'pertalite', value: 1000 },
      { key: 'pertamax', value: 250.5 },
      { key: 'biosolar', value: 400 },
      { key: 'pertamax_turbo', value: 20 },
      { key: 'premium', value: null },
    ]);
    expect(m.rows.map((r) => [r.label, r.value, r.detail])).toEqual([
      ['Pertalite', '1.000,00 L', 'Totalizer 126.430,00 L'],
      ['Pertamax', '250,50 L', 'Totalizer 48.465,50 L'],
      ['Biosolar', '400,00 L', 'Totalizer 77.380,00 L'],
      ['Pertamax Turbo', '20,00 L', undefined],
      ['Premium', T.cardViews.noValue, undefined],
    ]);
    expect(m.total).toBe('1.670,50 L');
    expect(FUEL_SHIFT_TOTALIZER_OFFSETS).toEqual({ Pertalite: 125_430, Pertamax: 48_215, Biosolar: 76_980 });
  });

  it('names fuel products as the spec writes them, the longest name first, and nothing else', () => {
    expect(
      ['Pertalite', 'pertamax_turbo', 'Sisa BIOSOLAR', 'premium', 'pertamax', 'volume', 'pertamaxx', undefined].map(
        fuelProductOf,
      ),
    ).toEqual(['Pertalite', 'Pertamax Turbo', 'Biosolar', 'Premium', 'Pertamax', undefined, undefined, undefined]);
    expect([...FUEL_PRODUCTS]).toEqual(['Premium', 'Pertamax', 'Pertalite', 'Biosolar', 'Pertamax Turbo']);
  });

  it("puts the tank's product in the fuel tooltip's title", () => {
    expect(fuelTooltip(ctx, 5000, 0, {}, 'Pertamax').title).toBe('14:30, 15 Jan 24 · Pertamax');
  });

  it('takes the fill series the card names, else the one named a fill, else the last of two or more', () => {
    expect(fuelFillKey(['volume', 'fill'], 'volume')).toBe('volume');
    expect(fuelFillKey(['pengisian', 'sisa_bbm'])).toBe('pengisian');
    expect(fuelFillKey(['sisa', 'masuk'])).toBe('masuk');
    expect(fuelFillKey(['sisa', 'masuk'], 'tidak_ada')).toBe('masuk');
    expect(fuelFillKey(['sisa'])).toBeUndefined();
  });

  it('laundry usage count', () => {
    const m = laundryUsageTooltip(ctx, [
      { key: 'washer_1', value: 12 },
      { key: 'dryer_1', value: 3 },
    ]);
    expect(m.rows.map((r) => r.value)).toEqual(['12 kali', '3 kali']);
    expect(m.total).toBe('15 kali');
    expect(m.title).toContain(T.cardViews.usageCount);
  });

  it('laundry/dryer on/off vending with percentages of 0 or 2 decimals', () => {
    const m = vendingTooltip(ctx, [
      { key: 'washer_1', value: 0.25 },
      { key: 'dryer_1', value: 1 / 3 },
    ]);
    expect(m.rows[0]!.value).toBe('Menyala 25% · Mati 75%');
    expect(m.rows[1]!.value).toBe('Menyala 33,33% · Mati 66,67%');
  });
});
