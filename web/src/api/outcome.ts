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
  if (r.code === 400) {
    const code = resultCode(r);
    const known = code !== undefined ? rules.byCode?.[code] : undefined;
    if (known) return known;
  }
  return rules.fallback;
}
