// MQTT password guessing (docs/decisions/security-devices.md): the broker's CONNECTs through the one guessing rule of
// platform/guess-throttle.ts. A (client address, username) pair that keeps failing is refused unchecked (CONNACK 5) for
// the window; a username guessed from many addresses is slowed (its CONNECTs from addresses it never signed in from wait
// their turn); an address counts CONNECTs with usernames nobody knows and devices admitted without credentials (a
// gateway not registered yet), and past its limit refuses those, never a registered device with its right password.
import { createGuessThrottle, type Entry } from './guess-throttle.js';

export interface ConnectThrottle {
  /** before the credentials are checked: whether this CONNECT goes on (after a wait while its username is slowed) */
  enter(username: string, address: string | undefined): Promise<Entry>;
  /** the authorities refused the CONNECT: `known` when one knew the username (a wrong password) */
  failed(username: string, address: string | undefined, known: boolean): Promise<void>;
  /** the CONNECT signed in */
  succeeded(username: string, address: string | undefined): Promise<void>;
  /** a client admitted without credentials (a device not registered yet): counted on its address; false: refused */
  provisional(address: string | undefined): Promise<boolean>;
  /** counters since start: `throttled_connects` refused unchecked, `failed_connects` refused by the authorities,
   * `slowed_connects` that waited their username's turn, `provisional_refused` clients without credentials refused */
  metrics(): {
    throttled_connects: number;
    failed_connects: number;
    slowed_connects: number;
    provisional_refused: number;
  };
}

export const CONNECT_WINDOW_S = 60;
/** CONNECTs a minute from one address with unknown usernames or without credentials (a busy NAT stays far below) */
export const DEFAULT_UNKNOWN_PER_MINUTE = 600;

export function createConnectThrottle(opts: { failuresPerMinute: number; unknownPerMinute?: number }): ConnectThrottle {
  const guesses = createGuessThrottle({
    name: 'mqtt',
    pair: { attempts: opts.failuresPerMinute, windowS: CONNECT_WINDOW_S },
    principal: { attempts: opts.failuresPerMinute, windowS: CONNECT_WINDOW_S },
    address: { attempts: opts.unknownPerMinute ?? DEFAULT_UNKNOWN_PER_MINUTE, windowS: CONNECT_WINDOW_S },
    // a CONNECT waits at most this for its turn (aedes gives a client 10 s to finish connecting)
    maxWaitMs: 5000,
    // device secrets are long random strings: the block saves lookups more than it stops guessing, and a device that
    // had an old password is back within minutes of getting the new one
    maxBlockS: 300,
  });
  const counters = { throttled_connects: 0, failed_connects: 0, slowed_connects: 0, provisional_refused: 0 };
  // a client without an address (a relayed connection that lost it) shares one key: refused rather than unlimited
  const keyOf = (address: string | undefined) => address || 'unknown';
  return {
    async enter(username, address) {
      const entry = await guesses.enter(username, keyOf(address));
      if (!entry.go) counters.throttled_connects++;
      else if (entry.waitedMs > 0) counters.slowed_connects++;
      return entry;
    },
    async failed(username, address, known) {
      counters.failed_connects++;
      await guesses.failed(username, keyOf(address), known);
    },
    succeeded: (username, address) => guesses.succeeded(username, keyOf(address)),
    async provisional(address) {
      const ok = await guesses.takeAddress(keyOf(address));
      if (!ok) counters.provisional_refused++;
      return ok;
    },
    metrics: () => ({ ...counters }),
  };
}
