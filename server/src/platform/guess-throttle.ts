// Password guessing, throttled without locking out the innocent: the one rule behind the console's sign-in
// (modules/auth/throttle.ts) and the broker's CONNECT (mqtt-connect-throttle.ts). Counters are rate-limiter-flexible's
// memory store (per gateway process).
//
// - A **pair** (principal, address): its attempts are counted before the check (parallel ones cannot all pass a check
//   made before any of them failed) and given back by a success; past its limit within the window that pair, and only
//   that pair, is refused unchecked, blocked for the window (doubled by each earlier lock-out of the pair within a day).
//   A device left with an old password locks out itself, not its neighbours behind the same NAT.
// - A **principal** (an account, a device username) guessed from many addresses: past its failures within the window
//   it is slowed, not blocked: an attempt from an address it never signed in from waits its turn, one every
//   window/attempts (at most `maxWaitMs`, else it is refused for now, told when to come back). The guesser gains no
//   guesses from rotating addresses; the owner, from an address that signed in before, is not slowed at all, and from
//   a new one waits seconds.
// - An **address** counts attempts with principals nobody knows (and, for the broker, devices admitted without
//   credentials: gateways not registered yet); past its limit those are refused. A principal that exists is never
//   refused by its address's count, so a busy NAT of correctly configured devices is never locked out by one of them.
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

export interface GuessLimits {
  attempts: number;
  windowS: number;
}

export interface GuessThrottleOptions {
  /** store key prefix, one per use (the sign-in's and the broker's counts are separate) */
  name: string;
  /** failures of one principal from one address */
  pair: GuessLimits;
  /** failures of one principal from every address */
  principal: GuessLimits;
  /** attempts from one address with unknown principals */
  address: GuessLimits;
  /** the longest a slowed attempt waits for its turn (default 20 s) */
  maxWaitMs?: number;
  /** the longest block of a pair that keeps failing (doubling from the window; default 1 h) */
  maxBlockS?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** what an attempt may do now: go (after waiting `waitedMs` in the slow lane), or not before `retryMs` */
export type Entry = { go: true; waitedMs: number } | { go: false; retryMs: number; why: 'pair' | 'principal' };

const MAX_BLOCK_S = 3600;
const LOCKOUT_MEMORY_S = 86_400;
/** (principal, address) pairs that signed in, remembered this long: they skip a principal's slow lane */
export const KNOWN_GOOD_MS = 30 * 86_400_000;
/** pairs remembered at most (the least recently seen go first) */
const KNOWN_GOOD_MAX = 200_000;
/** principals slowed at once at most (a flood of made-up names cannot grow this without bound) */
const LANES_MAX = 10_000;

const sep = '\u0000';

export function createGuessThrottle(opts: GuessThrottleOptions) {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxWaitMs = opts.maxWaitMs ?? 20_000;
  const maxBlockS = opts.maxBlockS ?? MAX_BLOCK_S;
  const counter = (what: string, l: GuessLimits) =>
    new RateLimiterMemory({ keyPrefix: `${opts.name}:${what}`, points: l.attempts, duration: l.windowS });
  const pairs = counter('pair', opts.pair);
  const principals = counter('principal', opts.principal);
  const addresses = counter('address', opts.address);
  const lockouts = new RateLimiterMemory({
    keyPrefix: `${opts.name}:lock`,
    points: 1_000_000,
    duration: LOCKOUT_MEMORY_S,
  });
  /** pair → when it last signed in (insertion order: least recently first) */
  const knownGood = new Map<string, number>();
  /** principal → when its slow lane's next turn is */
  const lanes = new Map<string, number>();
  /** pairs blocked now → until when (a failure that was in flight meanwhile does not block them again) */
  const blockedUntil = new Map<string, number>();
  /** the principal's spacing while slowed: its window shared among its attempts, so a guesser rotating addresses gets
   * no more guesses than from one; at most half the longest wait, so an owner's attempt finds a turn in time */
  const spacingMs = Math.min(
    Math.ceil((opts.principal.windowS * 1000) / opts.principal.attempts),
    Math.floor(maxWaitMs / 2),
  );
  const counters = { pair_refused: 0, principal_slowed: 0, principal_refused: 0, address_refused: 0 };

  const over = (res: RateLimiterRes | null, limits: GuessLimits) =>
    res !== null && res.consumedPoints >= limits.attempts;

  function isKnownGood(key: string): boolean {
    const at = knownGood.get(key);
    if (at === undefined) return false;
    if (now() - at <= KNOWN_GOOD_MS) return true;
    knownGood.delete(key);
    return false;
  }

  /** whether attempts with unknown principals from `address` are refused now (ms until they are not, else 0) */
  async function addressWait(address: string): Promise<number> {
    const res = await addresses.get(address);
    if (!over(res, opts.address)) return 0;
    counters.address_refused++;
    return Math.max(1, res!.msBeforeNext);
  }

  return {
    /**
     * Before the credentials are checked. A blocked pair is refused unchecked; a slowed principal waits for its turn
     * here unless this address signed in to it before.
     */
    async enter(principal: string, address: string): Promise<Entry> {
      const pairKey = principal + sep + address;
      // counted before the check (and given back by a success), so that parallel attempts cannot all pass a check
      // made before any of them failed
      const pair = await pairs.penalty(pairKey, 1);
      if (pair.consumedPoints > opts.pair.attempts) {
        counters.pair_refused++;
        return { go: false, retryMs: Math.max(1, pair.msBeforeNext), why: 'pair' };
      }
      const own = await principals.penalty(principal, 1);
      if (own.consumedPoints <= opts.principal.attempts || isKnownGood(pairKey)) return { go: true, waitedMs: 0 };
      // slowed: one attempt per spacing, in the order they came
      const t = now();
      const turn = Math.max(t, lanes.get(principal) ?? 0);
      if (turn - t > maxWaitMs) {
        counters.principal_refused++;
        return { go: false, retryMs: turn - t, why: 'principal' };
      }
      lanes.delete(principal);
      lanes.set(principal, turn + spacingMs);
      if (lanes.size > LANES_MAX) lanes.delete(lanes.keys().next().value!);
      counters.principal_slowed++;
      if (turn > t) await sleep(turn - t);
      return { go: true, waitedMs: turn - t };
    },

    /** the credentials were wrong (`known`) or named nobody (counted on the address too); the pair's last allowed
     * failure blocks it, for the window doubled by each earlier lock-out of the pair within a day */
    async failed(principal: string, address: string, known: boolean): Promise<void> {
      const pairKey = principal + sep + address;
      if (!known) await addresses.penalty(address, 1);
      const pair = await pairs.get(pairKey);
      if (!pair || pair.consumedPoints < opts.pair.attempts) return;
      const t = now();
      if ((blockedUntil.get(pairKey) ?? 0) > t) return; // blocked already (attempts that were in flight)
      const earlier = (await lockouts.penalty(pairKey, 1)).consumedPoints - 1;
      const seconds = Math.min(maxBlockS, opts.pair.windowS * 2 ** Math.min(earlier, 12));
      await pairs.block(pairKey, seconds);
      blockedUntil.set(pairKey, t + seconds * 1000);
      if (blockedUntil.size > KNOWN_GOOD_MAX) blockedUntil.delete(blockedUntil.keys().next().value!);
    },

    /** the right credentials: the pair starts afresh, the principal gets this attempt back, and this address skips its
     * slow lane from now on */
    async succeeded(principal: string, address: string): Promise<void> {
      const pairKey = principal + sep + address;
      await pairs.delete(pairKey);
      await principals.reward(principal, 1);
      blockedUntil.delete(pairKey);
      knownGood.delete(pairKey);
      knownGood.set(pairKey, now());
      if (knownGood.size > KNOWN_GOOD_MAX) knownGood.delete(knownGood.keys().next().value!);
    },

    addressWait,

    /** one attempt of `address` that its address limit counts although it succeeded (a device admitted without
     * credentials); false when the address is over its limit (then refused) */
    async takeAddress(address: string): Promise<boolean> {
      if ((await addressWait(address)) > 0) return false;
      await addresses.penalty(address, 1);
      return true;
    },

    metrics: () => ({ ...counters }),
  };
}

export type GuessThrottle = ReturnType<typeof createGuessThrottle>;
