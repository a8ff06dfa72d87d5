import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createExpiryWatch, type SeedDevice } from './expiry.js';
import type { CompiledRule } from './compile.js';

const MIN = 60_000;

/** a watch over a fake engine whose application 1 has node-expired rules with the given expiries (ms; 0 = default) */
function setup(expiries: number[], seeded: SeedDevice[] = []) {
  let rules = expiries.map((durationMs) => ({ durationMs }) as CompiledRule);
  const engine = { rulesOf: (appId: number, category: number) => (appId === 1 && category === 10009 ? rules : []) };
  const got: Array<[number, number, number]> = [];
  const seed = vi.fn((appId: number) => (appId === 1 ? seeded : []));
  const watch = createExpiryWatch({ engine, publish: (a, d, s) => got.push([a, d, s]), seed, now: Date.now });
  return {
    watch,
    got,
    seed,
    setRules(next: number[]) {
      rules = next.map((durationMs) => ({ durationMs }) as CompiledRule);
      watch.rulesChanged(1);
    },
  };
}

describe('node expiry watch (10009)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('publishes once per silence and threshold for devices of applications with node-expired rules; a message starts the silence over', () => {
    const { watch, got } = setup([MIN, 0]);
    watch.rulesChanged(1);
    watch.start();
    watch.heard(1, 10);
    watch.heard(2, 20); // no rule in application 2: not watched
    vi.advanceTimersByTime(59_000);
    expect(got).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(got).toEqual([[1, 10, 60]]);
    vi.advanceTimersByTime(MIN);
    expect(got).toEqual([[1, 10, 60]]);
    watch.heard(1, 10);
    vi.advanceTimersByTime(MIN);
    expect(got).toEqual([
      [1, 10, 60],
      [1, 10, 60],
    ]);
    vi.advanceTimersByTime(3600_000);
    expect(got).toContainEqual([1, 10, 3600]);
    expect(watch.size()).toEqual({ devices: 1, heap: 0 });
    watch.close();
  });

  it('a device heard again and again expires one threshold after its last message, not after its first', () => {
    const { watch, got } = setup([MIN]);
    watch.rulesChanged(1);
    watch.start();
    watch.heard(1, 10);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(30_000);
      watch.heard(1, 10);
    }
    expect(got).toEqual([]);
    vi.advanceTimersByTime(59_999);
    expect(got).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(got).toEqual([[1, 10, 60]]);
  });

  it('seeds the devices from the stored last-heard times when the rules are loaded: a device silent since before the restart expires', () => {
    const t = Date.now();
    const { watch, got, seed } = setup(
      [10 * MIN],
      [
        { deviceId: 10, at: t - 9 * MIN }, // silent for 9 minutes before the restart: expires in 1
        { deviceId: 11, at: t - 20 * MIN }, // expired while the gateway was down: published at once
        { deviceId: 12, at: t - 20 * MIN, reported: [600] }, // that expiry already made its task: not again
        { deviceId: 13, at: t + 5 * MIN }, // a device clock ahead of ours counts as now
      ],
    );
    watch.rulesChanged(1);
    watch.start();
    expect(seed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(0);
    expect(got).toEqual([[1, 11, 600]]);
    vi.advanceTimersByTime(MIN);
    expect(got).toEqual([
      [1, 11, 600],
      [1, 10, 600],
    ]);
    vi.advanceTimersByTime(9 * MIN);
    expect(got).toEqual([
      [1, 11, 600],
      [1, 10, 600],
      [1, 13, 600],
    ]);
    // a seeded device heard again starts a new silence
    watch.heard(1, 12);
    vi.advanceTimersByTime(10 * MIN);
    expect(got).toContainEqual([1, 12, 600]);
  });

  it('follows rule changes: a shorter expiry added applies to the watched devices, removing the last rule forgets them', () => {
    const { watch, got, setRules, seed } = setup([10 * MIN]);
    watch.rulesChanged(1);
    watch.start();
    watch.heard(1, 10);
    vi.advanceTimersByTime(2 * MIN);
    setRules([10 * MIN, MIN]);
    expect(seed).toHaveBeenCalledTimes(1); // the application was watched already: not seeded again
    vi.advanceTimersByTime(0);
    expect(got).toEqual([[1, 10, 60]]);
    setRules([]);
    expect(watch.size()).toEqual({ devices: 0, heap: 0 });
    vi.advanceTimersByTime(60 * MIN);
    expect(got).toEqual([[1, 10, 60]]);
    watch.heard(1, 10);
    expect(watch.size().devices).toBe(0);
  });

  it('keeps one heap entry per device and one timer, whatever the number of devices and messages', () => {
    const { watch, got } = setup([MIN]);
    watch.rulesChanged(1);
    watch.start();
    for (let round = 0; round < 5; round++) {
      for (let d = 0; d < 1000; d++) watch.heard(1, d);
      vi.advanceTimersByTime(10_000);
    }
    expect(watch.size()).toEqual({ devices: 1000, heap: 1000 });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(MIN);
    expect(got).toHaveLength(1000);
    expect(watch.size()).toEqual({ devices: 1000, heap: 0 });
    watch.forget(5);
    expect(watch.size().devices).toBe(999);
  });
});
