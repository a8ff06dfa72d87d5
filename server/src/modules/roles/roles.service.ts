// Roles: what an application user may do (grantsOf, used by the authenticator on every member call) and the role
// records themselves. Which dashboards a role opens, and the menu it gives a user, are the dashboards module's one
// rule (dashboards/grants.ts).
import { SYS_NAVS, T, type SysNav } from '@sentra/contracts';
import { conflict, fail, forbidden, notFound } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import type { UsersStore } from '../users/users.store.js';
import { navTree, roleMenu, type NavItem } from '../dashboards/navigation.js';
import type { DashboardGrants } from '../dashboards/grants.js';
import type { RoleRow, RolesStore } from './roles.store.js';

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

/** What the roles domain asks the others: the accounts holding roles, and the dashboards a role selects from. */
export interface RolesDomains {
  users: Pick<UsersStore, 'roleCounts' | 'roleHeld' | 'principal'>;
  /** the application's navigation items (the dashboards domain) */
  navItems(appId: number): Promise<NavItem[]>;
}

export function createRolesService(
  store: RolesStore,
  domains: RolesDomains,
  opts: {
    grants: Pick<DashboardGrants, 'assertAll' | 'ofSelection'>;
    now?: () => number;
    changes?: Pick<AccessChanges, 'changed'>;
  },
) {
  const now = opts.now ?? Date.now;
  const grants = opts.grants;
  const { users, navItems } = domains;
  // the grants and menus of a role are cached with every caller holding it: an edit or removal drops them
  const changed = () => opts.changes?.changed('access');

  /** The grants of a role of `appId` (none for no role, or a role of another application). */
  async function grantsOf(roleId: number | null, appId: number): Promise<Grants> {
    if (roleId === null) return { navs: new Set(), permissions: {} };
    const row = await store.grants(roleId, appId);
    if (!row) return { navs: new Set(), permissions: {} };
    return { navs: expandNavs(sysNavsOf(row.sysNavs)), permissions: permissionsOf(row.permissions) };
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
  const grantsOfRow = async (row: RoleRow) => ({
    sysNavs: sysNavsOf(row.sysNavs),
    permissions: permissionsOf(row.permissions),
    navs: await store.selectedNavs(row.id),
    descendant: row.descendant,
  });

  async function present(row: RoleRow, items: NavItem[], count: number) {
    const byId = new Map(items.map((i) => [i.id, i]));
    const navs = (await store.selectedNavs(row.id)).filter((id) => byId.has(id));
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
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    const items = await navItems(appId);
    const base = await present(row, items, (await users.roleCounts(appId)).get(id) ?? 0);
    return { ...base, navs_root_obj: navTree(items), navs_root: roleMenu(items, base.navs, row.descendant) };
  }

  async function list(appId: number, nameFilter?: string) {
    const items = await navItems(appId);
    const counts = await users.roleCounts(appId);
    const needle = nameFilter?.trim().toLowerCase();
    const rows = (await store.list(appId)).filter((r) => !needle || r.name.toLowerCase().includes(needle));
    return Promise.all(rows.map((r) => present(r, items, counts.get(r.id) ?? 0)));
  }

  /** Dashboard ids of this application, deduplicated in the given order; an unknown or foreign id answers 404. */
  async function checkNavs(appId: number, navs: number[]): Promise<number[]> {
    const unique = [...new Set(navs)];
    if (unique.length === 0) return unique;
    const known = new Set((await navItems(appId)).map((i) => i.id));
    if (!unique.every((id) => known.has(id))) throw notFound();
    return unique;
  }

  async function nameTaken(appId: number, name: string, exceptId?: number): Promise<boolean> {
    // names compare case-insensitively, as the role search does
    const id = await store.idByName(appId, name);
    return id !== undefined && id !== exceptId;
  }

  async function add(caller: Caller, input: RoleInfo & { descendant: boolean; navs: number[] }) {
    const appId = caller.app!.id;
    assertWithinGrants(caller, input.sys_navs, input.permissions);
    const navs = await checkNavs(appId, input.navs);
    await assertRoleWithin(caller, {
      sysNavs: input.sys_navs,
      permissions: input.permissions,
      navs,
      descendant: input.descendant,
    });
    if (await nameTaken(appId, input.name)) throw conflict(T.roles.nameTaken);
    const id = await store.create(
      appId,
      {
        name: input.name,
        description: input.description || null,
        permissions: JSON.stringify(input.permissions),
        sysNavs: JSON.stringify(input.sys_navs),
        descendant: input.descendant,
      },
      navs,
      now(),
    );
    // two additions racing for the same name: the unique index decides
    if (id === undefined) throw conflict(T.roles.nameTaken);
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
    const row = await store.byId(appId, input.id);
    if (!row) throw notFound();
    const sysNavs = input.sys_navs ?? sysNavsOf(row.sysNavs);
    const permissions = input.permissions ?? permissionsOf(row.permissions);
    // a member may neither edit a role above their own grants nor raise one (their own included) above them
    const before = await grantsOfRow(row);
    await assertRoleWithin(caller, before);
    assertWithinGrants(caller, sysNavs, permissions);
    const navs = input.navs === undefined ? undefined : await checkNavs(appId, input.navs);
    await assertRoleWithin(caller, {
      sysNavs,
      permissions,
      navs: navs ?? before.navs,
      descendant: input.descendant ?? row.descendant,
    });
    if (input.name !== undefined && (await nameTaken(appId, input.name, row.id))) throw conflict(T.roles.nameTaken);
    const info =
      input.name !== undefined
        ? {
            name: input.name,
            description: input.description !== undefined ? input.description || null : row.description,
            sysNavs: JSON.stringify(sysNavs),
            permissions: JSON.stringify(permissions),
          }
        : {};
    await store.update(
      row.id,
      { ...info, ...(input.descendant !== undefined ? { descendant: input.descendant } : {}) },
      navs,
      now(),
    );
    changed();
    return detail(appId, row.id);
  }

  async function remove(caller: Caller, id: number) {
    const appId = caller.app!.id;
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    await assertRoleWithin(caller, await grantsOfRow(row));
    if (await users.roleHeld(id)) throw fail(-21, T.roles.deleteBound);
    await store.remove(id);
    changed();
    return {};
  }

  /** A role of the application, for the user forms; its grants so a member cannot hand out more than they hold. */
  async function roleForUser(caller: Caller, roleId: number) {
    const row = await store.byId(caller.app!.id, roleId);
    if (!row) throw notFound();
    await assertRoleWithin(caller, await grantsOfRow(row));
    return row;
  }

  /** A dashboard an application user created joins the end of their role's selection, so they keep managing it. */
  async function grantCreated(caller: Caller, dashboardId: number): Promise<void> {
    if (caller.kind !== 'member' || caller.accountId === undefined) return;
    const account = await users.principal(caller.accountId);
    const role = account?.roleId ? await store.byId(caller.app!.id, account.roleId) : undefined;
    if (!role) return;
    await store.appendNav(role.id, dashboardId);
    changed();
  }

  const hasRoles = (appId: number) => store.hasRoles(appId);

  /** for the users domain: the names of roles `ids` */
  const namesOf = (ids: number[]) => store.namesOf(ids);

  return { grantsOf, list, detail, add, edit, remove, roleForUser, grantCreated, hasRoles, namesOf };
}

export type RolesService = ReturnType<typeof createRolesService>;
