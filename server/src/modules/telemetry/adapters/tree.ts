// The one walk every adapter shares: `{ param: value | { subparam: value } }` under a sensor and configtype → points.
import { inferDatatype } from '../datatypes.js';
import { isPlainObject, validName, type DeviceContext, type RawPoint } from './types.js';

/** Appends the points of one configtype's params; false when a name is invalid (the whole message is malformed). */
export function pointsOfParams(ctx: DeviceContext, sensor: string, configtype: string, params: Record<string, unknown>, out: RawPoint[]): boolean {
  for (const param in params) {
    if (!validName(param)) return false;
    const value = params[param];
    // null is "no reading" (a failed sensor read), not an error
    if (value === null || value === undefined) continue;
    const declared = ctx.declaredDatatype?.(sensor, configtype, param, '');
    if (isPlainObject(value) && (declared === undefined || declared === 'number')) {
      for (const subparam in value) {
        if (!validName(subparam)) return false;
        const sub = value[subparam];
        if (sub === null || sub === undefined) continue;
        const datatype = ctx.declaredDatatype?.(sensor, configtype, param, subparam) ?? inferDatatype(sub);
        if (datatype) out.push({ sensor, configtype, param, subparam, datatype, value: sub });
      }
      continue;
    }
    const datatype = declared ?? inferDatatype(value);
    if (datatype) out.push({ sensor, configtype, param, subparam: '', datatype, value });
  }
  return true;
}
