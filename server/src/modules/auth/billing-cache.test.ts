import { describe, expect, it } from 'vitest';
import { createAccessChanges } from './access-changes.js';
import { BILLING_RECHECK_MS, createBillingCache } from './billing-cache.js';

function setup(max?: number) {
  let clock = 1_000_000;
  const dates = new Map<number, number>([
    [1, 5_000_000],
    [2, 6_000_000],
    [3, 7_000_000],
  ]);
  const reads: number[] = [];
  const changes = createAccessChanges();
  const billing = createBillingCache(
    async (id) => {
      reads.push(id);
      return dates.get(id)!;
    },
    changes,
    { now: () => clock, max },
  );
  return { billing, dates, reads, changes, tick: (ms: number) => (clock += ms) };
}

describe('billing dates kept a second', () => {
  it('reads a date once, answers it from memory while fresh, and reads again after BILLING_RECHECK_MS', async () => {
    const s = setup();
    expect(await s.billing(1)).toBe(5_000_000);
    expect(s.billing(1)).toBe(5_000_000);
    s.dates.set(1, 42);
    s.tick(BILLING_RECHECK_MS - 1);
    expect(s.billing(1)).toBe(5_000_000);
    s.tick(1);
    expect(await s.billing(1)).toBe(42);
    expect(s.reads).toEqual([1, 1]);
  });

  it('reads again at once after an access change', async () => {
    const s = setup();
    await s.billing(2);
    s.dates.set(2, 7);
    s.changes.changed('access');
    expect(await s.billing(2)).toBe(7);
    expect(s.reads).toEqual([2, 2]);
  });

  it('does not keep a date read while an access change was announced', async () => {
    const s = setup();
    const pending = s.billing(3);
    s.changes.changed('access');
    expect(await pending).toBe(7_000_000);
    expect(typeof s.billing(3)).not.toBe('number');
  });

  it('keeps at most `max` tenants, the oldest dropped first', async () => {
    const s = setup(2);
    await s.billing(1);
    await s.billing(2);
    await s.billing(3);
    expect(typeof s.billing(1)).not.toBe('number');
    expect(s.billing(3)).toBe(7_000_000);
  });
});
