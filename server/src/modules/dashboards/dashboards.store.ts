// The dashboards table's reads and writes.
import { asc, eq } from 'drizzle-orm';
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
