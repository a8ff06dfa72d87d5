// The applications table: a tenant's list, the domain a new application takes, and the scope every call of an
// application is resolved to (by its domain, or by id for a member whose call names none).
import { asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import type { AppScope } from '../../platform/http/mount.js';
import { applications } from './apps.table.js';

const info = {
  id: applications.id,
  name: applications.name,
  domain: applications.domain,
  description: applications.description,
  created_time: applications.createdAt,
};

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
    /** the tenant's applications, oldest first */
    listOf: (tenantId: number): Promise<{ id: number; name: string; domain: string; description: string | null }[]> =>
      db
        .select({
          id: applications.id,
          name: applications.name,
          domain: applications.domain,
          description: applications.description,
        })
        .from(applications)
        .where(eq(applications.tenantId, tenantId))
        .orderBy(asc(applications.id)),

    domainTaken: async (domain: string) =>
      (await db.select({ id: applications.id }).from(applications).where(eq(applications.domain, domain)).get()) !==
      undefined,

    /** the new application, or undefined when its domain was taken meanwhile (the unique index decides) */
    create: (values: {
      tenantId: number;
      name: string;
      domain: string;
      description: string | null;
      createdAt: number;
    }) => db.insert(applications).values(values).onConflictDoNothing().returning(info).get(),

    /** About: the application of `domain`, with its tenant */
    byDomain: (domain: string) =>
      db
        .select({ ...info, tenantId: applications.tenantId })
        .from(applications)
        .where(eq(applications.domain, domain))
        .get(),

    /** every application's tenant, by application id */
    tenants: (): Promise<{ id: number; tenantId: number }[]> =>
      db
        .select({ id: applications.id, tenantId: applications.tenantId })
        .from(applications)
        .orderBy(asc(applications.id)),

    scopeByDomain: (domain: string): Promise<AppScope | undefined> =>
      db.select(scope).from(applications).where(eq(applications.domain, domain)).get(),
    scopeById: (id: number): Promise<AppScope | undefined> =>
      db.select(scope).from(applications).where(eq(applications.id, id)).get(),
  };
}

export type AppsStore = ReturnType<typeof createAppsStore>;
