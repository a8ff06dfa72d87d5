// The ingest benchmark's capacity step search against made-up gateways whose true capacity is known.
import { describe, expect, it } from 'vitest';
import { findCapacity, type CapacitySearch } from './capacity.js';

/** a gateway that passes every rate up to `limit` */
const upTo = (limit: number) => async (rate: number) => rate <= limit;
const base: Omit<CapacitySearch, 'attempt'> = {
  start: 60_000,
  growth: 1.5,
  resolution: 0.1,
  maxSteps: 8,
  budgetMs: 60_000,
  quantum: 1000,
  floor: 5000,
};

describe('the capacity step search', () => {
  it('grows while phases pass, then bisects to within the resolution, and reports the highest rate that passed', async () => {
    const r = await findCapacity({ ...base, attempt: upTo(100_000) });
    expect(r.steps.map((s) => s.rate)).toEqual([60_000, 90_000, 135_000, 113_000, 102_000, 96_000]);
    expect(r.capacity).toBe(96_000);
    expect(r.lowestFailed).toBe(102_000);
    expect(r.ended).toBe('resolved');
    expect(r.lowestFailed! / r.capacity).toBeLessThanOrEqual(1.1);
  });

  it('steps down while phases fail and reports 0 below the floor', async () => {
    const down = await findCapacity({ ...base, attempt: upTo(30_000) });
    expect(down.steps.slice(0, 3)).toEqual([
      { rate: 60_000, ok: false },
      { rate: 40_000, ok: false },
      { rate: 27_000, ok: true },
    ]);
    expect(down.capacity).toBeGreaterThanOrEqual(27_000);
    expect(down.capacity).toBeLessThanOrEqual(30_000);
    const none = await findCapacity({ ...base, attempt: upTo(0) });
    expect(none.capacity).toBe(0);
    expect(none.ended).toBe('floor');
    expect(none.steps.every((s) => !s.ok && s.rate >= 5000)).toBe(true);
  });

  it('never runs more phases than allowed nor starts one after its time budget', async () => {
    const capped = await findCapacity({ ...base, maxSteps: 3, attempt: upTo(1e9) });
    expect(capped.steps).toHaveLength(3);
    expect(capped.ended).toBe('steps');
    expect(capped.lowestFailed).toBeNull();
    expect(capped.capacity).toBe(135_000);
    let clock = 0;
    const timed = await findCapacity({
      ...base,
      now: () => clock,
      attempt: async (rate) => ((clock += 25_000), rate <= 100_000),
    });
    expect(timed.steps).toHaveLength(3); // 0, 25 and 50 s started; at 75 s the 60 s budget is spent
    expect(timed.ended).toBe('budget');
  });

  it('stops once the quantum cannot split the bracket', async () => {
    const r = await findCapacity({ ...base, resolution: 0.0001, maxSteps: 50, attempt: upTo(100_500) });
    expect(r.capacity).toBe(100_000);
    expect(r.lowestFailed).toBe(101_000);
    expect(r.ended).toBe('resolved');
  });

  it('refuses a growth that would never move', async () => {
    await expect(findCapacity({ ...base, growth: 1, attempt: upTo(1) })).rejects.toThrow();
  });
});
