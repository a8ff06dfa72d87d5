// The tenants table on the storage boundary's store.
import { eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { tenants } from './auth.table.js';

export function createAuthStore(store: AppStore) {
  const db = store.db;

  return {
    /** the tenant's billing date (epoch ms); 0 for no such tenant */
    billingOf: async (tenantId: number): Promise<number> =>
      (await db.select({ b: tenants.billingExpiresAt }).from(tenants).where(eq(tenants.id, tenantId)).get())?.b ?? 0,

    // ---- the tasks domain's read: who a task's history names for a tenant's change ----

    /** the tenant's username; undefined for no such tenant */
    tenantUsername: async (id: number): Promise<string | undefined> =>
      (await db.select({ u: tenants.username }).from(tenants).where(eq(tenants.id, id)).get())?.u,
  };
}

export type AuthStore = ReturnType<typeof createAuthStore>;
