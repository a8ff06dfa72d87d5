// Field rules of the spec's validation sections, written once: the server validates with them, the web's forms too.
import { z } from 'zod';
import { T } from '../text/id.js';

/** A required trimmed-free string with the spec's length bounds and the catalogue's messages. */
export function text(min: number, max?: number) {
  let s = z.string({ error: T.common.required }).min(1, T.common.required);
  if (min > 1) s = s.min(min, T.common.min(min));
  if (max !== undefined) s = s.max(max, T.common.max(max));
  return s;
}

/** An optional string: absent, or at most `max` characters (empty allowed). */
export function optionalText(max: number) {
  return z.string().max(max, T.common.max(max)).optional();
}

export const username = text(4, 16);
export const personName = text(4, 16);
export const lastName = optionalText(16);
export const email = text(4, 254).pipe(z.email(T.common.invalidEmail));
/** A new password (registration, user add, password change): at least 8 characters; sign-in accepts older, shorter ones. */
export const PASSWORD_MIN = 8;
export const password = text(PASSWORD_MIN, 128);

/** Domain of an application: lowercase letter first, then lowercase letters, digits or underscore, ≤ 64. */
export const appDomain = z
  .string({ error: T.common.required })
  .min(1, T.common.required)
  .max(64, T.common.max(64))
  .regex(/^[a-z]/, T.application.domainStart)
  .regex(/^[A-Za-z0-9_]*$/, T.application.domainChars)
  .regex(/^[a-z][a-z0-9_]*$/, T.application.domainStart);

export const appName = text(4, 128);

/** An IANA time zone name the runtime knows (`Asia/Jakarta`, `UTC`): the zone a CSV's times are written in. */
export const timeZone = z
  .string()
  .min(1, T.deviceData.timeZoneInvalid)
  .max(64, T.deviceData.timeZoneInvalid)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, T.deviceData.timeZoneInvalid);

/** Integer ids travel as numbers in JSON and as strings in paths and query strings. */
export const id = z.coerce.number({ error: T.common.required }).int().positive();

/**
 * How deep a free-form JSON value (sensors, policies, scopes, permissions) may nest: far deeper than any of them needs,
 * and far shallower than the ~5,000 levels at which JSON.stringify (recursive) fails to write it back.
 */
export const JSON_DEPTH_MAX = 64;

/**
 * Whether `value` nests at most `max` levels of objects and arrays. The walk goes no deeper than `max`, so its own
 * recursion stays as shallow as the limit however deep the value; it allocates nothing (telemetry calls it per value).
 */
export function jsonDepthWithin(value: unknown, max = JSON_DEPTH_MAX): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (max === 0) return false;
  if (Array.isArray(value)) {
    for (const x of value) if (!jsonDepthWithin(x, max - 1)) return false;
    return true;
  }
  for (const k in value) if (!jsonDepthWithin((value as Record<string, unknown>)[k], max - 1)) return false;
  return true;
}

/**
 * A JSON object or array, sent as JSON text (a form's text area) or as JSON; parsed either way. Anything else, and
 * text that is not a JSON object or array, fails with `message` (the spec's "... harus dalam bentuk JSON yang benar").
 */
export function jsonDocument(message: string) {
  return z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], { error: message })
    .transform((v, ctx) => {
      let parsed: unknown = v;
      if (typeof v === 'string') {
        try {
          parsed = JSON.parse(v);
        } catch {
          parsed = undefined;
        }
      }
      if (parsed === null || typeof parsed !== 'object') {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      if (!jsonDepthWithin(parsed)) {
        ctx.addIssue({ code: 'custom', message: T.common.jsonTooDeep(JSON_DEPTH_MAX) });
        return z.NEVER;
      }
      return parsed as Record<string, unknown> | unknown[];
    });
}

/** The farthest instant a call may name (the end of year 9999): calendar math and formatting stay inside a Date. */
export const INSTANT_MAX_MS = 253_402_300_799_999;
