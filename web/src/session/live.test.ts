// The sign-in answer → outcome mapping of the browser's session actors (spec 01 section 8 "Sign-in", issue 23 item 5).
import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { loginOutcome } from './live.js';

const answer = (code: number, body: Record<string, unknown>) =>
  ({ code, text: '', headers: {}, body }) as Parameters<typeof loginOutcome>[1];
const tenant = { kind: 'tenant' } as const;

describe('loginOutcome', () => {
  it('keeps the spec messages for -1 and -2', () => {
    expect(loginOutcome(tenant, answer(400, { response_result: -1, message: 'x' }))).toEqual({
      ok: false,
      message: T.login.unknownUsername,
    });
    expect(loginOutcome(tenant, answer(400, { response_result: -2, message: 'x' }))).toEqual({
      ok: false,
      message: T.login.wrongPassword,
    });
  });
  it('shows how long to wait after too many failed sign-ins (429)', () => {
    const message = T.common.tooManyAttempts(42);
    expect(loginOutcome(tenant, answer(429, { response_result: -41, message, retry_after: 42 }))).toEqual({
      ok: false,
      message,
    });
    expect(loginOutcome({ kind: 'member', domain: 'kebun' }, answer(429, { response_result: -41, message }))).toEqual({
      ok: false,
      message,
    });
  });
});
