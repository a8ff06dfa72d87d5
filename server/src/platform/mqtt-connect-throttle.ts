// MQTT password guessing (issue 23): CONNECT failures are counted per client address with rate-limiter-flexible (in
// memory, per gateway process); after the limit's failures within a minute (the window opens at the first), that address's CONNECTs are refused (CONNACK 5, not
// authorised) for a minute without asking any authority, so a guesser learns nothing and costs no lookups. A correct
// CONNECT from another address is unaffected; one from the blocked address waits out the minute like any other.
import { RateLimiterMemory } from 'rate-limiter-flexible';

export interface ConnectThrottle {
  /** whether CONNECTs from this address are refused now, without checking their credentials */
  blocked(address: string | undefined): Promise<boolean>;
  /** a CONNECT from this address was refused by the authorities (unknown client, wrong password) */
  failed(address: string | undefined): Promise<void>;
  /** counters since start: `throttled_connects` refused unchecked, `failed_connects` refused by the authorities */
  metrics(): { throttled_connects: number; failed_connects: number };
}

export const CONNECT_WINDOW_S = 60;

export function createConnectThrottle(opts: { failuresPerMinute: number }): ConnectThrottle {
  const limiter = new RateLimiterMemory({
    points: opts.failuresPerMinute,
    duration: CONNECT_WINDOW_S,
    blockDuration: CONNECT_WINDOW_S,
  });
  const counters = { throttled_connects: 0, failed_connects: 0 };
  // a client without an address (a relayed connection that lost it) shares one bucket: refused rather than unlimited
  const keyOf = (address: string | undefined) => address || 'unknown';
  return {
    async blocked(address) {
      const state = await limiter.get(keyOf(address));
      const over = state !== null && state.consumedPoints >= opts.failuresPerMinute;
      if (over) counters.throttled_connects++;
      return over;
    },
    async failed(address) {
      counters.failed_connects++;
      // rejects once the address is over its limit (then blocked for the window): that is the answer, not an error
      await limiter.consume(keyOf(address)).catch(() => undefined);
    },
    metrics: () => ({ ...counters }),
  };
}
