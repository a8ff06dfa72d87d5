// What the query editor and the device variable choose from: the trees of `nav/device/devices` (device → sensor →
// config → param → subparam) and `nav/device/sensors` (the same beneath a sensor), the device labels and the tags.
import { NO_SUBPARAM, STATE_SENSOR, T, subparamsOf, type DeviceTree, type SensorTree } from '@sentra/contracts';

export interface SelectionSource {
  devices: DeviceTree;
  devices_label: Record<string, string>;
  /** device id → serial number, for searching a device picker */
  devices_serial?: Record<string, string>;
  /** sensors without a device: the tree of list and map card queries (`device_no_id`) */
  sensors: SensorTree;
  tags: string[];
  /** the card's tags the trees were loaded for: the device picker searches within them too */
  filterTags?: string[];
}
export const EMPTY_SOURCE: SelectionSource = { devices: {}, devices_label: {}, sensors: {}, tags: [] };

export interface Option {
  value: string;
  label: string;
  /** a device's serial number: shown beside its name and searched with it */
  serial?: string;
}
const plain = (keys: string[]): Option[] => keys.map((value) => ({ value, label: value }));

/** The path chosen so far; `device_id` undefined walks the sensors tree. */
export interface SelectionPath {
  device_id?: string;
  sensor?: string;
  config?: string;
  param?: string;
}

function sensorTree(source: SelectionSource, withDevice: boolean, device_id?: string): SensorTree | undefined {
  if (!withDevice) return source.sensors;
  return device_id === undefined ? undefined : source.devices[device_id];
}

export function deviceOptions(source: SelectionSource): Option[] {
  return Object.keys(source.devices).map((value) => {
    const serial = source.devices_serial?.[value];
    return serial
      ? { value, label: source.devices_label[value] ?? value, serial }
      : { value, label: source.devices_label[value] ?? value };
  });
}

/** The sensors; a device's states (the STATE_SENSOR entry the server adds) are offered by name, last. */
export function sensorOptions(source: SelectionSource, withDevice: boolean, path: SelectionPath): Option[] {
  const keys = Object.keys(sensorTree(source, withDevice, path.device_id) ?? {});
  const sensors = plain(keys.filter((k) => k !== STATE_SENSOR));
  return keys.includes(STATE_SENSOR)
    ? [...sensors, { value: STATE_SENSOR, label: T.dashboards.query.stateSensor }]
    : sensors;
}

export function configOptions(source: SelectionSource, withDevice: boolean, path: SelectionPath): Option[] {
  if (path.sensor === undefined) return [];
  return plain(Object.keys(sensorTree(source, withDevice, path.device_id)?.[path.sensor] ?? {}));
}

export function paramOptions(source: SelectionSource, withDevice: boolean, path: SelectionPath): Option[] {
  if (path.sensor === undefined || path.config === undefined) return [];
  return plain(Object.keys(sensorTree(source, withDevice, path.device_id)?.[path.sensor]?.[path.config] ?? {}));
}

/** The chosen param's subparams: [] when it is a leaf ("has no children"). */
export function subparamsOfPath(source: SelectionSource, withDevice: boolean, path: SelectionPath): string[] {
  if (path.sensor === undefined || path.config === undefined || path.param === undefined) return [];
  return subparamsOf(sensorTree(source, withDevice, path.device_id)?.[path.sensor]?.[path.config]?.[path.param]);
}

/**
 * The single Sub Param selector: the object param's subparams. The placeholder '_no_subparam_' is not offered: it
 * means "no subparam", and a param with children and no subparam is incomplete (spec 02 section 4), so picking it
 * could only make the query incomplete.
 */
export function subparamOptions(source: SelectionSource, withDevice: boolean, path: SelectionPath): Option[] {
  return plain(subparamsOfPath(source, withDevice, path).filter((s) => s !== NO_SUBPARAM));
}
