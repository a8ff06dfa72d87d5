// The dashboards' persistence: their rows, the application's tree of them as navigation items, and the stored
// conf_dashboard text the views parse. The only code that reads or writes the dashboards table (besides its definition).
import { and, asc, eq, isNull, max, ne } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { lockKey, LockSpace } from '../../platform/db/key-lock.js';
import { dashboards } from './dashboards.table.js';
import { navItems, type NavItem } from './navigation.js';

export type DashboardRow = typeof dashboards.$inferSelect;

/** what a write of a dashboard answers */
export interface DashboardRef {
  id: number;
  path: string;
}

/** the columns an edit may change */
export type DashboardChanges = Partial<
  Pick<DashboardRow, 'label' | 'description' | 'path' | 'parentId' | 'sort' | 'confDashboard' | 'updatedAt'>
>;

/** a unique index refused the row (either engine) */
export { isUniqueViolation } from '../../platform/db/unique.js';

export function createDashboardsStore(store: AppStore) {
  const { db } = store;
  const ref = { id: dashboards.id, path: dashboards.path };

  /** the paths the application's dashboards hold, but `except`'s */
  async function paths(appId: number, except?: number): Promise<Set<string>> {
    // the path picked from these is still free at the commit: another add or rename of the application waits
    await lockKey(store, LockSpace.dashboardPaths, appId);
    const rows = await db
      .select({ path: dashboards.path })
      .from(dashboards)
      .where(and(eq(dashboards.appId, appId), except !== undefined ? ne(dashboards.id, except) : undefined));
    return new Set(rows.map((r) => r.path));
  }

  /** the sort after the last child of `parent` (a root for null) */
  async function nextSort(appId: number, parent: number | null): Promise<number> {
    const row = await db
      .select({ s: max(dashboards.sort) })
      .from(dashboards)
      .where(
        and(
          eq(dashboards.appId, appId),
          parent === null ? isNull(dashboards.parentId) : eq(dashboards.parentId, parent),
        ),
      )
      .get();
    return (row?.s ?? -1) + 1;
  }

  return {
    /** the dashboard `id` of the application, undefined outside it */
    byId(appId: number, id: number): Promise<DashboardRow | undefined> {
      return db
        .select()
        .from(dashboards)
        .where(and(eq(dashboards.appId, appId), eq(dashboards.id, id)))
        .get();
    },

    /** the stored conf_dashboard text of dashboard `id` of the application (the views' read, on a cache miss) */
    async confText(appId: number, id: number): Promise<string | undefined> {
      const row = await db
        .select({ conf: dashboards.confDashboard })
        .from(dashboards)
        .where(and(eq(dashboards.appId, appId), eq(dashboards.id, id)))
        .get();
      return row?.conf;
    },

    /** every dashboard of the application as a navigation item row, by (sort, id); parents as stored */
    navRows(appId: number): Promise<NavItem[]> {
      return db
        .select({
          id: dashboards.id,
          label: dashboards.label,
          path: dashboards.path,
          parent: dashboards.parentId,
          sort: dashboards.sort,
        })
        .from(dashboards)
        .where(eq(dashboards.appId, appId))
        .orderBy(asc(dashboards.sort), asc(dashboards.id));
    },

    paths,

    /**
     * Adds a dashboard at the end of its parent's children. `path` picks a free path from those taken, read in the
     * same transaction, the application's paths locked (key-lock.ts) so that two adds never pick the same one.
     */
    add(row: {
      appId: number;
      label: string;
      description: string;
      parentId: number | null;
      confDashboard: string;
      now: number;
      path: (taken: ReadonlySet<string>) => string;
    }): Promise<DashboardRef> {
      return store.tx(async () => {
        const [added] = await db
          .insert(dashboards)
          .values({
            appId: row.appId,
            label: row.label,
            description: row.description,
            path: row.path(await paths(row.appId)),
            parentId: row.parentId,
            sort: await nextSort(row.appId, row.parentId),
            confDashboard: row.confDashboard,
            createdAt: row.now,
            updatedAt: row.now,
          })
          .returning(ref);
        return added!;
      });
    },

    /**
     * Changes dashboard `id` of the application: `path` picks a new free path (a new label), `parent` moves it to the
     * end of that parent's children. Undefined when it is gone.
     */
    update(
      appId: number,
      id: number,
      changes: DashboardChanges,
      move: { path?: (taken: ReadonlySet<string>) => string; parent?: number | null } = {},
    ): Promise<DashboardRef | undefined> {
      return store.tx(async () => {
        const set: DashboardChanges = { ...changes };
        if (move.path) set.path = move.path(await paths(appId, id));
        if (move.parent !== undefined) {
          set.parentId = move.parent;
          set.sort = await nextSort(appId, move.parent);
        }
        const [row] = await db
          .update(dashboards)
          .set(set)
          .where(and(eq(dashboards.appId, appId), eq(dashboards.id, id)))
          .returning(ref);
        return row;
      });
    },

    /** removes dashboard `id` of the application; its children move up to `parentId` (its own parent) */
    remove(appId: number, id: number, parentId: number | null, now: number): Promise<void> {
      return store.tx(async () => {
        await db
          .update(dashboards)
          .set({ parentId, updatedAt: now })
          .where(and(eq(dashboards.appId, appId), eq(dashboards.parentId, id)));
        await db.delete(dashboards).where(and(eq(dashboards.appId, appId), eq(dashboards.id, id)));
      });
    },
  };
}

export type DashboardsStore = ReturnType<typeof createDashboardsStore>;

/**
 * For the roles domain (the dashboards a role selects from): every navigation item of the application, by (sort, id);
 * a parent outside the application counts as none.
 */
export function navItemsOf(store: AppStore, appId: number): Promise<NavItem[]> {
  return navItems(createDashboardsStore(store), appId);
}

// ---- a dashboard made for a device (devices' "Generate Dashboard") ----

/**
 * A new root dashboard of the application, last among the roots, at the path `pathFor` chooses given the paths the
 * application has (one transaction: the path and the place are still free when it is written).
 */
export async function addRootDashboard(
  store: AppStore,
  input: {
    appId: number;
    label: string;
    pathFor: (taken: (path: string) => boolean) => string;
    confDashboard: string;
    createdAt: number;
  },
): Promise<{ id: number; label: string; path: string }> {
  const { db } = store;
  return store.tx(async () => {
    await lockKey(store, LockSpace.dashboardPaths, input.appId);
    const paths = await db.select({ path: dashboards.path }).from(dashboards).where(eq(dashboards.appId, input.appId));
    const taken = new Set(paths.map((p) => p.path));
    const last = await db
      .select({ s: max(dashboards.sort) })
      .from(dashboards)
      .where(and(eq(dashboards.appId, input.appId), isNull(dashboards.parentId)))
      .get();
    const [row] = await db
      .insert(dashboards)
      .values({
        appId: input.appId,
        label: input.label,
        path: input.pathFor((p) => taken.has(p)),
        parentId: null,
        sort: (last?.s ?? -1) + 1,
        confDashboard: input.confDashboard,
        createdAt: input.createdAt,
      })
      .returning({ id: dashboards.id, label: dashboards.label, path: dashboards.path });
    return row!;
  });
}
