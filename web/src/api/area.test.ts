import { describe, expect, it } from 'vitest';
import { areaOf, loginPathOf } from './area.js';

describe('areas of a path', () => {
  it.each([
    ['/admin/apps', { isTenant: true }],
    ['/admin/login', { isTenant: true }],
    ['/admin/kebun/@about', { isTenant: true, domain: 'kebun' }],
    ['/kebun/_device_list_', { isTenant: false, domain: 'kebun' }],
    ['/pages/404', { isTenant: false }],
    ['/Bukan-Domain', { isTenant: false }],
  ])('%s is %j', (path, area) => {
    expect(areaOf(path)).toEqual(area);
  });
  it('names the sign-in of each area', () => {
    expect(loginPathOf({ isTenant: true, domain: 'kebun' })).toBe('/admin/login');
    expect(loginPathOf({ isTenant: false, domain: 'kebun' })).toBe('/kebun/login');
  });
});
