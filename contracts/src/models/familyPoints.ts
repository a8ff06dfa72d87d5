// What each device family sends by itself, before a device has sent anything: the points its wire always makes (the
// family's uplink decides them, server/src/modules/devices/families/<wire>/uplink.ts) and, where the device names its
// own, what to type. A picker of sensor/config/param offers these for a device without data yet.
import { T } from '../text/id.js';
import { familyByCategory, type DeviceFamilyKey } from './deviceFamilies.js';

/** One point a family's messages carry: `param` may be `param.subparam` (how a rule names a subparam). */
export interface KnownPoint {
  sensor: string;
  configtype: string;
  param: string;
}

export interface FamilyPoints {
  points: readonly KnownPoint[];
  /** what to type when the device names its own sensors (or the list above is only a part of them) */
  hint: string;
}

const data = (sensor: string, params: readonly string[]): KnownPoint[] =>
  params.map((param) => ({ sensor, configtype: 'data', param }));

/** Tasmota: its SENSOR names (ENERGY of a metering plug, the common climate sensors) and STATE's measurements. */
const TASMOTA_POINTS: readonly KnownPoint[] = [
  ...data('ENERGY', ['Power', 'Voltage', 'Current', 'Total', 'Today', 'Yesterday', 'Factor', 'ApparentPower']),
  ...data('BME280', ['Temperature', 'Humidity', 'Pressure']),
  ...data('AM2301', ['Temperature', 'Humidity']),
  ...data('DS18B20', ['Temperature']),
  ...data('device', ['UptimeSec', 'Heap', 'LoadAvg', 'Wifi.RSSI', 'Wifi.Signal']),
];

const LORA_POINTS: readonly KnownPoint[] = [
  ...data('radio', ['rssi', 'snr']),
  ...data('status', ['battery_level', 'margin']),
];

const OWN_NAMES: FamilyPoints = { points: [], hint: T.devices.pointsHintGeneric };
const GATEWAY: FamilyPoints = { points: [], hint: T.devices.pointsHintGateway };

export const FAMILY_POINTS: Record<DeviceFamilyKey, FamilyPoints> = {
  dummy: OWN_NAMES,
  sentraEnd: OWN_NAMES,
  mqtt: OWN_NAMES,
  lora: { points: LORA_POINTS, hint: T.devices.pointsHintLora },
  zlan: GATEWAY,
  usrIot: GATEWAY,
  bivocom: GATEWAY,
  friendcom: GATEWAY,
  sentraGateway: GATEWAY,
  tasmota: { points: TASMOTA_POINTS, hint: T.devices.pointsHintTasmota },
  emma: { points: [], hint: T.devices.pointsHintCloud },
  imou: { points: [], hint: T.devices.pointsHintCloud },
};

/** The known points and the hint of a device's family (by its category), or the generic hint for an unknown one. */
export function familyPointsOf(category: number | undefined): FamilyPoints {
  const family = category === undefined ? undefined : familyByCategory(category);
  return family ? FAMILY_POINTS[family.key as DeviceFamilyKey] : OWN_NAMES;
}
