// Throttling of password guesses and self-registrations (issue 23 item 5), on rate-limiter-flexible's memory store:
// failed sign-ins are counted per account and per client address; once either passes `attempts` within `windowS`
// every sign-in of it answers 429 (the right password too, or guessing would go on under the block) until the block
// ends. Each further lock-out of the same key within a day doubles its block (a growing delay), up to an hour.
// A success clears the account's count and gives the address its attempt back. Registrations are counted per
// address, successful or not.
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
  return new ApiError(Result.TOO_MANY_ATTEMPTS, T.common.tooManyAttempts(seconds), 429, undefined, { retry_after: seconds });
}

/**
 * Sign-in attempts per key: an attempt is counted before the password is checked (so parallel guesses cannot all
 * pass a check made before any of them failed) and given back when it succeeds. Past the limit the key is blocked for
 * the window, doubled for every earlier lock-out of the key within a day.
 */
function createAttemptCounter(prefix: string, limits: ThrottleLimits) {
  const attempts = new RateLimiterMemory({ keyPrefix: `${prefix}:try`, points: limits.attempts, duration: limits.windowS });
  const lockouts = new RateLimiterMemory({ keyPrefix: `${prefix}:lock`, points: 1_000_000, duration: LOCKOUT_MEMORY_S });

  return {
    /** counts one attempt; ms the key must wait when it is over the limit, else 0 */
    async take(key: string): Promise<number> {
      const res = await attempts.penalty(key, 1);
      if (res.consumedPoints <= limits.attempts) return 0;
      if (res.consumedPoints === limits.attempts + 1) {
        // the first attempt over the limit: block for the window, doubled for every earlier lock-out today
        const earlier = (await lockouts.penalty(key, 1)).consumedPoints - 1;
        const seconds = Math.min(MAX_BLOCK_S, limits.windowS * 2 ** Math.min(earlier, 12));
        await attempts.block(key, seconds);
        return seconds * 1000;
      }
      return res.msBeforeNext;
    },
    async giveBack(key: string): Promise<void> {
      await attempts.reward(key, 1);
    },
    async clear(key: string): Promise<void> {
      await attempts.delete(key);
    },
  };
}

export function createSignInThrottle(login: ThrottleLimits, register: ThrottleLimits) {
  const accounts = createAttemptCounter('login-account', login);
  const addresses = createAttemptCounter('login-address', login);
  const registrations = new RateLimiterMemory({ keyPrefix: 'register-address', points: register.attempts, duration: register.windowS });

  return {
    /**
     * Counts a sign-in attempt of `account` (the principal tried, known or not) from `address`; 429 while either is
     * over the limit. The attempt stays counted unless `succeeded` gives it back.
     */
    async attempt(account: string, address: string): Promise<void> {
      const [a, b] = await Promise.all([accounts.take(account), addresses.take(address)]);
      if (a > 0 || b > 0) throw tooManyAttempts(Math.max(a, b));
    },
    /** the right password: the account starts afresh, the address gets its attempt back */
    async succeeded(account: string, address: string): Promise<void> {
      await Promise.all([accounts.clear(account), addresses.giveBack(address)]);
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
