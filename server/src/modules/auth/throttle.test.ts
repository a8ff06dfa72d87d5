// The sign-in throttle on its own: the limit, the block, a success, and the growing block of repeated lock-outs.
import { describe, expect, it } from 'vitest';
import { Result } from '@sentra/contracts';
import { ApiError } from '../../platform/http/errors.js';
import { createSignInThrottle } from './throttle.js';

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    return { status: e.status, code: e.code, retryAfter: e.extra?.retry_after as number };
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sign-in throttle', () => {
  it('takes `attempts` attempts per account, refuses the next with 429 -41, and a success starts the account afresh', async () => {
    const t = createSignInThrottle({ attempts: 3, windowS: 60 }, { attempts: 1, windowS: 60 });
    for (let i = 0; i < 3; i++) expect(await refusal(t.attempt('tenant:budi', `10.0.0.${i}`))).toBeNull();
    expect(await refusal(t.attempt('tenant:budi', '10.0.0.9'))).toEqual({
      status: 429,
      code: Result.TOO_MANY_ATTEMPTS,
      retryAfter: 60,
    });
    // another account from a fresh address is not affected
    expect(await refusal(t.attempt('tenant:siti', '10.0.0.8'))).toBeNull();
    await t.succeeded('tenant:siti');
    for (let i = 0; i < 3; i++) expect(await refusal(t.attempt('tenant:siti', `10.0.1.${i}`))).toBeNull();
  });

  it('counts failures per address across accounts, never successes (many people signing in at once from one address)', async () => {
    const t = createSignInThrottle({ attempts: 2, windowS: 60 }, { attempts: 1, windowS: 60 });
    const ok = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refusal(t.attempt(`member:1:u${i}`, '10.0.0.1'))),
    );
    expect(ok.every((r) => r === null)).toBe(true);
    await t.failed('10.0.0.1');
    expect(await refusal(t.attempt('member:1:x', '10.0.0.1'))).toBeNull();
    await t.failed('10.0.0.1');
    expect(await refusal(t.attempt('member:1:y', '10.0.0.1'))).toEqual({
      status: 429,
      code: Result.TOO_MANY_ATTEMPTS,
      retryAfter: 60,
    });
    expect(await refusal(t.attempt('member:1:y', '10.0.0.2'))).toBeNull();
  });

  it('doubles the block of a key locked out again within a day', async () => {
    const t = createSignInThrottle({ attempts: 1, windowS: 1 }, { attempts: 1, windowS: 60 });
    await t.attempt('tenant:budi', 'a');
    expect((await refusal(t.attempt('tenant:budi', 'b')))?.retryAfter).toBe(1);
    await sleep(1100);
    await t.attempt('tenant:budi', 'c');
    expect((await refusal(t.attempt('tenant:budi', 'd')))?.retryAfter).toBe(2);
  });

  it('counts registrations per address', async () => {
    const t = createSignInThrottle({ attempts: 1, windowS: 60 }, { attempts: 2, windowS: 60 });
    expect(await refusal(t.register('10.0.0.1'))).toBeNull();
    expect(await refusal(t.register('10.0.0.1'))).toBeNull();
    expect((await refusal(t.register('10.0.0.1')))?.code).toBe(Result.TOO_MANY_ATTEMPTS);
    expect(await refusal(t.register('10.0.0.2'))).toBeNull();
  });
});
