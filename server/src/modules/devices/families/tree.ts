// The one walk every adapter shares: `{ param: value | { subparam: value } }` under a sensor and configtype → points.
import { inferDatatype, type Datatype } from '../../telemetry/datatypes.js';
import { jsonDepthWithin } from '@sentra/contracts';
import {
  isPlainObject,
  MAX_DEPTH,
  reject,
  unstorable,
  validName,
  type AdapterResult,
  type DeviceContext,
  type RawPoint,
  type RawState,
} from './wire.js';

/** Appends the points of one configtype's params; a rejection when a name or a value makes the whole message malformed. */
export function pointsOfParams(
  ctx: DeviceContext,
  sensor: string,
  configtype: string,
  params: Record<string, unknown>,
  out: RawPoint[],
): AdapterResult | undefined {
  for (const param in params) {
    if (!validName(param)) return reject('bad_shape', 'name');
    const value = params[param];
    // null is "no reading" (a failed sensor read), not an error
    if (value === null || value === undefined) continue;
    const declared = ctx.declaredDatatype?.(sensor, configtype, param, '');
    if (isPlainObject(value) && (declared === undefined || declared === 'number')) {
      for (const subparam in value) {
        if (!validName(subparam)) return reject('bad_shape', 'name');
        const sub = value[subparam];
        if (sub === null || sub === undefined) continue;
        const bad = pushPoint(
          sensor,
          configtype,
          param,
          subparam,
          ctx.declaredDatatype?.(sensor, configtype, param, subparam),
          sub,
          out,
        );
        if (bad) return bad;
      }
      continue;
    }
    const bad = pushPoint(sensor, configtype, param, '', declared, value, out);
    if (bad) return bad;
  }
  return undefined;
}

/** One value (not null) as a point of its declared datatype, else of its JSON type; a rejection when it cannot be one. */
export function pushPoint(
  sensor: string,
  configtype: string,
  param: string,
  subparam: string,
  declared: Datatype | undefined,
  value: unknown,
  out: RawPoint[],
): AdapterResult | undefined {
  const datatype = declared ?? inferDatatype(value);
  // the one JSON value without a datatype: a number beyond a double (1e999 reads as Infinity)
  if (!datatype) return reject('bad_value', `${param}: number out of range`);
  if (!jsonDepthWithin(value, MAX_DEPTH)) return reject('bad_shape', `${param}: nested deeper than ${MAX_DEPTH}`);
  out.push({ sensor, configtype, param, subparam, datatype, value });
  return undefined;
}

/** One device state (a key and its JSON value); a rejection when the value cannot be kept. */
export function pushState(key: string, value: unknown, out: RawState[]): AdapterResult | undefined {
  const bad = unstorable(value);
  if (bad) return bad;
  out.push({ key, value });
  return undefined;
}
