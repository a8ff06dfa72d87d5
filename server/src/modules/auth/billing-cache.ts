// The tenants' billing dates, each kept for a second: every authenticated call checks its tenant's date, and reading
// it per call is a database round trip per request (on PostgreSQL a network one, for a date that changes about once a
// year). The date is compared with the clock on every call, so a subscription that runs out is refused on its very
// next request; only a date changed outside the services (whoever sells the subscription writes it) is seen up to
// `BILLING_RECHECK_MS` later, and at once after any access change (which drops every date kept).
import type { AccessChanges } from './access-changes.js';

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
  const ttlMs = opts.ttlMs ?? BILLING_RECHECK_MS;
  const max = opts.max ?? MAX_TENANTS;
  const dates = new Map<number, { date: number; until: number }>();
  let generation = changes.access;

  return (tenantId) => {
    if (changes.access !== generation) {
      dates.clear();
      generation = changes.access;
    }
    const kept = dates.get(tenantId);
    if (kept && kept.until > now()) return kept.date;
    const readAt = now();
    const since = generation;
    return read(tenantId).then((date) => {
      // a change announced while reading may be what moved the date: this answer is used, not kept
      if (changes.access === since) {
        dates.delete(tenantId);
        // the oldest entry goes first (a Map iterates in insertion order)
        if (dates.size >= max) dates.delete(dates.keys().next().value!);
        dates.set(tenantId, { date, until: readAt + ttlMs });
      }
      return date;
    });
  };
}
