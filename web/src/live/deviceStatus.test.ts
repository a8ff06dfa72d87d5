import { describe, expect, it } from 'vitest';
import { withDeviceStatus, withOwnStatus } from './deviceStatus.js';

const device = { id: 7, online: false, last_online_ts: null, last_offline_ts: 100, label: 'Meter 7' };

describe('live device status', () => {
  it('a device detail screen takes the newest change of its own device', () => {
    const next = withOwnStatus(device, [
      { id: 7, online: true, last_online_ts: 200, last_offline_ts: 100 },
      { id: 8, online: false, last_online_ts: null, last_offline_ts: 300 },
      { id: 7, online: false, last_online_ts: 200, last_offline_ts: 400 },
      { id: 7, online: true, last_online_ts: 500, last_offline_ts: 400 },
    ]);
    expect(next).toEqual({ ...device, online: true, last_online_ts: 500, last_offline_ts: 400 });
  });
  it("another device's change leaves the detail screen's device as it is", () => {
    expect(withOwnStatus(device, [{ id: 8, online: true, last_online_ts: 1, last_offline_ts: null }])).toBe(device);
    expect(withOwnStatus(null, [{ id: 7, online: true, last_online_ts: 1, last_offline_ts: null }])).toBeNull();
  });
  it('the list flips only the rows that changed', () => {
    const rows = [device, { ...device, id: 8 }];
    const next = withDeviceStatus(rows, [{ id: 8, online: true, last_online_ts: 9, last_offline_ts: 100 }])!;
    expect(next[0]).toBe(rows[0]);
    expect(next[1]!.online).toBe(true);
  });
});
