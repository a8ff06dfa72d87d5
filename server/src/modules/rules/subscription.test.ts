import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSubscriptionWatch } from './subscription.js';

const DAY = 86_400_000;

describe('subscription ending (501)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('publishes once per application of the tenant when the notice period before its billing date begins (a timer, no polling)', () => {
    const start = Date.now();
    const got: Array<[number, number]> = [];
    const tenants = vi.fn(() => [
      { tenantId: 1, expiresAt: start + 10 * DAY, appIds: [11, 12] },
      { tenantId: 2, expiresAt: start + 3 * DAY, appIds: [21] },
      { tenantId: 3, expiresAt: start + 400 * DAY, appIds: [31] },
    ]);
    const watch = createSubscriptionWatch({
      tenants,
      publish: (appId, days) => got.push([appId, days]),
      noticeMs: 7 * DAY,
    });
    watch.start();
    expect(got).toEqual([[21, 3]]);
    vi.advanceTimersByTime(3 * DAY - 1000);
    expect(got).toEqual([[21, 3]]);
    vi.advanceTimersByTime(2000);
    expect(got).toEqual([
      [21, 3],
      [11, 7],
      [12, 7],
    ]);
    vi.advanceTimersByTime(100 * DAY);
    expect(got).toHaveLength(3);
    vi.advanceTimersByTime(300 * DAY);
    expect(got).toContainEqual([31, 7]);
    expect(tenants).toHaveBeenCalledTimes(1);
    watch.close();
  });
});
