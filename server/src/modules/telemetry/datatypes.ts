// The datatypes of spec section 3 and how each is kept in a point: numbers, booleans and datetimes in the REAL column
// (so they roll up and compare), everything else as text (strings and images as is, structured values as JSON).
import { DATATYPES, INSTANT_MAX_MS, type Datatype } from '@sentra/contracts';

export { DATATYPES, type Datatype };

export const isDatatype = (v: unknown): v is Datatype =>
  typeof v === 'string' && (DATATYPES as readonly string[]).includes(v);

/** datatypes whose points feed the minute/hour rollups (a boolean's mean is its duty cycle) */
export const ROLLUP_DATATYPES: readonly Datatype[] = ['number', 'boolean'];
export const rollsUp = (dt: Datatype): boolean => ROLLUP_DATATYPES.includes(dt);

/** A value as stored: exactly one of `num` / `text` is set (both null only for an unexpected value). */
export interface StoredValue {
  num: number | null;
  text: string | null;
}

/** The datatype a device value has when the device's sensor configuration declares none. */
export function inferDatatype(value: unknown): Datatype | null {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? 'number' : null;
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'object':
      if (value === null) return null;
      return Array.isArray(value) ? 'array' : 'object';
    default:
      return null;
  }
}

/** Encodes `value` as `datatype`; null when the value cannot be that datatype (the point is rejected). */
export function encodeValue(datatype: Datatype, value: unknown): StoredValue | null {
  switch (datatype) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { num: value, text: null } : null;
    case 'boolean':
      return typeof value === 'boolean' ? { num: value ? 1 : 0, text: null } : null;
    case 'datetime': {
      const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isFinite(ms) && Math.abs(ms) <= INSTANT_MAX_MS ? { num: ms, text: null } : null;
    }
    case 'string':
    case 'image':
      return typeof value === 'string' ? { num: null, text: value } : null;
    case 'array':
      return Array.isArray(value) ? { num: null, text: JSON.stringify(value) } : null;
    case 'object':
    case 'uobject':
    case 'mobject':
    case 'surveillance':
      return value !== null && typeof value === 'object' ? { num: null, text: JSON.stringify(value) } : null;
  }
}

/** The value as the API answers it: datetimes as epoch ms, structured values parsed back. */
export function decodeValue(datatype: Datatype, num: number | null, text: string | null): unknown {
  switch (datatype) {
    case 'number':
    case 'datetime':
      return num;
    case 'boolean':
      return num === null ? null : num !== 0;
    case 'string':
    case 'image':
      return text;
    default:
      if (text === null) return null;
      try {
        return JSON.parse(text);
      } catch {
        return null;
      }
  }
}
