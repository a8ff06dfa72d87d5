// The dashboards' store on both engines: rows scoped to their application, the tree by (sort, id), adds that pick a
// free path and go last among their siblings, edits that move and rename, removal that moves children up and takes
// the roles' grants of it along (foreign key), and a taken path refused by the unique index as the service expects it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import type { AppStore } from '../../db.js';
import { applications } from '../apps/apps.table.js';
import { tenants } from '../auth/auth.table.js';
import { roleNavs, roles } from '../roles/roles.table.js';
import { dashboards } from './dashboards.table.js';
import { createDashboardsStore, isUniqueViolation, type DashboardsStore } from './dashboards.store.js';

/** a tenant with two applications: the dashboards' own and another one */
async function seedApps(store: AppStore): Promise<{ app: number; other: number }> {
  const [t] = await store.db
    .insert(tenants)
    .values({
      username: 'budi',
      first: 'Budi',
      email: 'budi@x.id',
      passHash: 'x',
      tenantName: 'PT Budi',
      billingExpiresAt: 0,
      createdAt: 0,
    })
    .returning({ id: tenants.id });
  const app = async (domain: string) =>
    (
      await store.db
        .insert(applications)
        .values({ tenantId: t!.id, name: domain, domain, createdAt: 0 })
        .returning({ id: applications.id })
    )[0]!.id;
  return { app: await app('kebun'), other: await app('pabrik') };
}

/** the first of base, base-2, … not taken (paths.ts's rule, without the reserved words) */
const free = (base: string) => (taken: ReadonlySet<string>) => {
  let p = base;
  for (let n = 2; taken.has(p); n++) p = `${base}-${n}`;
  return p;
};

forEachEngine('dashboards store', (open) => {
  let opened: OpenedStore;
  let s: DashboardsStore;
  let app: number;
  let other: number;
  const add = (appId: number, label: string, parentId: number | null = null) =>
    s.add({ appId, label, description: '', parentId, confDashboard: '{}', now: 5, path: free(label.toLowerCase()) });

  beforeAll(async () => {
    opened = await open();
    s = createDashboardsStore(opened.store);
    ({ app, other } = await seedApps(opened.store));
  });
  afterAll(() => opened.close());

  it('adds dashboards with a free path, each last among its siblings, and reads them back in their application only', async () => {
    const gedung = await add(app, 'Gedung');
    const gedung2 = await add(app, 'Gedung');
    expect([gedung.path, gedung2.path]).toEqual(['gedung', 'gedung-2']);
    // another application has its own paths
    expect((await add(other, 'Gedung')).path).toBe('gedung');
    const lantai = await add(app, 'Lantai', gedung.id);
    const pompa = await add(app, 'Pompa', gedung.id);
    const row = await s.byId(app, pompa.id);
    expect(row).toMatchObject({ appId: app, label: 'Pompa', parentId: gedung.id, sort: 1, path: 'pompa' });
    expect((await s.byId(app, lantai.id))!.sort).toBe(0);
    expect((await s.byId(app, gedung2.id))!.sort).toBe(1);
    expect(await s.byId(other, pompa.id)).toBeUndefined();
    expect(await s.confText(app, pompa.id)).toBe('{}');
    expect(await s.confText(other, pompa.id)).toBeUndefined();
  });

  it('lists the tree by (sort, id) and the paths taken but one', async () => {
    const rows = await s.navRows(app);
    expect(rows.map((r) => [r.label, r.sort])).toEqual([
      ['Gedung', 0],
      ['Lantai', 0],
      ['Gedung', 1],
      ['Pompa', 1],
    ]);
    expect(rows[0]).toEqual({ id: rows[0]!.id, label: 'Gedung', path: 'gedung', parent: null, sort: 0 });
    expect([...(await s.paths(app))].sort()).toEqual(['gedung', 'gedung-2', 'lantai', 'pompa']);
    expect([...(await s.paths(app, rows[0]!.id))].sort()).toEqual(['gedung-2', 'lantai', 'pompa']);
    expect(await s.navRows(app + other + 1)).toEqual([]);
  });

  it('edits: a new path picked without its own, a move to the end of another parent, nothing outside the application', async () => {
    const [gedung, lantai, gedung2] = await s.navRows(app);
    // renamed to what it is already called: keeps its path; to a taken one: the next free
    expect(await s.update(app, gedung!.id, { label: 'Gedung' }, { path: free('gedung') })).toEqual({
      id: gedung!.id,
      path: 'gedung',
    });
    expect(await s.update(app, lantai!.id, { label: 'Gedung' }, { path: free('gedung') })).toEqual({
      id: lantai!.id,
      path: 'gedung-3',
    });
    await s.update(app, lantai!.id, { confDashboard: '{"dashboard":{}}', updatedAt: 9 }, { parent: gedung2!.id });
    expect(await s.byId(app, lantai!.id)).toMatchObject({
      parentId: gedung2!.id,
      sort: 0,
      confDashboard: '{"dashboard":{}}',
      updatedAt: 9,
    });
    await s.update(app, lantai!.id, {}, { parent: null });
    expect(await s.byId(app, lantai!.id)).toMatchObject({ parentId: null, sort: 2 });
    expect(await s.update(other, lantai!.id, { label: 'x' })).toBeUndefined();
    expect((await s.byId(app, lantai!.id))!.label).toBe('Gedung');
  });

  it("removes a dashboard: its children move up to its parent, roles' grants of it go with it", async () => {
    const root = await add(app, 'Pabrik');
    const mid = await add(app, 'Mesin', root.id);
    const leaf = await add(app, 'Motor', mid.id);
    const [role] = await opened.store.db
      .insert(roles)
      .values({ appId: app, name: 'operator', createdAt: 0, updatedAt: 0 })
      .returning({ id: roles.id });
    await opened.store.db.insert(roleNavs).values([
      { roleId: role!.id, dashboardId: mid.id, sort: 0 },
      { roleId: role!.id, dashboardId: leaf.id, sort: 1 },
    ]);
    // another application's id removes nothing
    await s.remove(other, mid.id, root.id, 7);
    expect(await s.byId(app, mid.id)).toBeDefined();
    await s.remove(app, mid.id, root.id, 7);
    expect(await s.byId(app, mid.id)).toBeUndefined();
    expect(await s.byId(app, leaf.id)).toMatchObject({ parentId: root.id, updatedAt: 7 });
    const navs = await opened.store.db
      .select({ id: roleNavs.dashboardId })
      .from(roleNavs)
      .where(eq(roleNavs.roleId, role!.id));
    expect(navs).toEqual([{ id: leaf.id }]);
  });

  it('adds twelve dashboards of one label at once, each at a path of its own (the paths are locked per application)', async () => {
    const added = await Promise.all(Array.from({ length: 12 }, () => add(other, 'Serentak')));
    const paths = added.map((r) => r.path);
    expect(new Set(paths).size).toBe(12);
    expect(paths).toContain('serentak');
  });

  it('refuses a taken path with a unique violation the service retries on, and rolls the add back', async () => {
    const before = (await s.navRows(app)).length;
    const err = await add(app, 'Gedung')
      .then(() =>
        s.add({
          appId: app,
          label: 'x',
          description: '',
          parentId: null,
          confDashboard: '{}',
          now: 1,
          path: () => 'pompa',
        }),
      )
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect((await s.navRows(app)).length).toBe(before + 1);
    expect(isUniqueViolation(new Error('no'))).toBe(false);
    // a row the same column values but in another application is no conflict
    await opened.store.db.insert(dashboards).values({ appId: other, label: 'p', path: 'pompa', createdAt: 0 });
  });
});

describe('isUniqueViolation', () => {
  it("reads the driver's code through drizzle's wrapping", () => {
    expect(isUniqueViolation({ message: 'x', cause: { code: 'SQLITE_CONSTRAINT_UNIQUE' } })).toBe(true);
    expect(isUniqueViolation({ cause: { code: '23505' } })).toBe(true);
    expect(isUniqueViolation({ cause: { code: '23503' } })).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
