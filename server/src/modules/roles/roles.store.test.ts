// The roles store on both engines: roles of an application with their dashboards in menu order, names compared
// without regard to case, one transaction per change, and the cascades the roles rely on. Also the dashboards
// domain's read the roles service asks for (the navigation items a role selects from).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { dashboards } from '../dashboards/dashboards.table.js';
import { navItemsOf } from '../dashboards/dashboards.store.js';
import { createRolesStore, type RolesStore } from './roles.store.js';

forEachEngine('roles store', (open) => {
  let opened: OpenedStore;
  let roles: RolesStore;
  let appA: number;
  let appB: number;
  /** dashboards of appA: d[0] root, d[1] under d[0], d[2] root; e of appB */
  const d: number[] = [];
  let e: number;
  beforeAll(async () => {
    opened = await open();
    roles = createRolesStore(opened.store);
    const tenant = await addTenant(opened.store, 'budi');
    appA = await addApp(opened.store, tenant, 'pabrik');
    appB = await addApp(opened.store, tenant, 'gudang');
    const dash = async (appId: number, path: string, sort: number, parentId: number | null = null) =>
      (
        await opened.store.db
          .insert(dashboards)
          .values({ appId, label: path.toUpperCase(), path, sort, parentId, createdAt: 1 })
          .returning({ id: dashboards.id })
      )[0]!.id;
    d.push(await dash(appA, 'utama', 1));
    d.push(await dash(appA, 'panel', 0, d[0]));
    d.push(await dash(appA, 'akhir', 1));
    e = await dash(appB, 'lain', 0);
  });
  afterAll(() => opened.close());

  const info = (name: string) => ({
    name,
    description: null,
    permissions: '{"task_manage":true}',
    sysNavs: '["_device_list_"]',
    descendant: false,
  });

  it("reads an application's navigation items by (sort, id), a foreign parent as none", async () => {
    await opened.store.db.update(dashboards).set({ parentId: e }).where(eq(dashboards.id, d[2]!));
    expect(await navItemsOf(opened.store, appA)).toEqual([
      { id: d[1], label: 'PANEL', path: 'panel', parent: d[0], sort: 0 },
      { id: d[0], label: 'UTAMA', path: 'utama', parent: null, sort: 1 },
      { id: d[2], label: 'AKHIR', path: 'akhir', parent: null, sort: 1 },
    ]);
    expect(await navItemsOf(opened.store, -1)).toEqual([]);
  });

  it('creates a role with its dashboards in order; an exact name taken refuses it, all of it', async () => {
    expect(await roles.hasRoles(appA)).toBe(false);
    const id = await roles.create(appA, info('Operator'), [d[2]!, d[0]!], 5);
    expect(id).toEqual(expect.any(Number));
    expect(await roles.hasRoles(appA)).toBe(true);
    expect(await roles.byId(appA, id!)).toEqual({ id, appId: appA, ...info('Operator'), createdAt: 5, updatedAt: 5 });
    expect(await roles.byId(appB, id!)).toBeUndefined();
    expect(await roles.selectedNavs(id!)).toEqual([d[2], d[0]]);
    expect(await roles.grants(id!, appA)).toEqual({
      sysNavs: '["_device_list_"]',
      permissions: '{"task_manage":true}',
    });
    expect(await roles.grants(id!, appB)).toBeUndefined();
    expect(await roles.create(appA, info('Operator'), [d[1]!], 6)).toBeUndefined();
    // a dashboard that does not exist fails the selection: the role is not kept either
    await expect(roles.create(appA, info('Rusak'), [d[0]!, 999_999], 6)).rejects.toThrow();
    expect((await roles.list(appA)).map((r) => r.name)).toEqual(['Operator']);
  });

  it('finds a name without regard to case, and a typed % or _ only as itself', async () => {
    const teknisi = await roles.create(appA, info('Teknisi_A'), [], 7);
    expect(await roles.idByName(appA, 'operator')).toBe((await roles.list(appA))[0]!.id);
    expect(await roles.idByName(appA, 'TEKNISI_A')).toBe(teknisi);
    expect(await roles.idByName(appA, 'Teknisi%')).toBeUndefined();
    expect(await roles.idByName(appA, 'Teknisi_')).toBeUndefined();
    expect(await roles.idByName(appB, 'operator')).toBeUndefined();
    expect((await roles.list(appA)).map((r) => r.name)).toEqual(['Operator', 'Teknisi_A']);
    const names = await roles.namesOf([teknisi!, teknisi!, -1]);
    expect([...names]).toEqual([[teknisi, 'Teknisi_A']]);
    expect(await roles.namesOf([])).toEqual(new Map());
  });

  it('updates a role, replacing its selection only when given one', async () => {
    const [op] = await roles.list(appA);
    await roles.update(op!.id, { name: 'Operator Baru', descendant: true }, undefined, 9);
    expect(await roles.byId(appA, op!.id)).toMatchObject({ name: 'Operator Baru', descendant: true, updatedAt: 9 });
    expect(await roles.selectedNavs(op!.id)).toEqual([d[2], d[0]]);
    await roles.update(op!.id, {}, [d[1]!, d[2]!], 10);
    expect(await roles.selectedNavs(op!.id)).toEqual([d[1], d[2]]);
    await roles.update(op!.id, {}, [], 11);
    expect(await roles.selectedNavs(op!.id)).toEqual([]);
    // a failing selection leaves the role as it was
    await expect(roles.update(op!.id, { name: 'Tidak' }, [999_999], 12)).rejects.toThrow();
    expect(await roles.byId(appA, op!.id)).toMatchObject({ name: 'Operator Baru', updatedAt: 11 });
  });

  it("appends a dashboard at the end of a role's selection, once", async () => {
    const [op] = await roles.list(appA);
    await roles.appendNav(op!.id, d[2]!);
    await roles.appendNav(op!.id, d[0]!);
    await roles.appendNav(op!.id, d[2]!);
    expect(await roles.selectedNavs(op!.id)).toEqual([d[2], d[0]]);
  });

  it('removes a role with its selection; a removed dashboard leaves every selection', async () => {
    const [op, teknisi] = await roles.list(appA);
    await roles.update(teknisi!.id, {}, [d[2]!, d[1]!], 13);
    await opened.store.db.delete(dashboards).where(eq(dashboards.id, d[2]!));
    expect(await roles.selectedNavs(teknisi!.id)).toEqual([d[1]]);
    expect(await roles.selectedNavs(op!.id)).toEqual([d[0]]);
    await roles.remove(op!.id);
    expect(await roles.byId(appA, op!.id)).toBeUndefined();
    expect(await roles.selectedNavs(op!.id)).toEqual([]);
    expect((await roles.list(appA)).map((r) => r.id)).toEqual([teknisi!.id]);
  });
});
