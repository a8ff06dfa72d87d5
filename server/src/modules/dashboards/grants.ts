// Which dashboards of an application a caller may open, and the menu they see — the one rule every dashboard path asks
// (the menu, the dashboard list, view, card queries, socket.io card subscriptions, the web service, edit and delete,
// and the role and user screens that hand dashboards out):
// - a tenant: every dashboard of its application;
// - an application user: exactly the dashboards their role grants (its selection, and everything below it when the
//   role says "descendant"). `_dashboard_manage_` ("Kelola Dasboard") lets them add, edit and delete within that set,
//   not beyond it (docs/decisions/security-access.md);
// - a credentials pair (an API key its tenant made): every dashboard when its scopes hold `_dashboard_manage_`, else none.
// The menu: a tenant the whole tree; an application user what their role selects, in the role's order (roleMenu);
// a credentials pair none. Answers are cached per account until the next access or dashboard change, and re-read at
// least every 2 s.
import type Database from 'better-sqlite3';
import type { NavEntry } from '@sentra/contracts';
import { forbidden } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { asNavItems, grantedIds, navTree, roleMenu, type NavItem } from './navigation.js';

/** every dashboard of the application, or exactly these ids */
export type DashboardScope = 'all' | ReadonlySet<number>;

const TTL_MS = 2000;
const MAX_ENTRIES = 10_000;
const NONE: ReadonlySet<number> = new Set();

/** what an account's role opens: its selection (in the role's order) over the application's items at the time */
interface Granted {
  ids: ReadonlySet<number>;
  items: NavItem[];
  selected: number[];
  descendant: boolean;
  /** built on the first menu asked of this entry */
  menu?: NavEntry[];
}
const NOTHING: Granted = { ids: NONE, items: [], selected: [], descendant: false, menu: [] };

export function createDashboardGrants(
  sqlite: Database.Database,
  opts: { now?: () => number; changes?: Pick<AccessChanges, 'access' | 'dashboards'> } = {},
) {
  const now = opts.now ?? Date.now;
  const changes = opts.changes;
  const roleOf = sqlite.prepare('SELECT role_id FROM accounts WHERE id = ? AND app_id = ?').pluck();
  const roleRow = sqlite.prepare('SELECT descendant FROM roles WHERE id = ? AND app_id = ?').pluck();
  const roleNavs = sqlite.prepare('SELECT dashboard_id FROM role_navs WHERE role_id = ? ORDER BY sort').pluck();
  const tree = sqlite.prepare(
    'SELECT id, label, path, parent_id AS parent, sort FROM dashboards WHERE app_id = ? ORDER BY sort, id',
  );
  const cache = new Map<string, { at: number; access: number; dashboards: number; granted: Granted }>();

  const itemsOf = (appId: number) => asNavItems(tree.all(appId) as NavItem[]);

  /** The dashboards a role selection opens (a role being added or edited, or one a user is given). */
  function ofSelection(appId: number, selected: Iterable<number>, descendant: boolean): Set<number> {
    return grantedIds(itemsOf(appId), selected, descendant);
  }

  function ofRole(appId: number, roleId: number | null | undefined): Granted {
    if (roleId === null || roleId === undefined) return NOTHING;
    const descendant = roleRow.get(roleId, appId) as number | undefined;
    if (descendant === undefined) return NOTHING;
    const items = itemsOf(appId);
    const selected = roleNavs.all(roleId) as number[];
    return { ids: grantedIds(items, selected, descendant === 1), items, selected, descendant: descendant === 1 };
  }

  function ofAccount(appId: number, accountId: number, reread: boolean): Granted {
    const key = `${appId}:${accountId}`;
    const hit = cache.get(key);
    const fresh = !changes || (hit?.access === changes.access && hit.dashboards === changes.dashboards);
    if (hit && fresh && !reread && now() - hit.at < TTL_MS) return hit.granted;
    const granted = ofRole(appId, roleOf.get(accountId, appId) as number | null | undefined);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { at: now(), access: changes?.access ?? 0, dashboards: changes?.dashboards ?? 0, granted });
    return granted;
  }

  /** The caller's dashboards in its application; `reread` skips the cache (right after a write of the caller's own). */
  function scopeOf(caller: Caller, reread = false): DashboardScope {
    const appId = caller.app?.id;
    if (appId === undefined) return NONE;
    if (caller.kind === 'tenant') return 'all';
    if (caller.kind === 'credentials') return caller.grants?.navs.has('_dashboard_manage_') ? 'all' : NONE;
    return caller.accountId === undefined ? NONE : ofAccount(appId, caller.accountId, reread).ids;
  }

  /** The caller's menu: the whole tree for a tenant, their role's selection for an application user, else none. */
  function menuOf(caller: Caller): NavEntry[] {
    const appId = caller.app?.id;
    if (appId === undefined) return [];
    if (caller.kind === 'tenant') return navTree(itemsOf(appId));
    if (caller.kind !== 'member' || caller.accountId === undefined) return [];
    const granted = ofAccount(appId, caller.accountId, false);
    return (granted.menu ??= roleMenu(granted.items, granted.selected, granted.descendant));
  }

  const within = (scope: DashboardScope, id: number) => scope === 'all' || scope.has(id);

  return {
    scopeOf,
    ofSelection,
    menuOf,
    /** may the caller open dashboard `id` of its application (an id of another application is the caller's 404 to give) */
    mayView: (caller: Caller, id: number) => within(scopeOf(caller), id),
    /** 403 unless the caller may open dashboard `id` */
    assert(caller: Caller, id: number): void {
      if (!within(scopeOf(caller), id)) throw forbidden();
    },
    /** 403 unless every id of `ids` is the caller's (a member cannot hand out dashboards they do not hold) */
    assertAll(caller: Caller, ids: Iterable<number>): void {
      const scope = scopeOf(caller);
      if (scope === 'all') return;
      for (const id of ids) if (!scope.has(id)) throw forbidden();
    },
    within,
  };
}

export type DashboardGrants = ReturnType<typeof createDashboardGrants>;
