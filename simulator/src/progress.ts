// The simulator's progress on stderr: on a terminal one line rewritten in place twice a second; elsewhere (a log file,
// CI, `npm start`'s pipe) a new line every few seconds, since a carriage-return line never reaches such a reader.
import type { FleetSnapshot } from './fleet/run.js';

export const TTY_REFRESH_MS = 500;
export const DEFAULT_LOG_EVERY_S = 10;

/** the line a terminal shows, rewritten in place */
export function progressLine(s: FleetSnapshot): string {
  return `sentra sim  ${s.phase.padEnd(11)} registered ${s.registered}/${s.planned}  connected ${s.connected}  ${s.msgsPerSec.toFixed(1)} msg/s  sent ${s.messages}  errors ${s.errors}`;
}

/**
 * One log line: time, phase, devices connected, messages sent per second over the interval since the previous line
 * (exact over the interval, not the meter's 5 s window), totals and errors.
 */
export function progressLogLine(
  s: FleetSnapshot,
  now: Date,
  sentSincePrevious: number,
  secondsSincePrevious: number,
): string {
  const rate = secondsSincePrevious > 0 ? sentSincePrevious / secondsSincePrevious : 0;
  return `${now.toISOString()} sentra sim ${s.phase}: ${s.connected} devices connected (${s.registered}/${s.planned} registered), ${rate.toFixed(1)} msg/s sent, ${s.messages} messages, ${s.errors} errors`;
}

export interface ProgressOptions {
  stats(): FleetSnapshot;
  write(text: string): void;
  /** stderr is a terminal */
  tty: boolean;
  /** seconds between log lines when not a terminal; 0 = none */
  logEverySeconds?: number;
  now?: () => Date;
}

export interface Progress {
  /** a log line now (not on a terminal), e.g. once the fleet runs */
  report(): void;
  /** stops the timer; on a terminal ends the rewritten line */
  stop(): void;
}

export function startProgress(opts: ProgressOptions): Progress {
  const now = opts.now ?? (() => new Date());
  let previous = { at: now().getTime(), messages: opts.stats().messages };
  const report = () => {
    if (opts.tty) return;
    const s = opts.stats();
    const at = now();
    opts.write(`${progressLogLine(s, at, s.messages - previous.messages, (at.getTime() - previous.at) / 1000)}\n`);
    previous = { at: at.getTime(), messages: s.messages };
  };
  const everyS = opts.logEverySeconds ?? DEFAULT_LOG_EVERY_S;
  const timer = opts.tty
    ? setInterval(() => opts.write(`\r${progressLine(opts.stats())}\x1b[K`), TTY_REFRESH_MS)
    : everyS > 0
      ? setInterval(report, everyS * 1000)
      : undefined;
  // progress must not keep a finished run alive
  timer?.unref?.();
  return {
    report,
    stop() {
      if (timer) clearInterval(timer);
      if (opts.tty) opts.write('\n');
    },
  };
}
