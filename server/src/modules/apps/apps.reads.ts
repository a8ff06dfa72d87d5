// The applications domain's reads for the others: which tenant an application belongs to (an application never moves
// to another tenant, so the answer is kept once read).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { applications } from './apps.table.js';

/** applications remembered at most (a deployment has far fewer; the bound only guards the map) */
const TENANTS_KEPT = 100_000;

export function createAppTenants(db: Db) {
  const kept = new Map<number, number>();
  return {
    /** the tenant of application `appId`, or undefined when there is no such application */
    tenantOf(appId: number): number | undefined {
      const hit = kept.get(appId);
      if (hit !== undefined) return hit;
      const row = db
        .select({ tenantId: applications.tenantId })
        .from(applications)
        .where(eq(applications.id, appId))
        .get();
      if (!row) return undefined;
      if (kept.size >= TENANTS_KEPT) kept.clear();
      kept.set(appId, row.tenantId);
      return row.tenantId;
    },
  };
}

export type AppTenants = ReturnType<typeof createAppTenants>;
