// The applications domain's reads for the others: which tenant an application belongs to (an application never moves
// to another tenant, so the answer is kept once read).
import type { AppsStore } from './apps.store.js';

/** applications remembered at most (a deployment has far fewer; the bound only guards the map) */
const TENANTS_KEPT = 100_000;

export function createAppTenants(apps: Pick<AppsStore, 'scopeById' | 'tenants'>) {
  const kept = new Map<number, number>();
  const keep = (appId: number, tenantId: number) => {
    if (kept.size >= TENANTS_KEPT) kept.clear();
    kept.set(appId, tenantId);
  };

  /** the tenant of application `appId`, or undefined when there is no such application */
  async function tenantOf(appId: number): Promise<number | undefined> {
    const hit = kept.get(appId);
    if (hit !== undefined) return hit;
    const row = await apps.scopeById(appId);
    if (!row) return undefined;
    keep(appId, row.tenantId);
    return row.tenantId;
  }

  return {
    tenantOf,
    /**
     * The same answer without waiting, for a caller that cannot wait (the device authority): from what `load` read at
     * start and `added` was told since; an application added on another gateway is read now and known from the next
     * call on.
     */
    knownTenantOf(appId: number): number | undefined {
      const hit = kept.get(appId);
      if (hit === undefined) void tenantOf(appId).catch(() => undefined);
      return hit;
    },
    /** reads every application's tenant (at start) */
    async load(): Promise<void> {
      for (const { id, tenantId } of await apps.tenants()) keep(id, tenantId);
    },
    /** an application this gateway just added */
    added: keep,
  };
}

export type AppTenants = ReturnType<typeof createAppTenants>;
