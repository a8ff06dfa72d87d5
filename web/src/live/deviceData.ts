// Live values of one device (the data pages): DEVICE_DATA_LIVE of contracts.
import { DEVICE_DATA_LIVE, type DeviceDataPush } from '@sentra/contracts';
import { useLiveEvent } from './useLive.js';

export type DeviceDataEvent = DeviceDataPush;

export function useLiveDeviceData(deviceId: number | null, apply: (events: DeviceDataEvent[]) => void): void {
  useLiveEvent<DeviceDataEvent>(
    DEVICE_DATA_LIVE.channel,
    deviceId ? { device_id: deviceId } : null,
    DEVICE_DATA_LIVE.event,
    apply,
  );
}
