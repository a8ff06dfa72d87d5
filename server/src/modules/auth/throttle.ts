// Throttling of password guesses and self-registrations (docs/decisions/security-access.md), on the one guessing rule
// of platform/guess-throttle.ts: a sign-in is counted per (account, client address) pair, which its failures block
// (the block doubling with each lock-out of the pair within a day, up to an hour), and per account, whose failures from
// every address slow it (one check at a time, spaced) for addresses that never signed in to it, never block it; an
// address counts the names nobody has, and past its limit answers 429 to them. So a guesser cannot keep the owner out:
// from the owner's own address nothing is counted against them. Registrations are counted per address.
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { Result, T } from '@sentra/contracts';
import { ApiError } from '../../platform/http/errors.js';
import { createGuessThrottle } from '../../platform/guess-throttle.js';

export interface ThrottleLimits {
  attempts: number;
  windowS: number;
}

/** 429 in the envelope, telling how many seconds until the next attempt is taken (also as Retry-After). */
export function tooManyAttempts(msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(Result.TOO_MANY_ATTEMPTS, T.common.tooManyAttempts(seconds), 429, undefined, {
    retry_after: seconds,
  });
}

/** names nobody has, tried from one address, per this many times the account limit (typos of a whole office) */
export const UNKNOWN_NAMES_FACTOR = 3;
/** the longest a slowed sign-in waits for its turn before it is answered 429 */
const SLOWED_WAIT_MS = 8000;

export function createSignInThrottle(login: ThrottleLimits, register: ThrottleLimits) {
  const guesses = createGuessThrottle({
    name: 'login',
    pair: login,
    principal: login,
    address: { attempts: login.attempts * UNKNOWN_NAMES_FACTOR, windowS: login.windowS },
    maxWaitMs: SLOWED_WAIT_MS,
  });
  const registrations = new RateLimiterMemory({
    keyPrefix: 'register-address',
    points: register.attempts,
    duration: register.windowS,
  });

  return {
    /**
     * Before a password is checked: 429 while this (account, address) pair is blocked, or for a name nobody has while
     * the address is over its count of those; waits its turn while the account is slowed.
     */
    async attempt(account: string, address: string, known: boolean): Promise<void> {
      if (!known) {
        const wait = await guesses.addressWait(address);
        if (wait > 0) throw tooManyAttempts(wait);
      }
      const entry = await guesses.enter(account, address);
      if (!entry.go) throw tooManyAttempts(entry.retryMs);
    },
    /** the password was wrong (`known`) or the name unknown */
    async failed(account: string, address: string, known: boolean): Promise<void> {
      await guesses.failed(account, address, known);
    },
    /** the right password: the pair starts afresh, and this address is the account's own from now on */
    async succeeded(account: string, address: string): Promise<void> {
      await guesses.succeeded(account, address);
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
