// The roles and role_navs tables: an application's roles, the grants one gives (read on every member call resolved
// afresh), and the dashboards it selects in their menu order.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { roleNavs, roles } from './roles.table.js';

export type RoleRow = typeof roles.$inferSelect;
type RoleInfo = Pick<RoleRow, 'name' | 'description' | 'permissions' | 'sysNavs' | 'descendant'>;

export function createRolesStore(store: AppStore) {
  const db = store.db;

  const selectNavs = (roleId: number, navs: number[]) =>
    navs.length
      ? db.insert(roleNavs).values(navs.map((dashboardId, sort) => ({ roleId, dashboardId, sort })))
      : undefined;

  return {
    byId: (appId: number, id: number): Promise<RoleRow | undefined> =>
      db
        .select()
        .from(roles)
        .where(and(eq(roles.id, id), eq(roles.appId, appId)))
        .get(),

    /** the application's roles, oldest first */
    list: (appId: number): Promise<RoleRow[]> =>
      db.select().from(roles).where(eq(roles.appId, appId)).orderBy(asc(roles.id)),

    /** the stored grants of role `roleId` of `appId` (JSON text) */
    grants: (roleId: number, appId: number) =>
      db
        .select({ sysNavs: roles.sysNavs, permissions: roles.permissions })
        .from(roles)
        .where(and(eq(roles.id, roleId), eq(roles.appId, appId)))
        .get(),

    /** the dashboards the role selects, in its menu order */
    selectedNavs: async (roleId: number): Promise<number[]> =>
      (
        await db
          .select({ id: roleNavs.dashboardId })
          .from(roleNavs)
          .where(eq(roleNavs.roleId, roleId))
          .orderBy(asc(roleNavs.sort), asc(roleNavs.dashboardId))
      ).map((r) => r.id),

    /** the id of the application's role named `name` ignoring case (as the role search compares), if any */
    idByName: async (appId: number, name: string): Promise<number | undefined> =>
      (
        await db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.appId, appId), sql`lower(${roles.name}) = lower(${name})`))
          .orderBy(asc(roles.id))
          .get()
      )?.id,

    /** names of the roles `ids` (of any application: the caller scopes the ids) */
    namesOf: async (ids: number[]): Promise<Map<number, string>> => {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const rows = await db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, unique));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    hasRoles: async (appId: number) =>
      (await db.select({ id: roles.id }).from(roles).where(eq(roles.appId, appId)).limit(1).get()) !== undefined,

    /** a new role with its dashboards in order; undefined when the application has a role of that exact name */
    create: (appId: number, info: RoleInfo, navs: number[], at: number): Promise<number | undefined> =>
      store.tx(async () => {
        const row = await db
          .insert(roles)
          .values({ appId, ...info, createdAt: at, updatedAt: at })
          .onConflictDoNothing()
          .returning({ id: roles.id })
          .get();
        if (!row) return undefined;
        await selectNavs(row.id, navs);
        return row.id;
      }),

    /** changes the role; `navs` (when given) replaces its selection */
    update: (id: number, set: Partial<RoleInfo>, navs: number[] | undefined, at: number): Promise<void> =>
      store.tx(async () => {
        await db
          .update(roles)
          .set({ ...set, updatedAt: at })
          .where(eq(roles.id, id));
        if (navs) {
          await db.delete(roleNavs).where(eq(roleNavs.roleId, id));
          await selectNavs(id, navs);
        }
      }),

    /** the role and its selection (role_navs cascade) */
    remove: async (id: number) => {
      await db.delete(roles).where(eq(roles.id, id));
    },

    /** `dashboardId` at the end of the role's selection, unless it is in it already */
    appendNav: (roleId: number, dashboardId: number): Promise<void> =>
      store.tx(async () => {
        const last =
          (
            await db
              .select({ s: sql<number | null>`max(${roleNavs.sort})` })
              .from(roleNavs)
              .where(eq(roleNavs.roleId, roleId))
              .get()
          )?.s ?? -1;
        await db
          .insert(roleNavs)
          .values({ roleId, dashboardId, sort: last + 1 })
          .onConflictDoNothing();
      }),
  };
}

export type RolesStore = ReturnType<typeof createRolesStore>;
