import { describe, expect, it } from 'vitest';
import { filtersFromSearch, filtersToSearch, NO_FILTERS, readPaging, splitTags, writePaging } from './listState.js';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('device list paging in session storage', () => {
  it('defaults to page 0 of 25 and keeps page and size per application', () => {
    const s = memory();
    expect(readPaging('kebun', s)).toEqual({ page: 0, size: 25 });
    writePaging('kebun', { page: 3, size: 100 }, s);
    expect(readPaging('kebun', s)).toEqual({ page: 3, size: 100 });
    expect(readPaging('pabrik', s)).toEqual({ page: 0, size: 25 });
  });
  it('ignores a size that is not 25, 50 or 100 and a broken value', () => {
    const s = memory();
    s.setItem('sentra.devices.paging.kebun', JSON.stringify({ page: 1, size: 30 }));
    expect(readPaging('kebun', s)).toEqual({ page: 1, size: 25 });
    s.setItem('sentra.devices.paging.kebun', '{rusak');
    expect(readPaging('kebun', s)).toEqual({ page: 0, size: 25 });
  });
});

describe('tag chips of a row', () => {
  it('shows up to 6 chips, else 5 and a "+N" overflow', () => {
    expect(splitTags([1, 2, 3, 4, 5, 6])).toEqual({ shown: [1, 2, 3, 4, 5, 6], rest: [] });
    expect(splitTags([1, 2, 3, 4, 5, 6, 7, 8])).toEqual({ shown: [1, 2, 3, 4, 5], rest: [6, 7, 8] });
  });
});

describe('device list filters in the address (issue 38: kept on reload)', () => {
  it('writes only the filters set, and reads them back', () => {
    expect(filtersToSearch(NO_FILTERS).toString()).toBe('');
    const f = { search: 'SPBU 0', status: ['on' as const], type: 'TASMOTA_SONOFF_BASIC', tag: 'lokasi:jakarta' };
    const query = filtersToSearch(f);
    expect(query.toString()).toBe('q=SPBU+0&status=on&type=TASMOTA_SONOFF_BASIC&tag=lokasi%3Ajakarta');
    expect(filtersFromSearch(new URLSearchParams(query.toString()))).toEqual(f);
  });
  it('leaves out what is not a filter value (an edited address)', () => {
    expect(filtersFromSearch(new URLSearchParams('status=on,bogus,on&type=NOPE&tag=tanpa-titik-dua'))).toEqual({
      ...NO_FILTERS,
      status: ['on'],
    });
  });
});
