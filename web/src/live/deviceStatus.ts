// Live Nyala/Mati of the device list: `useLiveDeviceStatus(apply)` listens to the application's DEVICE_STATUS_LIVE
// channel; `withDeviceStatus` merges one change into a list of rows, `withOwnStatus` into one device (its detail screens).
import { DEVICE_STATUS_LIVE, type DeviceStatusPush } from '@sentra/contracts';
import { useLiveEvent } from './useLive.js';

export type DeviceStatusEvent = DeviceStatusPush;

export function withDeviceStatus<R extends { id: number; online: boolean }>(
  rows: R[] | null,
  changes: readonly DeviceStatusEvent[],
): R[] | null {
  if (!rows) return rows;
  let out = rows;
  for (const c of changes) {
    const i = out.findIndex((r) => r.id === c.id);
    if (i < 0) continue;
    if (out === rows) out = [...rows];
    out[i] = { ...out[i]!, online: c.online, last_online_ts: c.last_online_ts, last_offline_ts: c.last_offline_ts };
  }
  return out;
}

/** one device's status after the changes that concern it (the last one wins); the same object when none does */
export function withOwnStatus<
  D extends { id: number; online: boolean; last_online_ts: number | null; last_offline_ts: number | null },
>(device: D | null, changes: readonly DeviceStatusEvent[]): D | null {
  if (!device) return device;
  const mine = changes.filter((c) => c.id === device.id).at(-1);
  if (!mine) return device;
  return { ...device, online: mine.online, last_online_ts: mine.last_online_ts, last_offline_ts: mine.last_offline_ts };
}

export function useLiveDeviceStatus(apply: (changes: DeviceStatusEvent[]) => void): void {
  useLiveEvent<DeviceStatusEvent>(DEVICE_STATUS_LIVE.channel, {}, DEVICE_STATUS_LIVE.event, apply);
}
