// Access-management entities shared by server and web: JSON-object fields, credentials categories and scopes,
// role names and system navigation choices, navigation items (spec 01 sections 3, 5, 9).
import { z } from 'zod';
import { SYS_NAVS } from '../codes.js';
import { T } from '../text/id.js';
import { SysNavKey } from './nav.js';
import { JSON_DEPTH_MAX, jsonDepthWithin } from './fields.js';

const NOT_JSON = Symbol('not-json');

/**
 * A free-form JSON object (scopes, details, permissions). The web's forms edit it as text, so a string holding a
 * JSON object is accepted too; anything else answers `message` ('Invalid JSON for `Scopes`', ...).
 */
export function jsonObject(message: string) {
  return z.preprocess(
    (v: string | Record<string, unknown>) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        return NOT_JSON;
      }
    },
    z
      .record(z.string(), z.unknown(), { error: message })
      .refine((v) => jsonDepthWithin(v), T.common.jsonTooDeep(JSON_DEPTH_MAX)),
  );
}

/** Credentials categories (spec 01 section 3): code → the text the card shows. */
export const CREDENTIALS_CATEGORIES = { 21: 'API_KEY', 14: 'OPEN_V4', 19: 'OPEN_V0', 31: 'OIDC' } as const;
export type CredentialsCategory = keyof typeof CREDENTIALS_CATEGORIES;
export const DEFAULT_CREDENTIALS_CATEGORY = 19;
export const credentialsCategory = z.coerce
  .number({ error: T.common.required })
  .pipe(z.literal([21, 14, 19, 31], { error: T.credentials.unknownCategory }));

/** credentials_id: ≤ 32 visible ASCII characters (it travels in the x-credentials-id header). */
export const credentialsId = z
  .string({ error: T.common.required })
  .min(1, T.common.required)
  .max(32, T.common.max(32))
  .regex(/^[\x21-\x7e]+$/, T.credentials.idChars);

/** `*` in a credentials pair's scope navs stands for every system navigation key. */
export const ALL_NAVS = '*';

/**
 * What a credentials pair may do: the same grants a role gives. `navs`: system navigation keys (or `*`),
 * `permissions`: the role-style permissions object (`{"task_manage": true}`). Other keys are kept, not interpreted.
 */
export const CredentialsScopes = jsonObject(T.credentials.invalidScopes).pipe(
  z.looseObject({
    navs: z
      .array(z.enum([...SYS_NAVS, ALL_NAVS], { error: T.credentials.unknownScopeNav }), {
        error: T.credentials.invalidScopes,
      })
      .optional(),
    permissions: z.record(z.string(), z.unknown(), { error: T.credentials.invalidScopes }).optional(),
  }),
);

/** Role name: a letter or digit, then letters, digits or underscores; 2 to 30 characters in all. */
export const roleName = z
  .string({ error: T.common.required })
  .min(1, T.common.required)
  .max(30, T.common.max(30))
  .regex(/^[A-Za-z0-9][A-Za-z0-9_]+$/, T.roles.namePattern);

/** A system navigation choice as role get shows it (and as the edit form may send it back). */
export const SysNavChoice = z.object({ id: SysNavKey, label: z.string(), checked: z.boolean() });

/** sys_navs in a role form: keys, or the choices of role get with `checked`. */
export const SysNavsInput = z
  .array(z.union([SysNavKey, z.object({ id: SysNavKey, checked: z.boolean().optional().default(true) })]))
  .transform((items) => [...new Set(items.flatMap((i) => (typeof i === 'string' ? [i] : i.checked ? [i.id] : [])))]);

/** One dashboard as a navigation item (flat; `parent` null for a root). */
export const NavItem = z.object({
  id: z.number().int(),
  label: z.string(),
  path: z.string(),
  parent: z.number().int().nullable(),
  sort: z.number().int(),
});
