// Live values of one device (the data pages): `device.data` of the `device-data` channel.
import type { LatestPoint } from '@sentra/contracts';
import { useLiveEvent } from './useLive.js';

export interface DeviceDataEvent {
  device_id: number;
  data: LatestPoint[];
  states: { key: string; value: unknown; is_null: boolean; ts: number }[];
}

export function useLiveDeviceData(deviceId: number | null, apply: (events: DeviceDataEvent[]) => void): void {
  useLiveEvent<DeviceDataEvent>('device-data', deviceId ? { device_id: deviceId } : null, 'device.data', apply);
}
