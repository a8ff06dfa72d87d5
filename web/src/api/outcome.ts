// Turns a call's result into the message the spec's error catalogue gives (spec 01 section 8).
import { T } from '@sentra/contracts';
import { resultCode, type ApiResult } from './request.js';

export interface MessageRules {
  /** envelope codes of a 400 answer and their messages (a contract's `errors` map fits) */
  byCode?: Readonly<Record<number, string>>;
  /** any other failure */
  fallback: string;
}

export function failureMessage(r: ApiResult<unknown>, rules: MessageRules): string {
  if (r.failure === 'network') return T.common.noConnection;
  if (r.failure === 'timeout') return T.common.timeout;
  if (r.code >= 500) return T.common.serverDown;
  // throttled (sign-in, registration): the server's message says how long to wait (Result.TOO_MANY_ATTEMPTS)
  if (r.code === 429) return serverReason(r) ?? rules.fallback;
  if (r.code === 400) {
    const code = resultCode(r);
    const known = code !== undefined ? rules.byCode?.[code] : undefined;
    if (known) return known;
  }
  return rules.fallback;
}

/**
 * What the server said about a refused call, for a toast: the first field error's message, else the envelope's
 * `message`; undefined when the server said nothing usable (no answer, 5xx). Works on text answers too (a CSV call
 * whose refusal is a JSON envelope).
 */
export function serverReason(r: ApiResult<unknown>): string | undefined {
  if (r.failure || r.code >= 500) return undefined;
  let body = r.body as unknown;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const env = body as { message?: unknown; errors?: { message?: unknown }[] } | null;
  const field = Array.isArray(env?.errors)
    ? env.errors.find((e) => typeof e?.message === 'string')?.message
    : undefined;
  if (typeof field === 'string' && field) return field;
  return typeof env?.message === 'string' && env.message ? env.message : undefined;
}
