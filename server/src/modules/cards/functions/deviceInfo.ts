// Device facts as query functions (queryType device_id for one device, none for every device of a list or map card):
// DEVICE_CATEGORY (the family's name), LABEL, DEVICE_TYPE, FIRMWARE, LATITUDE, LONGITUDE, SN, DEVICE_ID, and the
// presence functions ONLINE (one device), TOTAL_DEVICE and APP_ONLINE (how many devices of the tags, how many online).
// LATEST_UPDATE (the newest point of any of the device's series) needs the series and lives in cardQuery.ts.
import type { DeviceFacts } from '../../devices/device-facts.js';

export const DEVICE_INFO = [
  'DEVICE_CATEGORY',
  'LABEL',
  'DEVICE_TYPE',
  'FIRMWARE',
  'LATITUDE',
  'LONGITUDE',
  'SN',
  'DEVICE_ID',
  'ONLINE',
] as const;
export type DeviceInfoFn = (typeof DEVICE_INFO)[number];
export const isDeviceInfo = (q: string): q is DeviceInfoFn => (DEVICE_INFO as readonly string[]).includes(q);

export function deviceInfo(fn: DeviceInfoFn, d: DeviceFacts): string | number | boolean | null {
  switch (fn) {
    case 'DEVICE_CATEGORY':
      return d.categoryText;
    case 'LABEL':
      return d.label;
    case 'DEVICE_TYPE':
      return d.deviceType;
    case 'FIRMWARE':
      return d.firmwareVersion;
    case 'LATITUDE':
      return d.latitude;
    case 'LONGITUDE':
      return d.longitude;
    case 'SN':
      return d.serialNumber;
    case 'DEVICE_ID':
      return d.id;
    case 'ONLINE':
      return d.online && !d.disabled;
  }
}

/** TOTAL_DEVICE: devices of the tags; APP_ONLINE: those online. */
export function deviceCount(fn: 'TOTAL_DEVICE' | 'APP_ONLINE', devices: readonly DeviceFacts[]): number {
  if (fn === 'TOTAL_DEVICE') return devices.length;
  let n = 0;
  for (const d of devices) if (d.online && !d.disabled) n++;
  return n;
}
