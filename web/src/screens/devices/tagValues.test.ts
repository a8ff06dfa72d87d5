import { describe, expect, it } from 'vitest';
import type { TagCategory } from '@sentra/contracts';
import { tagFilterOptions } from './tagValues.js';

const cat = (id: number, prefix: string, category: number, definitions: [string, string][] = []): TagCategory => ({
  id,
  name: prefix.toUpperCase(),
  prefix,
  category,
  category_text: '',
  definitions: definitions.map(([name, name_lc]) => ({ name, name_lc, prefix })),
});

describe('the device list tag filter', () => {
  it("offers every selection option and both sides of a checkbox, labelled as the list's chips are", () => {
    const cats = [
      cat(1, 'lokasi', 1, [
        ['Gudang Utama', 'gudang_utama'],
        ['Kantor', 'kantor'],
      ]),
      cat(2, 'aktif', 3),
      cat(3, 'catatan', 4),
      cat(4, 'nomor', 2),
    ];
    expect(tagFilterOptions(cats).map((o) => [o.tag, o.group])).toEqual([
      ['lokasi:gudang_utama', 'LOKASI'],
      ['lokasi:kantor', 'LOKASI'],
      ['aktif:true', 'AKTIF'],
      ['aktif:false', 'AKTIF'],
    ]);
    expect(tagFilterOptions(cats)[0]!.label).toBe('LOKASI: Gudang Utama');
  });
  it('offers nothing without categories', () => {
    expect(tagFilterOptions([])).toEqual([]);
  });
});
