// Roles' persistence.
import { and, asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { roleNavs, roles } from './roles.table.js';

/**
 * What role `roleId` of the application selects of the dashboards: its dashboard ids in the role's order, and whether
 * it opens their descendants too; undefined when the application has no such role (the dashboard grants' read).
 */
export async function roleSelection(
  store: AppStore,
  appId: number,
  roleId: number,
): Promise<{ descendant: boolean; selected: number[] } | undefined> {
  const role = await store.db
    .select({ descendant: roles.descendant })
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.appId, appId)))
    .get();
  if (!role) return undefined;
  const navs = await store.db
    .select({ id: roleNavs.dashboardId })
    .from(roleNavs)
    .where(eq(roleNavs.roleId, roleId))
    .orderBy(asc(roleNavs.sort), asc(roleNavs.dashboardId));
  return { descendant: role.descendant, selected: navs.map((n) => n.id) };
}
