// The shape of one documented call: the server mounts it, the web client is typed by it, the OpenAPI document lists it.
import { z } from 'zod';
import type { SysNav } from '../codes.js';

export type Method = 'GET' | 'POST';

/**
 * Who may call:
 * - `public`: nobody signed in (sign-ins, registration); may carry x-app-domain only.
 * - `tenant`: a signed-in tenant, outside any application (application list, add).
 * - `member`: inside an application (x-app-domain): its tenant, or one of its users as the role grants.
 * - `session`: any signed-in principal, application scope optional (logout).
 */
export type Audience = 'public' | 'tenant' | 'member' | 'session';

/** What an application user needs for a `member` call; tenants always pass. */
export interface Access {
  /** any one of these system navigation keys */
  navs?: readonly SysNav[];
  /** a key that must be `true` in the role's permissions JSON */
  permission?: string;
  /** the 403's message when the permission is missing (default: the common forbidden text) */
  deniedMessage?: string;
}

/** A validation failure on `field` answers this call-specific code instead of -10 (e.g. add application -2). */
export type FieldCodes = Record<string, { code: number; message: string }>;

export interface CallDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: Method;
  /** spec path; `{name}` segments are path parameters */
  path: string;
  summary: string;
  audience: Audience;
  access?: Access;
  /** parsed from the path parameters plus the query (GET) or the JSON body (POST) */
  input: I;
  /** fields answered beside `response_result: 0`; `null` for streamed (CSV) answers */
  output: O;
  timeoutMs: number;
  /** documented failures of this call: code → meaning */
  errors?: Record<number, string>;
  /**
   * documented failure messages that belong to one input field (message → field), e.g. a taken serial number: the
   * form shows the message under that field. Any code the server answers it with; the answer itself is unchanged.
   */
  errorFields?: Readonly<Record<string, string>>;
  fieldCodes?: FieldCodes;
  /** answered as a stream, not the JSON envelope */
  stream?: 'text/csv';
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** the names of a call's input fields, for `errorFields` */
export type FieldOf<I extends z.ZodType> = Extract<keyof z.input<I>, string>;

export function defineCall<I extends z.ZodType, O extends z.ZodType>(
  def: Omit<CallDef<I, O>, 'timeoutMs' | 'errorFields'> & {
    timeoutMs?: number;
    errorFields?: Readonly<Record<string, FieldOf<I>>>;
  },
): CallDef<I, O> {
  return { ...def, timeoutMs: def.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}

export type Contract = Record<string, CallDef>;
export type InputOf<C extends CallDef> = z.input<C['input']>;
export type ParsedInputOf<C extends CallDef> = z.output<C['input']>;
export type OutputOf<C extends CallDef> = z.output<C['output']>;

/** Names of the `{param}` segments of a spec path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** Fills the `{param}` segments; the rest of `values` is left for the query or body. */
export function fillPath(
  path: string,
  values: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...values };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
  return { path: filled, rest };
}

/** The empty input of calls that take nothing. */
export const NoInput = z.object({}).strip();
export const NoOutput = z.object({});

/** Base kind of a path, as the web's request rules name it. */
export function baseOf(path: string): 'service' | 'fetch' {
  return path.startsWith('/fetch/') ? 'fetch' : 'service';
}
