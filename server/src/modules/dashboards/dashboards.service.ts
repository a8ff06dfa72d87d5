// Dashboards as records: add, edit (full, or a layout/component save), remove (children move up, roles stop granting
// it), one component's removal, and viewing one. Every query is scoped to the caller's application and every one of a
// dashboard follows the caller's dashboard grants (grants.ts): an application user manages only what their role opens.
import { and, eq, isNull, max, ne } from 'drizzle-orm';
import { T, type ConfDashboard, type DashboardRecord } from '@sentra/contracts';
import type { Db } from '../../db.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import type { DashboardGrants } from './grants.js';
import { dashboards } from './dashboards.table.js';
import { navFlat, navItems, type NavItem } from './navigation.js';
import { uniquePath } from './paths.js';

type Row = typeof dashboards.$inferSelect;

export interface DashboardsDeps {
  /** which dashboards a caller may open and manage */
  grants: Pick<DashboardGrants, 'assert' | 'scopeOf' | 'within'>;
  /** an application user's new dashboard joins their role's grants (roles domain), so they can go on managing it */
  grantCreated?(caller: Caller, dashboardId: number): void;
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

export function createDashboardsService(db: Db, deps: DashboardsDeps) {
  const now = deps.now ?? Date.now;
  const changed = () => deps.changes?.changed('dashboards');

  const rowOf = (appId: number, id: number) =>
    db
      .select()
      .from(dashboards)
      .where(and(eq(dashboards.appId, appId), eq(dashboards.id, id)))
      .get();
  function mustGet(appId: number, id: number): Row {
    const row = rowOf(appId, id);
    if (!row) throw notFound();
    return row;
  }
  /** the caller's dashboard: 404 outside its application, 403 outside its grants */
  function granted(caller: Caller, id: number): Row {
    const row = mustGet(caller.app!.id, id);
    deps.grants.assert(caller, id);
    return row;
  }

  function pathFor(appId: number, label: string, self?: number): string {
    return uniquePath(label, (path) =>
      Boolean(
        db
          .select({ id: dashboards.id })
          .from(dashboards)
          .where(
            and(
              eq(dashboards.appId, appId),
              eq(dashboards.path, path),
              self !== undefined ? ne(dashboards.id, self) : undefined,
            ),
          )
          .get(),
      ),
    );
  }

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
  function checkParent(caller: Caller, parent: number | null, self?: number): void {
    if (parent === null) return;
    const appId = caller.app!.id;
    granted(caller, parent);
    if (self !== undefined && subtreeIds(navItems(db, appId), self).has(parent))
      throw invalid(`parent: ${T.dashboards.screens.parentCycle}`, [
        { path: 'parent', message: T.dashboards.screens.parentCycle },
      ]);
  }

  function nextSort(appId: number, parent: number | null): number {
    const where = and(
      eq(dashboards.appId, appId),
      parent === null ? isNull(dashboards.parentId) : eq(dashboards.parentId, parent),
    );
    return (
      (db
        .select({ s: max(dashboards.sort) })
        .from(dashboards)
        .where(where)
        .get()?.s ?? -1) + 1
    );
  }

  return {
    get(caller: Caller, id: number): DashboardRecord {
      return present(granted(caller, id));
    },

    /** The dashboards that may become the parent of `id`: the caller's, but not itself nor its descendants. */
    parentChoices(caller: Caller, id: number): NavItem[] {
      granted(caller, id);
      const items = navItems(db, caller.app!.id);
      const excluded = subtreeIds(items, id);
      const scope = deps.grants.scopeOf(caller);
      return navFlat(items).filter((i) => !excluded.has(i.id) && deps.grants.within(scope, i.id));
    },

    add(
      caller: Caller,
      input: { label: string; desc?: string; parent?: number | null; conf_dashboard: ConfDashboard },
    ) {
      const appId = caller.app!.id;
      const parent = input.parent ?? null;
      checkParent(caller, parent);
      const added = db.transaction(
        (tx) => {
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
        },
        { behavior: 'immediate' },
      );
      // a member keeps what they create: it joins their role (a new child of a "descendant" grant is in it already)
      if (!deps.grants.within(deps.grants.scopeOf(caller, true), added.id)) deps.grantCreated?.(caller, added.id);
      changed();
      return added;
    },

    edit(
      caller: Caller,
      input: { id: number; label?: string; desc?: string; parent?: number | null; conf_dashboard?: ConfDashboard },
    ) {
      const appId = caller.app!.id;
      const row = granted(caller, input.id);
      const changes: Partial<typeof dashboards.$inferInsert> = { updatedAt: now() };
      if (input.conf_dashboard !== undefined) changes.confDashboard = JSON.stringify(input.conf_dashboard);
      if (input.label !== undefined && input.label !== row.label) {
        changes.label = input.label;
        changes.path = pathFor(appId, input.label, row.id);
      }
      if (input.desc !== undefined) changes.description = input.desc;
      if (input.parent !== undefined && input.parent !== row.parentId) {
        checkParent(caller, input.parent, row.id);
        changes.parentId = input.parent;
        changes.sort = nextSort(appId, input.parent);
      }
      const edited = db
        .update(dashboards)
        .set(changes)
        .where(eq(dashboards.id, row.id))
        .returning({ id: dashboards.id, path: dashboards.path })
        .get()!;
      changed();
      return edited;
    },

    /** Removes a dashboard; its children move up to its parent (role grants of it go with the row: foreign key). */
    remove(caller: Caller, id: number): void {
      const appId = caller.app!.id;
      const row = granted(caller, id);
      db.transaction(
        (tx) => {
          tx.update(dashboards)
            .set({ parentId: row.parentId, updatedAt: now() })
            .where(and(eq(dashboards.appId, appId), eq(dashboards.parentId, id)))
            .run();
          tx.delete(dashboards).where(eq(dashboards.id, id)).run();
        },
        { behavior: 'immediate' },
      );
      changed();
    },

    /** Removes the component `key` from conf_dashboard.dashboard. */
    removeComponent(caller: Caller, id: number, key: string) {
      const row = granted(caller, id);
      const conf = parseConf(row.confDashboard);
      const cards = conf.dashboard;
      if (typeof cards !== 'object' || cards === null || !Object.prototype.hasOwnProperty.call(cards, key))
        throw notFound();
      const { [key]: _removed, ...rest } = cards as Record<string, unknown>;
      conf.dashboard = rest;
      db.update(dashboards)
        .set({ confDashboard: JSON.stringify(conf), updatedAt: now() })
        .where(eq(dashboards.id, row.id))
        .run();
      changed();
      return { id: row.id, path: row.path };
    },

    /** A dashboard for viewing: within the caller's grants, else 403. */
    view(caller: Caller, id: number): DashboardRecord {
      return present(granted(caller, id));
    },
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;
