// Throttling of password guesses and self-registrations (issue 23 item 5), on rate-limiter-flexible's memory store:
// sign-in attempts are counted per account and failed ones per client address; once either has had `attempts` within
// `windowS` every sign-in of it answers 429 (the right password too, or guessing would go on under the block) until
// the block ends. Each further lock-out of the same key within a day doubles its block (a growing delay), up to an
// hour. A success clears the account's count. Registrations are counted per address, successful or not.
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { Result, T } from '@sentra/contracts';
import { ApiError } from '../../platform/http/errors.js';

export interface ThrottleLimits {
  attempts: number;
  windowS: number;
}

const MAX_BLOCK_S = 3600;
const LOCKOUT_MEMORY_S = 86_400;

/** 429 in the envelope, telling how many seconds until the next attempt is taken (also as Retry-After). */
export function tooManyAttempts(msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(Result.TOO_MANY_ATTEMPTS, T.common.tooManyAttempts(seconds), 429, undefined, {
    retry_after: seconds,
  });
}

/** The block of a key that just went over its limit: the window, doubled for every earlier lock-out of the key today. */
function createLockouts(prefix: string, windowS: number) {
  const lockouts = new RateLimiterMemory({
    keyPrefix: `${prefix}:lock`,
    points: 1_000_000,
    duration: LOCKOUT_MEMORY_S,
  });
  return async (key: string): Promise<number> => {
    const earlier = (await lockouts.penalty(key, 1)).consumedPoints - 1;
    return Math.min(MAX_BLOCK_S, windowS * 2 ** Math.min(earlier, 12));
  };
}

/**
 * Sign-in attempts per account: an attempt is counted before the password is checked (so parallel guesses at one
 * account cannot all pass a check made before any of them failed) and the count is cleared by a success. Past the
 * limit the account is blocked (createLockouts).
 */
function createAccountCounter(limits: ThrottleLimits) {
  const attempts = new RateLimiterMemory({
    keyPrefix: 'login-account',
    points: limits.attempts,
    duration: limits.windowS,
  });
  const blockFor = createLockouts('login-account', limits.windowS);
  return {
    /** counts one attempt; ms the account must wait when it is over the limit, else 0 */
    async take(key: string): Promise<number> {
      const res = await attempts.penalty(key, 1);
      if (res.consumedPoints <= limits.attempts) return 0;
      if (res.consumedPoints === limits.attempts + 1) {
        const seconds = await blockFor(key);
        await attempts.block(key, seconds);
        return seconds * 1000;
      }
      return res.msBeforeNext;
    },
    async clear(key: string): Promise<void> {
      await attempts.delete(key);
    },
  };
}

/**
 * Failed sign-ins per client address: checked before the password, counted after a failure only, so many people
 * signing in at once from one address (an office, a load test) are never refused. Reaching the limit blocks the
 * address (createLockouts).
 */
function createAddressCounter(limits: ThrottleLimits) {
  const failures = new RateLimiterMemory({
    keyPrefix: 'login-address',
    points: limits.attempts,
    duration: limits.windowS,
  });
  const blockFor = createLockouts('login-address', limits.windowS);
  return {
    /** ms the address must wait, else 0 */
    async wait(key: string): Promise<number> {
      const res = await failures.get(key);
      return res && res.consumedPoints >= limits.attempts ? Math.max(1, res.msBeforeNext) : 0;
    },
    async fail(key: string): Promise<void> {
      const res = await failures.penalty(key, 1);
      if (res.consumedPoints === limits.attempts) await failures.block(key, await blockFor(key));
    },
  };
}

export function createSignInThrottle(login: ThrottleLimits, register: ThrottleLimits) {
  const accounts = createAccountCounter(login);
  const addresses = createAddressCounter(login);
  const registrations = new RateLimiterMemory({
    keyPrefix: 'register-address',
    points: register.attempts,
    duration: register.windowS,
  });

  return {
    /**
     * Before a password is checked: 429 while the address or the account (the principal tried, known or not) is
     * blocked; counts the account's attempt.
     */
    async attempt(account: string, address: string): Promise<void> {
      const byAddress = await addresses.wait(address);
      if (byAddress > 0) throw tooManyAttempts(byAddress);
      const byAccount = await accounts.take(account);
      if (byAccount > 0) throw tooManyAttempts(byAccount);
    },
    /** the password was wrong (or the username unknown): the address counts a failure */
    async failed(address: string): Promise<void> {
      await addresses.fail(address);
    },
    /** the right password: the account starts afresh */
    async succeeded(account: string): Promise<void> {
      await accounts.clear(account);
    },
    /** Counts a registration attempt of `address`; 429 past the limit. */
    async register(address: string): Promise<void> {
      try {
        await registrations.consume(address, 1);
      } catch (err) {
        if (err instanceof Error) throw err;
        throw tooManyAttempts((err as RateLimiterRes).msBeforeNext);
      }
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
