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
import type { NavEntry } from '@sentra/contracts';
import { forbidden } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import type { DashboardsStore } from './dashboards.store.js';
import { grantedIds, navItems, navTree, roleMenu, type NavItem } from './navigation.js';

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

/** what the rule reads on a cache miss, each from the domain that owns it */
export interface GrantReads {
  dashboards: Pick<DashboardsStore, 'navRows'>;
  /** the role of an account of the application: null for none, undefined for no such account (users domain) */
  roleOfAccount(appId: number, accountId: number): Promise<number | null | undefined>;
  /** a role of the application: its dashboard selection in order, and "descendant" (roles domain) */
  roleSelection(appId: number, roleId: number): Promise<{ descendant: boolean; selected: number[] } | undefined>;
}

export function createDashboardGrants(
  reads: GrantReads,
  opts: { now?: () => number; changes?: Pick<AccessChanges, 'access' | 'dashboards'> } = {},
) {
  const now = opts.now ?? Date.now;
  const changes = opts.changes;
  const cache = new Map<string, { at: number; access: number; dashboards: number; granted: Granted }>();
  // a burst of one account's calls after a change waits for one read (made after that change)
  const reading = new Map<string, { access: number; dashboards: number; granted: Promise<Granted> }>();

  /** The application's dashboards as navigation items (a read every time: the tenant menu, role screens). */
  const itemsOf = (appId: number) => navItems(reads.dashboards, appId);

  /** The dashboards a role selection opens (a role being added or edited, or one a user is given). */
  async function ofSelection(appId: number, selected: Iterable<number>, descendant: boolean): Promise<Set<number>> {
    return grantedIds(await itemsOf(appId), selected, descendant);
  }

  async function ofRole(appId: number, roleId: number | null | undefined): Promise<Granted> {
    if (roleId === null || roleId === undefined) return NOTHING;
    const role = await reads.roleSelection(appId, roleId);
    if (!role) return NOTHING;
    const items = await itemsOf(appId);
    return { ids: grantedIds(items, role.selected, role.descendant), items, ...role };
  }

  async function read(appId: number, accountId: number, key: string): Promise<Granted> {
    // the generations before the read: a change made while it runs leaves the entry stale
    const access = changes?.access ?? 0;
    const dashboards = changes?.dashboards ?? 0;
    const at = now();
    const granted = await ofRole(appId, await reads.roleOfAccount(appId, accountId));
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { at, access, dashboards, granted });
    return granted;
  }

  /** A hit answers without a read; a miss reads (joining a read of the same account already under way). */
  function ofAccount(appId: number, accountId: number, reread: boolean): Granted | Promise<Granted> {
    const key = `${appId}:${accountId}`;
    const hit = cache.get(key);
    const fresh = !changes || (hit?.access === changes.access && hit.dashboards === changes.dashboards);
    if (hit && fresh && !reread && now() - hit.at < TTL_MS) return hit.granted;
    if (reread) return read(appId, accountId, key);
    const access = changes?.access ?? 0;
    const dashboards = changes?.dashboards ?? 0;
    const pending = reading.get(key);
    if (pending && pending.access === access && pending.dashboards === dashboards) return pending.granted;
    const granted = read(appId, accountId, key).finally(() => {
      if (reading.get(key)?.granted === granted) reading.delete(key);
    });
    reading.set(key, { access, dashboards, granted });
    return granted;
  }

  /** The caller's dashboards in its application: from memory when kept, else once read. */
  function scope(caller: Caller, reread: boolean): DashboardScope | Promise<DashboardScope> {
    const appId = caller.app?.id;
    if (appId === undefined) return NONE;
    if (caller.kind === 'tenant') return 'all';
    if (caller.kind === 'credentials') return caller.grants?.navs.has('_dashboard_manage_') ? 'all' : NONE;
    if (caller.accountId === undefined) return NONE;
    const granted = ofAccount(appId, caller.accountId, reread);
    return granted instanceof Promise ? granted.then((g) => g.ids) : granted.ids;
  }

  /** The caller's dashboards in its application; `reread` skips the cache (right after a write of the caller's own). */
  async function scopeOf(caller: Caller, reread = false): Promise<DashboardScope> {
    return scope(caller, reread);
  }

  /** The caller's dashboards when they are in memory (scopeOf would answer without a read), else undefined. */
  function scopeNow(caller: Caller): DashboardScope | undefined {
    const s = scope(caller, false);
    return s instanceof Promise ? undefined : s;
  }

  /** The caller's menu: the whole tree for a tenant, their role's selection for an application user, else none. */
  async function menuOf(caller: Caller): Promise<NavEntry[]> {
    const appId = caller.app?.id;
    if (appId === undefined) return [];
    if (caller.kind === 'tenant') return navTree(await itemsOf(appId));
    if (caller.kind !== 'member' || caller.accountId === undefined) return [];
    const granted = await ofAccount(appId, caller.accountId, false);
    return (granted.menu ??= roleMenu(granted.items, granted.selected, granted.descendant));
  }

  const within = (scope: DashboardScope, id: number) => scope === 'all' || scope.has(id);

  return {
    scopeOf,
    scopeNow,
    ofSelection,
    menuOf,
    /** the application's dashboards as navigation items, read now */
    items: itemsOf,
    /** may the caller open dashboard `id` of its application (an id of another application is the caller's 404 to give) */
    mayView: async (caller: Caller, id: number) => within(await scopeOf(caller), id),
    /** 403 unless the caller may open dashboard `id` */
    async assert(caller: Caller, id: number): Promise<void> {
      if (!within(await scopeOf(caller), id)) throw forbidden();
    },
    /** 403 unless every id of `ids` is the caller's (a member cannot hand out dashboards they do not hold) */
    async assertAll(caller: Caller, ids: Iterable<number>): Promise<void> {
      const scope = await scopeOf(caller);
      if (scope === 'all') return;
      for (const id of ids) if (!scope.has(id)) throw forbidden();
    },
    within,
  };
}

export type DashboardGrants = ReturnType<typeof createDashboardGrants>;
