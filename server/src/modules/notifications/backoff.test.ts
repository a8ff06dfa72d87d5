import { describe, expect, it } from 'vitest';
import { RETRY_CAP_MS, retryDelay } from './backoff.js';

describe('retry backoff', () => {
  it('doubles the step after each failure, half of it fixed and half random', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 30_000, () => 0))).toEqual([15_000, 30_000, 60_000, 120_000]);
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 30_000, () => 1))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });
  it('spreads messages that failed together over the second half of the step', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelay(3, 1000)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) (expect(d).toBeGreaterThanOrEqual(2000), expect(d).toBeLessThanOrEqual(4000));
  });
  it('never waits longer than the cap', () => {
    expect(retryDelay(40, 30_000, () => 1)).toBe(RETRY_CAP_MS);
  });
});
