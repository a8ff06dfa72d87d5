// Roles: what an application user may do (grantsOf, used by the authenticator on every member call) and the role
// records themselves. Which dashboards a role opens, and the menu it gives a user, are the dashboards module's one
// rule (dashboards/grants.ts).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { SYS_NAVS, T, type SysNav } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { conflict, fail, forbidden, notFound } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { accounts } from '../users/users.table.js';
import { dashboards } from '../dashboards/dashboards.table.js';
import { navTree, roleMenu, type NavItem } from '../dashboards/navigation.js';
import type { DashboardGrants } from '../dashboards/grants.js';
import { roleNavs, roles } from './roles.table.js';

export type Grants = NonNullable<Caller['grants']>;

/**
 * A key that carries another with it: `_role_manage_` also gives the user screens (spec 01 section 2 "Menus"),
 * `_device_manage_` includes reading the devices.
 */
const IMPLIED: Partial<Record<SysNav, SysNav[]>> = {
  _role_manage_: ['_user_manage_'],
  _device_manage_: ['_device_list_'],
};

export function expandNavs(keys: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const k of keys) {
    out.add(k);
    for (const implied of IMPLIED[k as SysNav] ?? []) out.add(implied);
  }
  return out;
}

/** JSON text of the database back to a value; a damaged cell counts as empty, never as a 500. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  try {
    const v = JSON.parse(text ?? '');
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

const sysNavsOf = (text: string): SysNav[] =>
  parseJson<unknown[]>(text, []).filter((k): k is SysNav => SYS_NAVS.includes(k as SysNav));
const permissionsOf = (text: string): Record<string, unknown> => {
  const v = parseJson<unknown>(text, {});
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
};

/**
 * Refuses (403) a member who would hand out more system navigation or permissions than their own role grants; the
 * roles service adds the dashboards (assertRoleWithin): no escalation through roles or users.
 */
export function assertWithinGrants(
  caller: Caller,
  sysNavs: Iterable<string>,
  permissions: Record<string, unknown>,
): void {
  if (caller.kind === 'tenant') return;
  const own = caller.grants ?? { navs: new Set<string>(), permissions: {} };
  for (const key of expandNavs(sysNavs)) if (!own.navs.has(key)) throw forbidden();
  for (const [key, value] of Object.entries(permissions))
    if (value === true && own.permissions[key] !== true) throw forbidden();
}

export interface RoleInfo {
  name: string;
  description?: string;
  permissions: Record<string, unknown>;
  sys_navs: SysNav[];
}

export function createRolesService(
  db: Db,
  opts: {
    grants: Pick<DashboardGrants, 'assertAll' | 'ofSelection' | 'items'>;
    now?: () => number;
    changes?: Pick<AccessChanges, 'changed'>;
  },
) {
  const now = opts.now ?? Date.now;
  const grants = opts.grants;
  // the grants and menus of a role are cached with every caller holding it: an edit or removal drops them
  const changed = () => opts.changes?.changed('access');

  function roleRow(appId: number, id: number) {
    return db
      .select()
      .from(roles)
      .where(and(eq(roles.id, id), eq(roles.appId, appId)))
      .get();
  }

  /** The grants of a role of `appId` (none for no role, or a role of another application). */
  // read on every member call: prepared once
  const grantsRow = db
    .select({ sysNavs: roles.sysNavs, permissions: roles.permissions })
    .from(roles)
    .where(and(eq(roles.id, sql.placeholder('roleId')), eq(roles.appId, sql.placeholder('appId'))))
    .prepare();

  function grantsOf(roleId: number | null, appId: number): Grants {
    if (roleId === null) return { navs: new Set(), permissions: {} };
    const row = grantsRow.get({ roleId, appId });
    if (!row) return { navs: new Set(), permissions: {} };
    return { navs: expandNavs(sysNavsOf(row.sysNavs)), permissions: permissionsOf(row.permissions) };
  }

  function selectedNavs(roleId: number): number[] {
    return db
      .select({ id: roleNavs.dashboardId })
      .from(roleNavs)
      .where(eq(roleNavs.roleId, roleId))
      .orderBy(asc(roleNavs.sort))
      .all()
      .map((r) => r.id);
  }

  /**
   * 403 unless a role with these grants stays within the member caller's own: system navigation, permissions, and
   * every dashboard the selection opens (descendants included when the role says so).
   */
  async function assertRoleWithin(
    caller: Caller,
    role: { sysNavs: Iterable<string>; permissions: Record<string, unknown>; navs: number[]; descendant: boolean },
  ) {
    if (caller.kind === 'tenant') return;
    assertWithinGrants(caller, role.sysNavs, role.permissions);
    await grants.assertAll(caller, await grants.ofSelection(caller.app!.id, role.navs, role.descendant));
  }

  /** what a stored role grants, in the shape assertRoleWithin reads */
  const grantsOfRow = (row: typeof roles.$inferSelect) => ({
    sysNavs: sysNavsOf(row.sysNavs),
    permissions: permissionsOf(row.permissions),
    navs: selectedNavs(row.id),
    descendant: row.descendant,
  });

  function userCounts(appId: number): Map<number, number> {
    const rows = db
      .select({ roleId: accounts.roleId, n: sql<number>`count(*)` })
      .from(accounts)
      .where(eq(accounts.appId, appId))
      .groupBy(accounts.roleId)
      .all();
    return new Map(rows.filter((r) => r.roleId !== null).map((r) => [r.roleId!, r.n]));
  }

  function present(row: typeof roles.$inferSelect, items: NavItem[], count: number) {
    const byId = new Map(items.map((i) => [i.id, i]));
    const navs = selectedNavs(row.id).filter((id) => byId.has(id));
    const granted = new Set(sysNavsOf(row.sysNavs));
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      permissions: permissionsOf(row.permissions),
      navs,
      navsObj: navs.map((id) => byId.get(id)!),
      descendant: row.descendant,
      direct: !row.descendant,
      sys_navs: SYS_NAVS.map((key) => ({ id: key, label: T.roles.sysNavLabels[key], checked: granted.has(key) })),
      user_count: count,
    };
  }

  async function detail(appId: number, id: number) {
    const row = roleRow(appId, id);
    if (!row) throw notFound();
    const items = await grants.items(appId);
    const base = present(row, items, userCounts(appId).get(id) ?? 0);
    return { ...base, navs_root_obj: navTree(items), navs_root: roleMenu(items, base.navs, row.descendant) };
  }

  async function list(appId: number, nameFilter?: string) {
    const items = await grants.items(appId);
    const counts = userCounts(appId);
    const needle = nameFilter?.trim().toLowerCase();
    return db
      .select()
      .from(roles)
      .where(eq(roles.appId, appId))
      .orderBy(asc(roles.id))
      .all()
      .filter((r) => !needle || r.name.toLowerCase().includes(needle))
      .map((r) => present(r, items, counts.get(r.id) ?? 0));
  }

  /** Dashboard ids of this application, deduplicated in the given order; an unknown or foreign id answers 404. */
  function checkNavs(appId: number, navs: number[]): number[] {
    const unique = [...new Set(navs)];
    if (unique.length === 0) return unique;
    const found = db
      .select({ id: dashboards.id })
      .from(dashboards)
      .where(and(eq(dashboards.appId, appId), inArray(dashboards.id, unique)))
      .all();
    if (found.length !== unique.length) throw notFound();
    return unique;
  }

  function nameTaken(appId: number, name: string, exceptId?: number): boolean {
    // names compare case-insensitively, as the role search does
    const row = db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.appId, appId), sql`lower(${roles.name}) = lower(${name})`))
      .get();
    return row !== undefined && row.id !== exceptId;
  }

  async function add(caller: Caller, input: RoleInfo & { descendant: boolean; navs: number[] }) {
    const appId = caller.app!.id;
    assertWithinGrants(caller, input.sys_navs, input.permissions);
    const navs = checkNavs(appId, input.navs);
    await assertRoleWithin(caller, {
      sysNavs: input.sys_navs,
      permissions: input.permissions,
      navs,
      descendant: input.descendant,
    });
    if (nameTaken(appId, input.name)) throw conflict(T.roles.nameTaken);
    const id = db.transaction(
      (tx) => {
        const row = tx
          .insert(roles)
          .values({
            appId,
            name: input.name,
            description: input.description || null,
            permissions: JSON.stringify(input.permissions),
            sysNavs: JSON.stringify(input.sys_navs),
            descendant: input.descendant,
            createdAt: now(),
            updatedAt: now(),
          })
          .returning({ id: roles.id })
          .get();
        if (navs.length)
          tx.insert(roleNavs)
            .values(navs.map((dashboardId, sort) => ({ roleId: row.id, dashboardId, sort })))
            .run();
        return row.id;
      },
      { behavior: 'immediate' },
    );
    return detail(appId, id);
  }

  async function edit(
    caller: Caller,
    input: {
      id: number;
      name?: string;
      description?: string;
      permissions?: Record<string, unknown>;
      sys_navs?: SysNav[];
      descendant?: boolean;
      navs?: number[];
    },
  ) {
    const appId = caller.app!.id;
    const row = roleRow(appId, input.id);
    if (!row) throw notFound();
    const sysNavs = input.sys_navs ?? sysNavsOf(row.sysNavs);
    const permissions = input.permissions ?? permissionsOf(row.permissions);
    // a member may neither edit a role above their own grants nor raise one (their own included) above them
    const before = grantsOfRow(row);
    await assertRoleWithin(caller, before);
    assertWithinGrants(caller, sysNavs, permissions);
    const navs = input.navs === undefined ? undefined : checkNavs(appId, input.navs);
    await assertRoleWithin(caller, {
      sysNavs,
      permissions,
      navs: navs ?? before.navs,
      descendant: input.descendant ?? row.descendant,
    });
    if (input.name !== undefined && nameTaken(appId, input.name, row.id)) throw conflict(T.roles.nameTaken);
    db.transaction(
      (tx) => {
        const info =
          input.name !== undefined
            ? {
                name: input.name,
                description: input.description !== undefined ? input.description || null : row.description,
                sysNavs: JSON.stringify(sysNavs),
                permissions: JSON.stringify(permissions),
              }
            : {};
        tx.update(roles)
          .set({
            ...info,
            ...(input.descendant !== undefined ? { descendant: input.descendant } : {}),
            updatedAt: now(),
          })
          .where(eq(roles.id, row.id))
          .run();
        if (navs) {
          tx.delete(roleNavs).where(eq(roleNavs.roleId, row.id)).run();
          if (navs.length)
            tx.insert(roleNavs)
              .values(navs.map((dashboardId, sort) => ({ roleId: row.id, dashboardId, sort })))
              .run();
        }
      },
      { behavior: 'immediate' },
    );
    changed();
    return detail(appId, row.id);
  }

  async function remove(caller: Caller, id: number) {
    const appId = caller.app!.id;
    const row = roleRow(appId, id);
    if (!row) throw notFound();
    await assertRoleWithin(caller, grantsOfRow(row));
    const holder = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.roleId, id)).limit(1).get();
    if (holder) throw fail(-21, T.roles.deleteBound);
    db.delete(roles).where(eq(roles.id, id)).run();
    changed();
    return {};
  }

  /** A role of the application, for the user forms; its grants so a member cannot hand out more than they hold. */
  async function roleForUser(caller: Caller, roleId: number) {
    const row = roleRow(caller.app!.id, roleId);
    if (!row) throw notFound();
    await assertRoleWithin(caller, grantsOfRow(row));
    return row;
  }

  /** A dashboard an application user created joins the end of their role's selection, so they keep managing it. */
  function grantCreated(caller: Caller, dashboardId: number) {
    if (caller.kind !== 'member' || caller.accountId === undefined) return;
    const account = db
      .select({ roleId: accounts.roleId })
      .from(accounts)
      .where(eq(accounts.id, caller.accountId))
      .get();
    const role = account?.roleId ? roleRow(caller.app!.id, account.roleId) : undefined;
    if (!role) return;
    const last =
      db
        .select({ s: sql<number | null>`max(${roleNavs.sort})` })
        .from(roleNavs)
        .where(eq(roleNavs.roleId, role.id))
        .get()?.s ?? -1;
    db.insert(roleNavs)
      .values({ roleId: role.id, dashboardId, sort: last + 1 })
      .onConflictDoNothing()
      .run();
    changed();
  }

  const hasRoles = (appId: number) =>
    db.select({ id: roles.id }).from(roles).where(eq(roles.appId, appId)).limit(1).get() !== undefined;

  return { grantsOf, list, detail, add, edit, remove, roleForUser, grantCreated, hasRoles };
}

export type RolesService = ReturnType<typeof createRolesService>;
