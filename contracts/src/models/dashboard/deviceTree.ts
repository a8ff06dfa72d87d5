// The selection tree of `nav/device/devices` and `nav/device/sensors` (spec 02 section 3 "Data shape for selection"):
// device → sensor → config → param → subparam. A param is a leaf, or an object whose keys are its subparams.
import { z } from 'zod';

export type ParamNode = unknown;
/** config → param → leaf or { subparam: leaf } */
export const ConfigNode = z.record(z.string(), z.unknown());
export const SensorNode = z.record(z.string(), ConfigNode);
/** sensor → config → param */
export const SensorTree = z.record(z.string(), SensorNode);
export type SensorTree = z.output<typeof SensorTree>;
/** device id → sensor tree */
export const DeviceTree = z.record(z.string(), SensorTree);
export type DeviceTree = z.output<typeof DeviceTree>;

export const DevicesAnswer = z.object({
  devices: DeviceTree,
  /** device id → label */
  devices_label: z.record(z.string(), z.string()),
  /** device id → serial number (not in the spec, issue 28: device pickers search by name and serial) */
  devices_serial: z.record(z.string(), z.string()).optional(),
});
export const SensorsAnswer = z.object({ sensors: SensorTree });

/** A param "still has nested children" when its node is an object with keys: those are its subparams. */
export function subparamsOf(param: ParamNode): string[] {
  return typeof param === 'object' && param !== null && !Array.isArray(param) ? Object.keys(param) : [];
}
