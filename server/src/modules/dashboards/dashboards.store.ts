// The dashboards table's reads and writes.
import { and, asc, eq, isNull, max } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { dashboards } from './dashboards.table.js';
import { asNavItems, type NavItem } from './navigation.js';

/**
 * For the roles domain (the dashboards a role selects from): every navigation item of the application, by (sort, id);
 * a parent outside the application counts as none.
 */
export async function navItemsOf(store: AppStore, appId: number): Promise<NavItem[]> {
  const rows = await store.db
    .select({
      id: dashboards.id,
      label: dashboards.label,
      path: dashboards.path,
      parent: dashboards.parentId,
      sort: dashboards.sort,
    })
    .from(dashboards)
    .where(eq(dashboards.appId, appId))
    .orderBy(asc(dashboards.sort), asc(dashboards.id));
  return asNavItems(rows);
}

// ---- a dashboard made for a device (devices' "Generate Dashboard") ----

/**
 * A new root dashboard of the application, last among the roots, at the path `pathFor` chooses given the paths the
 * application has (one transaction: the path and the place are still free when it is written).
 */
export async function addRootDashboard(
  store: AppStore,
  input: {
    appId: number;
    label: string;
    pathFor: (taken: (path: string) => boolean) => string;
    confDashboard: string;
    createdAt: number;
  },
): Promise<{ id: number; label: string; path: string }> {
  const { db } = store;
  return store.tx(async () => {
    const paths = await db.select({ path: dashboards.path }).from(dashboards).where(eq(dashboards.appId, input.appId));
    const taken = new Set(paths.map((p) => p.path));
    const last = await db
      .select({ s: max(dashboards.sort) })
      .from(dashboards)
      .where(and(eq(dashboards.appId, input.appId), isNull(dashboards.parentId)))
      .get();
    const [row] = await db
      .insert(dashboards)
      .values({
        appId: input.appId,
        label: input.label,
        path: input.pathFor((p) => taken.has(p)),
        parentId: null,
        sort: (last?.s ?? -1) + 1,
        confDashboard: input.confDashboard,
        createdAt: input.createdAt,
      })
      .returning({ id: dashboards.id, label: dashboards.label, path: dashboards.path });
    return row!;
  });
}
