import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createExpiryWatch } from './expiry.js';
import type { CompiledRule } from './compile.js';

describe('node expiry watch (10009)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('publishes once per silence and threshold for devices of applications with node-expired rules; a message starts the silence over', () => {
    const rules = [{ durationMs: 60_000 }, { durationMs: 0 }] as CompiledRule[];
    const engine = { watching: (appId: number) => appId === 1, rulesOf: (appId: number, category: number) => (appId === 1 && category === 10009 ? rules : []) };
    const got: Array<[number, number, number]> = [];
    const watch = createExpiryWatch({ engine, publish: (a, d, s) => got.push([a, d, s]), now: Date.now, sweepMs: 1000 });
    watch.start();
    watch.heard(1, 10);
    watch.heard(2, 20); // no rule in application 2: not watched
    vi.advanceTimersByTime(59_000);
    expect(got).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(got).toEqual([[1, 10, 60]]);
    vi.advanceTimersByTime(60_000);
    expect(got).toEqual([[1, 10, 60]]);
    watch.heard(1, 10);
    vi.advanceTimersByTime(61_000);
    expect(got).toEqual([[1, 10, 60], [1, 10, 60]]);
    vi.advanceTimersByTime(3600_000);
    expect(got).toContainEqual([1, 10, 3600]);
    watch.close();
  });
});
