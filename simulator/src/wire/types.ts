// One MQTT message as a device sends it, and the reading flattened into the named values several families need.
import type { DataTree, Value } from '../profiles/types.js';

export interface Frame {
  topic: string;
  payload: string | Buffer;
  qos?: 0 | 1;
  retain?: boolean;
}

export type Scalar = number | boolean | string;

export interface FlatValue {
  sensor: string;
  configtype: string;
  param: string;
  /** '' when the param has no subparams */
  subparam: string;
  value: Scalar;
}

/** Every leaf of a data tree in tree order (profiles build their trees in a fixed order, so this order is stable). */
export function flatten(data: DataTree): FlatValue[] {
  const out: FlatValue[] = [];
  for (const sensor in data) {
    for (const configtype in data[sensor]) {
      const params = data[sensor]![configtype]!;
      for (const param in params) {
        const v: Value = params[param]!;
        if (v !== null && typeof v === 'object')
          for (const sub in v) out.push({ sensor, configtype, param, subparam: sub, value: v[sub]! });
        else out.push({ sensor, configtype, param, subparam: '', value: v });
      }
    }
  }
  return out;
}

/** A command as the gateway's command flow sends it to generic devices (docs/conventions.md "Device topics"). */
export interface DeviceCommand {
  id: string | number;
  sensor: string;
  configtype: string;
  param: string;
  value: unknown;
}

export interface CommandReply {
  id: string | number;
  ok: boolean;
  code?: number;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function parseJsonObject(payload: Buffer | string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(payload.toString());
    return isRecord(v) ? v : null;
  } catch {
    return null;
  }
}
