// The first connection of a BUS=nats gateway: it retries a NATS server that is not there yet (it may be starting
// beside the gateway), saying so in the log with the NATS_URL it tries, and gives up after NATS_CONNECT_TIMEOUT_MS
// with a one-line start-up error naming the variables, instead of waiting silently for ever. Once connected, the
// connection reconnects by itself for as long as the gateway runs (a restarting NATS must not take it down).
import { connect, type NatsConnection } from 'nats';
import { ConfigError } from '../config.js';
import type { Logger } from '../log.js';

export interface NatsConnectOptions {
  /** NATS_URL: one server or several, comma-separated */
  url: string;
  name: string;
  /** NATS_CONNECT_TIMEOUT_MS: how long the first connection is retried; 0 = a single attempt */
  waitMs: number;
}

/** The start-up failure: main prints its message (one line) and exits. */
export class NatsUnreachableError extends ConfigError {}

/** NATS_URL as it may be logged: a user and password in it are masked. */
export function shownNatsUrl(url: string): string {
  return url
    .split(',')
    .map((server) => server.trim().replace(/\/\/[^/@]*@/, '//***@'))
    .join(',');
}

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 2_000;
/** a warning at most this often while retrying: clear without flooding the log */
const REPORT_EVERY_MS = 5_000;
/** one attempt's connection time-out (nats.js' default is 20 s): the wait overshoots NATS_CONNECT_TIMEOUT_MS by at most this */
const ATTEMPT_TIMEOUT_MS = 5_000;

const reasonOf = (err: unknown): string => {
  const e = err as { code?: string; message?: string };
  return String(e?.code ?? e?.message ?? err);
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function connectNats(opts: NatsConnectOptions, log: Logger): Promise<NatsConnection> {
  const shown = shownNatsUrl(opts.url);
  const servers = opts.url
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const started = Date.now();
  const deadline = started + opts.waitMs;
  let pause = FIRST_PAUSE_MS;
  let lastReport = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect({
        servers,
        name: opts.name,
        timeout: ATTEMPT_TIMEOUT_MS,
        waitOnFirstConnect: false,
        maxReconnectAttempts: -1,
      });
    } catch (err) {
      const reason = reasonOf(err);
      const now = Date.now();
      if (now >= deadline) {
        throw new NatsUnreachableError(
          `BUS=nats: no NATS server reachable at NATS_URL=${shown} within ${seconds(now - started)} (${attempt} attempt${attempt === 1 ? '' : 's'}, last: ${reason}); start nats-server there or correct NATS_URL (NATS_CONNECT_TIMEOUT_MS=${opts.waitMs} sets the wait)`,
        );
      }
      if (attempt === 1) {
        log.warn(
          `BUS=nats: NATS not reachable at NATS_URL=${shown} (${reason}); retrying for up to ${seconds(opts.waitMs)} (NATS_CONNECT_TIMEOUT_MS) before giving up`,
        );
        lastReport = now;
      } else if (now - lastReport >= REPORT_EVERY_MS) {
        log.warn(`BUS=nats: still no NATS at NATS_URL=${shown} after ${seconds(now - started)} (${reason}); retrying`);
        lastReport = now;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline - now)));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
