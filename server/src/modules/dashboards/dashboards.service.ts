// Dashboards as records: add, edit (full, or a layout/component save), remove (children move up, roles stop granting
// it), one component's removal, and who may view one. Every query is scoped to the caller's application.
import { and, eq, isNull, max, ne } from 'drizzle-orm';
import { T, type ConfDashboard, type DashboardRecord, type NavEntry } from '@sentra/contracts';
import type { Db } from '../../db.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { forbidden, invalid, notFound } from '../../platform/http/errors.js';
import { dashboards } from './dashboards.table.js';
import { navFlat, navItems, type NavItem } from './navigation.js';
import { uniquePath } from './paths.js';

type Row = typeof dashboards.$inferSelect;

export interface DashboardsDeps {
  /** the menu a caller's role gives (roles domain): a dashboard in it may be viewed */
  menuNavs(caller: Caller): NavEntry[];
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

function containsId(entries: readonly NavEntry[], id: number): boolean {
  return entries.some((e) => e.id === id || containsId(e.children, id));
}

export function createDashboardsService(db: Db, deps: DashboardsDeps) {
  const now = deps.now ?? Date.now;
  const changed = () => deps.changes?.changed('dashboards');

  const rowOf = (appId: number, id: number) => db.select().from(dashboards).where(and(eq(dashboards.appId, appId), eq(dashboards.id, id))).get();
  function mustGet(appId: number, id: number): Row {
    const row = rowOf(appId, id);
    if (!row) throw notFound();
    return row;
  }

  function pathFor(appId: number, label: string, self?: number): string {
    return uniquePath(label, (path) =>
      Boolean(
        db
          .select({ id: dashboards.id })
          .from(dashboards)
          .where(and(eq(dashboards.appId, appId), eq(dashboards.path, path), self !== undefined ? ne(dashboards.id, self) : undefined))
          .get(),
      ),
    );
  }

  /** Ids of `id` and everything below it (a parent cycle in old data is cut). */
  function subtreeIds(items: NavItem[], id: number): Set<number> {
    const out = new Set<number>([id]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const item of items) if (item.parent !== null && out.has(item.parent) && !out.has(item.id)) {
        out.add(item.id);
        grew = true;
      }
    }
    return out;
  }

  /** A parent must be another dashboard of the application, not the dashboard itself nor one below it. */
  function checkParent(appId: number, parent: number | null, self?: number): void {
    if (parent === null) return;
    mustGet(appId, parent);
    if (self !== undefined && subtreeIds(navItems(db, appId), self).has(parent))
      throw invalid(`parent: ${T.dashboards.screens.parentCycle}`, [{ path: 'parent', message: T.dashboards.screens.parentCycle }]);
  }

  function nextSort(appId: number, parent: number | null): number {
    const where = and(eq(dashboards.appId, appId), parent === null ? isNull(dashboards.parentId) : eq(dashboards.parentId, parent));
    return (db.select({ s: max(dashboards.sort) }).from(dashboards).where(where).get()?.s ?? -1) + 1;
  }

  return {
    get(appId: number, id: number): DashboardRecord {
      return present(mustGet(appId, id));
    },

    /** The dashboards that may become the parent of `id`: all but itself and its descendants. */
    parentChoices(appId: number, id: number): NavItem[] {
      mustGet(appId, id);
      const items = navItems(db, appId);
      const excluded = subtreeIds(items, id);
      return navFlat(items).filter((i) => !excluded.has(i.id));
    },

    add(appId: number, input: { label: string; desc?: string; parent?: number | null; conf_dashboard: ConfDashboard }) {
      const parent = input.parent ?? null;
      checkParent(appId, parent);
      const added = db.transaction((tx) => {
        const path = pathFor(appId, input.label);
        const row = tx
          .insert(dashboards)
          .values({
            appId,
            label: input.label,
            description: input.desc ?? '',
            path,
            parentId: parent,
            sort: nextSort(appId, parent),
            confDashboard: JSON.stringify(input.conf_dashboard),
            createdAt: now(),
            updatedAt: now(),
          })
          .returning({ id: dashboards.id, path: dashboards.path })
          .get();
        return row;
      }, { behavior: 'immediate' });
      // a new child of a dashboard a role opens with its descendants is in that role's menu
      changed();
      return added;
    },

    edit(appId: number, input: { id: number; label?: string; desc?: string; parent?: number | null; conf_dashboard?: ConfDashboard }) {
      const row = mustGet(appId, input.id);
      const changes: Partial<typeof dashboards.$inferInsert> = { updatedAt: now() };
      if (input.conf_dashboard !== undefined) changes.confDashboard = JSON.stringify(input.conf_dashboard);
      if (input.label !== undefined && input.label !== row.label) {
        changes.label = input.label;
        changes.path = pathFor(appId, input.label, row.id);
      }
      if (input.desc !== undefined) changes.description = input.desc;
      if (input.parent !== undefined && input.parent !== row.parentId) {
        checkParent(appId, input.parent, row.id);
        changes.parentId = input.parent;
        changes.sort = nextSort(appId, input.parent);
      }
      const edited = db.update(dashboards).set(changes).where(eq(dashboards.id, row.id)).returning({ id: dashboards.id, path: dashboards.path }).get()!;
      changed();
      return edited;
    },

    /** Removes a dashboard; its children move up to its parent (role grants of it go with the row: foreign key). */
    remove(appId: number, id: number): void {
      const row = mustGet(appId, id);
      db.transaction((tx) => {
        tx.update(dashboards).set({ parentId: row.parentId, updatedAt: now() }).where(and(eq(dashboards.appId, appId), eq(dashboards.parentId, id))).run();
        tx.delete(dashboards).where(eq(dashboards.id, id)).run();
      }, { behavior: 'immediate' });
      changed();
    },

    /** Removes the component `key` from conf_dashboard.dashboard. */
    removeComponent(appId: number, id: number, key: string) {
      const row = mustGet(appId, id);
      const conf = parseConf(row.confDashboard);
      const cards = conf.dashboard;
      if (typeof cards !== 'object' || cards === null || !Object.prototype.hasOwnProperty.call(cards, key)) throw notFound();
      const { [key]: _removed, ...rest } = cards as Record<string, unknown>;
      conf.dashboard = rest;
      db.update(dashboards).set({ confDashboard: JSON.stringify(conf), updatedAt: now() }).where(eq(dashboards.id, row.id)).run();
      changed();
      return { id: row.id, path: row.path };
    },

    /** A dashboard for viewing: a tenant, `_dashboard_manage_`, or a role whose menu holds it; else 403. */
    view(caller: Caller, id: number): DashboardRecord {
      const appId = caller.app!.id;
      const row = mustGet(appId, id);
      const mayView = caller.kind === 'tenant' || caller.grants?.navs.has('_dashboard_manage_') || containsId(deps.menuNavs(caller), id);
      if (!mayView) throw forbidden();
      return present(row);
    },
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;
