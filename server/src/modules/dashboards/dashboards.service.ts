// Dashboards as records: add, edit (full, or a layout/component save), remove (children move up, roles stop granting
// it), one component's removal, and viewing one. Every query is scoped to the caller's application and every one of a
// dashboard follows the caller's dashboard grants (grants.ts): an application user manages only what their role opens.
import { T, type ConfDashboard, type DashboardRecord } from '@sentra/contracts';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import type { DashboardGrants } from './grants.js';
import {
  isUniqueViolation,
  type DashboardChanges,
  type DashboardRow,
  type DashboardsStore,
} from './dashboards.store.js';
import { navFlat, navItems, type NavItem } from './navigation.js';
import { uniquePath } from './paths.js';

type Row = DashboardRow;

export interface DashboardsDeps {
  /** which dashboards a caller may open and manage */
  grants: Pick<DashboardGrants, 'assert' | 'scopeOf' | 'within'>;
  /** an application user's new dashboard joins their role's grants (roles domain), so they can go on managing it */
  grantCreated?(caller: Caller, dashboardId: number): void | Promise<void>;
  /** told after every write: the card calls cache dashboards and the menus built from the tree */
  changes?: Pick<AccessChanges, 'changed'>;
  now?: () => number;
}

/** JSON text of a stored conf_dashboard; a damaged cell reads as an empty object, never a 500. */
function parseConf(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const present = (r: Row): DashboardRecord => ({
  id: r.id,
  label: r.label,
  desc: r.description,
  parent: r.parentId,
  path: r.path,
  conf_dashboard: parseConf(r.confDashboard),
});

/** how many times an add or a rename tries again when another write took its path meanwhile (PostgreSQL) */
const PATH_ATTEMPTS = 5;

/** `write` again while another writer took the path it picked (the unique index refused it) */
async function withFreePath<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= PATH_ATTEMPTS || !isUniqueViolation(err)) throw err;
    }
  }
}

export function createDashboardsService(store: DashboardsStore, deps: DashboardsDeps) {
  const now = deps.now ?? Date.now;
  const changed = () => deps.changes?.changed('dashboards');

  async function mustGet(appId: number, id: number): Promise<Row> {
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    return row;
  }
  /** the caller's dashboard: 404 outside its application, 403 outside its grants */
  async function granted(caller: Caller, id: number): Promise<Row> {
    const row = await mustGet(caller.app!.id, id);
    await deps.grants.assert(caller, id);
    return row;
  }

  const pathFor = (label: string) => (taken: ReadonlySet<string>) => uniquePath(label, (path) => taken.has(path));

  /** Ids of `id` and everything below it (a parent cycle in old data is cut). */
  function subtreeIds(items: NavItem[], id: number): Set<number> {
    const out = new Set<number>([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const item of items)
        if (item.parent !== null && out.has(item.parent) && !out.has(item.id)) {
          out.add(item.id);
          grew = true;
        }
    }
    return out;
  }

  /** A parent must be another dashboard of the application the caller holds, not the dashboard itself nor one below it. */
  async function checkParent(caller: Caller, parent: number | null, self?: number): Promise<void> {
    if (parent === null) return;
    const appId = caller.app!.id;
    await granted(caller, parent);
    if (self !== undefined && subtreeIds(await navItems(store, appId), self).has(parent))
      throw invalid(`parent: ${T.dashboards.screens.parentCycle}`, [
        { path: 'parent', message: T.dashboards.screens.parentCycle },
      ]);
  }

  return {
    async get(caller: Caller, id: number): Promise<DashboardRecord> {
      return present(await granted(caller, id));
    },

    /** The dashboards that may become the parent of `id`: the caller's, but not itself nor its descendants. */
    async parentChoices(caller: Caller, id: number): Promise<NavItem[]> {
      await granted(caller, id);
      const items = await navItems(store, caller.app!.id);
      const excluded = subtreeIds(items, id);
      const scope = await deps.grants.scopeOf(caller);
      return navFlat(items).filter((i) => !excluded.has(i.id) && deps.grants.within(scope, i.id));
    },

    async add(
      caller: Caller,
      input: { label: string; desc?: string; parent?: number | null; conf_dashboard: ConfDashboard },
    ) {
      const appId = caller.app!.id;
      const parent = input.parent ?? null;
      await checkParent(caller, parent);
      const added = await withFreePath(() =>
        store.add({
          appId,
          label: input.label,
          description: input.desc ?? '',
          parentId: parent,
          confDashboard: JSON.stringify(input.conf_dashboard),
          now: now(),
          path: pathFor(input.label),
        }),
      );
      // a member keeps what they create: it joins their role (a new child of a "descendant" grant is in it already)
      if (!deps.grants.within(await deps.grants.scopeOf(caller, true), added.id))
        await deps.grantCreated?.(caller, added.id);
      changed();
      return added;
    },

    async edit(
      caller: Caller,
      input: { id: number; label?: string; desc?: string; parent?: number | null; conf_dashboard?: ConfDashboard },
    ) {
      const row = await granted(caller, input.id);
      const changes: DashboardChanges = { updatedAt: now() };
      const move: Parameters<DashboardsStore['update']>[3] = {};
      if (input.conf_dashboard !== undefined) changes.confDashboard = JSON.stringify(input.conf_dashboard);
      if (input.label !== undefined && input.label !== row.label) {
        changes.label = input.label;
        move.path = pathFor(input.label);
      }
      if (input.desc !== undefined) changes.description = input.desc;
      if (input.parent !== undefined && input.parent !== row.parentId) {
        await checkParent(caller, input.parent, row.id);
        move.parent = input.parent;
      }
      const edited = await withFreePath(() => store.update(row.appId, row.id, changes, move));
      // removed meanwhile by another call
      if (!edited) throw notFound();
      changed();
      return edited;
    },

    /** Removes a dashboard; its children move up to its parent (role grants of it go with the row: foreign key). */
    async remove(caller: Caller, id: number): Promise<void> {
      const row = await granted(caller, id);
      await store.remove(row.appId, id, row.parentId, now());
      changed();
    },

    /** Removes the component `key` from conf_dashboard.dashboard. */
    async removeComponent(caller: Caller, id: number, key: string) {
      const row = await granted(caller, id);
      const conf = parseConf(row.confDashboard);
      const cards = conf.dashboard;
      if (typeof cards !== 'object' || cards === null || !Object.prototype.hasOwnProperty.call(cards, key))
        throw notFound();
      const { [key]: _removed, ...rest } = cards as Record<string, unknown>;
      conf.dashboard = rest;
      await store.update(row.appId, row.id, { confDashboard: JSON.stringify(conf), updatedAt: now() });
      changed();
      return { id: row.id, path: row.path };
    },

    /** A dashboard for viewing: within the caller's grants, else 403. */
    async view(caller: Caller, id: number): Promise<DashboardRecord> {
      return present(await granted(caller, id));
    },
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;
