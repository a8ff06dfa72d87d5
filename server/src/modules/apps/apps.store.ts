// The applications table on the storage boundary's store.
import { asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import type { AppScope } from '../../platform/http/mount.js';
import { applications } from './apps.table.js';

const scope = {
  id: applications.id,
  tenantId: applications.tenantId,
  domain: applications.domain,
  name: applications.name,
  timezone: applications.timezone,
};

export function createAppsStore(store: AppStore) {
  const db = store.db;

  return {
    // ---- the rules and tasks domain's reads (a task's messages name its application; subscription notices) ----

    /** every application's tenant, by application id */
    tenants: () =>
      db
        .select({ id: applications.id, tenantId: applications.tenantId })
        .from(applications)
        .orderBy(asc(applications.id)),

    scopeById: (id: number): Promise<AppScope | undefined> =>
      db.select(scope).from(applications).where(eq(applications.id, id)).get(),
  };
}

export type AppsStore = ReturnType<typeof createAppsStore>;
