// The tenants' billing dates, each kept for a second: every authenticated call checks its tenant's date, and reading
// it per call is a database round trip per request (on PostgreSQL a network one, for a date that changes about once a
// year). The date is compared with the clock on every call, so a subscription that runs out is refused on its very
// next request; only a date changed outside the services (whoever sells the subscription writes it) is seen up to
// `BILLING_RECHECK_MS` later, and at once after any access change (which drops every date kept).
import type { AccessChanges } from './access-changes.js';
import { createAccessCache } from './caller-cache.js';

export const BILLING_RECHECK_MS = 1000;
const MAX_TENANTS = 10_000;

/** a tenant's billing date: from memory (a number) while it is fresh, else read (a promise) */
export type BillingOf = (tenantId: number) => number | Promise<number>;

export function createBillingCache(
  read: (tenantId: number) => Promise<number>,
  changes: Pick<AccessChanges, 'access'>,
  opts: { now?: () => number; ttlMs?: number; max?: number } = {},
): BillingOf {
  const now = opts.now ?? Date.now;
  const dates = createAccessCache<number, number>(changes, {
    now,
    ttlMs: opts.ttlMs ?? BILLING_RECHECK_MS,
    max: opts.max ?? MAX_TENANTS,
  });

  return (tenantId) => {
    const kept = dates.get(tenantId);
    if (kept !== undefined) return kept;
    const readAt = now();
    const since = changes.access;
    return read(tenantId).then((date) => {
      // a change announced while reading may be what moved the date: this answer is used, not kept
      if (changes.access === since) dates.set(tenantId, date, readAt);
      return date;
    });
  };
}
