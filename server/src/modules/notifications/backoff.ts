// When a failed message is tried again: exponential backoff with "equal jitter" (half the step fixed, half random),
// so messages that failed together (a provider outage) do not all come back in the same instant.

/** The longest wait between two attempts. */
export const RETRY_CAP_MS = 30 * 60_000;

/** Delay after the `failedAttempts`-th failure (1 → about base, 2 → about 2×base, …), never more than RETRY_CAP_MS. */
export function retryDelay(failedAttempts: number, baseMs: number, random: () => number = Math.random): number {
  const step = Math.min(RETRY_CAP_MS, baseMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
