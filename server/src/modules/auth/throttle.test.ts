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
  /** one wrong password, as the sign-in makes it */
  const wrong = async (t: ReturnType<typeof createSignInThrottle>, account: string, address: string, known = true) => {
    const r = await refusal(t.attempt(account, address, known));
    if (r === null) await t.failed(account, address, known);
    return r;
  };

  it('refuses an (account, address) pair past its wrong passwords with 429 -41, never the account from another address', async () => {
    const t = createSignInThrottle({ attempts: 3, windowS: 60 }, { attempts: 1, windowS: 60 });
    for (let i = 0; i < 3; i++) expect(await wrong(t, 'tenant:budi', '10.0.0.1')).toBeNull();
    expect(await refusal(t.attempt('tenant:budi', '10.0.0.1', true))).toEqual({
      status: 429,
      code: Result.TOO_MANY_ATTEMPTS,
      retryAfter: 60,
    });
    // the owner from an address that has not failed: checked (the account is not over its own count yet)
    expect(await refusal(t.attempt('tenant:budi', '10.0.0.2', true))).toBeNull();
    await t.succeeded('tenant:budi', '10.0.0.2');
    // another account from the guesser's address is not affected
    expect(await refusal(t.attempt('tenant:siti', '10.0.0.1', true))).toBeNull();
  });

  it('slows, never blocks, an account guessed from many addresses: its own address goes at once', async () => {
    const t = createSignInThrottle({ attempts: 3, windowS: 60 }, { attempts: 1, windowS: 60 });
    await refusal(t.attempt('tenant:budi', '10.0.9.9', true));
    await t.succeeded('tenant:budi', '10.0.9.9');
    for (let i = 0; i < 3; i++) expect(await wrong(t, 'tenant:budi', `10.0.1.${i}`)).toBeNull();
    // a guesser from a fresh address gets a turn; the next fresh one waits for its own (4 s apart here)
    const started = performance.now();
    expect(await wrong(t, 'tenant:budi', '10.0.2.1')).toBeNull();
    const owner = performance.now();
    expect(await refusal(t.attempt('tenant:budi', '10.0.9.9', true))).toBeNull();
    expect(performance.now() - owner).toBeLessThan(500);
    expect(await wrong(t, 'tenant:budi', '10.0.2.2')).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(3900);
  });

  it('counts names nobody has per address, and past the limit answers 429 to those alone', async () => {
    const t = createSignInThrottle({ attempts: 2, windowS: 60 }, { attempts: 1, windowS: 60 });
    // many people signing in at once from one address (an office) are never refused
    const ok = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refusal(t.attempt(`member:1:u${i}`, '10.0.0.1', true))),
    );
    expect(ok.every((r) => r === null)).toBe(true);
    for (let i = 0; i < 6; i++) expect(await wrong(t, `member:1:siapa${i}`, '10.0.0.1', false)).toBeNull();
    expect((await refusal(t.attempt('member:1:siapa9', '10.0.0.1', false)))?.status).toBe(429);
    expect(await refusal(t.attempt('member:1:u3', '10.0.0.1', true))).toBeNull();
    expect(await refusal(t.attempt('member:1:siapa9', '10.0.0.2', false))).toBeNull();
  });

  it('doubles the block of a pair locked out again within a day', async () => {
    const t = createSignInThrottle({ attempts: 1, windowS: 1 }, { attempts: 1, windowS: 60 });
    await wrong(t, 'tenant:budi', 'a');
    expect((await refusal(t.attempt('tenant:budi', 'a', true)))?.retryAfter).toBe(1);
    await sleep(1100);
    await wrong(t, 'tenant:budi', 'a');
    expect((await refusal(t.attempt('tenant:budi', 'a', true)))?.retryAfter).toBe(2);
  });

  it('counts registrations per address', async () => {
    const t = createSignInThrottle({ attempts: 1, windowS: 60 }, { attempts: 2, windowS: 60 });
    expect(await refusal(t.register('10.0.0.1'))).toBeNull();
    expect(await refusal(t.register('10.0.0.1'))).toBeNull();
    expect((await refusal(t.register('10.0.0.1')))?.code).toBe(Result.TOO_MANY_ATTEMPTS);
    expect(await refusal(t.register('10.0.0.2'))).toBeNull();
  });
});
