import { describe, expect, it } from 'vitest';
import { rowMenuEntries } from './DeviceRowMenu.js';
import { grantedRoutes, screenRoutes } from '../../shell/routeRegistry.js';

const device = {
  id: 7,
  name: 'Meter 1',
  serial_number: 'AAAA-BBBB-1111-2222',
  category: 8,
  online: true,
  disabled: false,
  tags: {},
} as never;

describe('device row menu', () => {
  it('offers every destination to a principal who reaches everything', () => {
    expect(rowMenuEntries(device, true).map((e) => e.key)).toEqual([
      'dashboard',
      'data',
      'detail',
      'state',
      'edit',
      'info',
      'sensors',
      'tags',
      'remove',
    ]);
  });
  it('leaves the edits, Hapus and Dashboard out for a role with _device_list_ only', () => {
    const keys = new Set(grantedRoutes(screenRoutes, ['_device_list_']).map((r) => r.key));
    const entries = rowMenuEntries(device, true, (k) => keys.has(k)).map((e) => e.key);
    expect(entries).toEqual(['data', 'detail', 'state', 'info']);
  });
});
