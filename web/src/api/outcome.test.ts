// A refused call's toast text: the spec's catalogue for known codes, the server's own words for a throttled call.
import { describe, expect, it } from 'vitest';
import { T, contracts } from '@sentra/contracts';
import { failureMessage } from './outcome.js';

const answer = (code: number, body: Record<string, unknown>) =>
  ({ code, text: '', headers: {}, body }) as Parameters<typeof failureMessage>[0];

describe('failureMessage', () => {
  it('shows the spec message of a known code and the fallback otherwise', () => {
    const rules = { byCode: contracts.auth.register.errors, fallback: T.registration.failed };
    const known = Object.entries(contracts.auth.register.errors ?? {})[0]!;
    expect(failureMessage(answer(400, { response_result: Number(known[0]), message: 'x' }), rules)).toBe(known[1]);
    expect(failureMessage(answer(400, { response_result: -77, message: 'x' }), rules)).toBe(T.registration.failed);
  });
  it('shows how long to wait when registration or sign-in is throttled (429), not "Registrasi Gagal"', () => {
    const message = T.common.tooManyAttempts(30);
    expect(failureMessage(answer(429, { response_result: -41, message }), { fallback: T.registration.failed })).toBe(
      message,
    );
    expect(failureMessage(answer(429, {}), { fallback: T.registration.failed })).toBe(T.registration.failed);
  });
});
