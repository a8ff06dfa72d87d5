// Which dashboards of an application a caller may open — the one rule every dashboard path asks (the dashboard
// list, view, card queries, socket.io card subscriptions, the web service, edit and delete, and the role and user
// screens that hand dashboards out):
// - a tenant: every dashboard of its application;
// - an application user: exactly the dashboards their role grants (its selection, and everything below it when the
//   role says "descendant"). `_dashboard_manage_` ("Kelola Dasboard") lets them add, edit and delete within that set,
//   not beyond it (docs/decisions/security-access.md);
// - a credentials pair (an API key its tenant made): every dashboard when its scopes hold `_dashboard_manage_`, else none.
// Answers are cached per account until the next access or dashboard change, and re-read at least every 2 s.
import type Database from 'better-sqlite3';
import { forbidden } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { grantedIds } from './navigation.js';

/** every dashboard of the application, or exactly these ids */
export type DashboardScope = 'all' | ReadonlySet<number>;

const TTL_MS = 2000;
const MAX_ENTRIES = 10_000;
const NONE: ReadonlySet<number> = new Set();

export function createDashboardGrants(sqlite: Database.Database, opts: { now?: () => number; changes?: Pick<AccessChanges, 'access' | 'dashboards'> } = {}) {
  const now = opts.now ?? Date.now;
  const changes = opts.changes;
  const roleOf = sqlite.prepare('SELECT role_id FROM accounts WHERE id = ? AND app_id = ?').pluck();
  const roleRow = sqlite.prepare('SELECT descendant FROM roles WHERE id = ? AND app_id = ?').pluck();
  const roleNavs = sqlite.prepare('SELECT dashboard_id FROM role_navs WHERE role_id = ?').pluck();
  const tree = sqlite.prepare('SELECT id, parent_id AS parent FROM dashboards WHERE app_id = ?');
  const cache = new Map<string, { at: number; access: number; dashboards: number; ids: ReadonlySet<number> }>();

  const itemsOf = (appId: number) => tree.all(appId) as { id: number; parent: number | null }[];

  /** The dashboards a role selection opens (a role being added or edited, or one a user is given). */
  function ofSelection(appId: number, selected: Iterable<number>, descendant: boolean): Set<number> {
    return grantedIds(itemsOf(appId), selected, descendant);
  }

  function ofRole(appId: number, roleId: number | null | undefined): ReadonlySet<number> {
    if (roleId === null || roleId === undefined) return NONE;
    const descendant = roleRow.get(roleId, appId) as number | undefined;
    if (descendant === undefined) return NONE;
    return ofSelection(appId, roleNavs.all(roleId) as number[], descendant === 1);
  }

  function ofAccount(appId: number, accountId: number, reread: boolean): ReadonlySet<number> {
    const key = `${appId}:${accountId}`;
    const hit = cache.get(key);
    const fresh = !changes || (hit?.access === changes.access && hit.dashboards === changes.dashboards);
    if (hit && fresh && !reread && now() - hit.at < TTL_MS) return hit.ids;
    const ids = ofRole(appId, roleOf.get(accountId, appId) as number | null | undefined);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { at: now(), access: changes?.access ?? 0, dashboards: changes?.dashboards ?? 0, ids });
    return ids;
  }

  /** The caller's dashboards in its application; `reread` skips the cache (right after a write of the caller's own). */
  function scopeOf(caller: Caller, reread = false): DashboardScope {
    const appId = caller.app?.id;
    if (appId === undefined) return NONE;
    if (caller.kind === 'tenant') return 'all';
    if (caller.kind === 'credentials') return caller.grants?.navs.has('_dashboard_manage_') ? 'all' : NONE;
    return caller.accountId === undefined ? NONE : ofAccount(appId, caller.accountId, reread);
  }

  const within = (scope: DashboardScope, id: number) => scope === 'all' || scope.has(id);

  return {
    scopeOf,
    ofSelection,
    ofRole,
    /** may the caller open dashboard `id` of its application (an id of another application is the caller's 404 to give) */
    may: (caller: Caller, id: number) => within(scopeOf(caller), id),
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
