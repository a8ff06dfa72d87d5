// Roles and navigation: list (search), add, get, edit (info / access), remove (-21), nav/list, nav/list/detail and the
// role-based menu (spec 01 sections 2 "Roles" and "Menus", 3, 4, 5 "Role", 7, 8 "Roles").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsContract, navsContract, rolesContract, SYS_NAVS, T, usersContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantWithApp } from './fixtures.js';
import { dashboards } from '../src/modules/dashboards/dashboards.table.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
const as = (o: Owner) => ({ tenant: o.tenant, domain: o.domain });

/** Inserts dashboards (navigation items) straight into the table, as the dashboards issue will create them. */
async function dashboard(appId: number, label: string, parentId: number | null = null, sort = 0) {
  const [row] = await gw.app.store.db
    .insert(dashboards)
    .values({ appId, label, path: label.toLowerCase().replace(/\W+/g, '_'), parentId, sort, createdAt: Date.now() })
    .returning({ id: dashboards.id });
  return row!.id;
}

/** Listrik (Gedung A (Lantai 1), Gedung B), Air: a small navigation tree. */
async function tree(appId: number) {
  const listrik = await dashboard(appId, 'Listrik', null, 1);
  const air = await dashboard(appId, 'Air', null, 2);
  const gedungA = await dashboard(appId, 'Gedung A', listrik, 1);
  const gedungB = await dashboard(appId, 'Gedung B', listrik, 2);
  const lantai1 = await dashboard(appId, 'Lantai 1', gedungA, 1);
  return { listrik, air, gedungA, gedungB, lantai1 };
}

describe('POST /service/web/application/account/role/add', () => {
  it('adds a role with its system navigation, permissions and dashboards in order', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const r = await call(
      gw.url,
      rolesContract.add,
      {
        name: 'Operator_1',
        description: 'Operator lapangan',
        permissions: { task_manage: true },
        descendant: false,
        navs: [n.air, n.listrik],
        sys_navs: ['_device_list_', '_task_list_'],
      },
      as(o),
    );
    expect(r.status).toBe(200);
    expect(r.body.response_result).toBe(0);
    expect(r.body.data).toMatchObject({
      name: 'Operator_1',
      description: 'Operator lapangan',
      permissions: { task_manage: true },
      descendant: false,
      direct: true,
      navs: [n.air, n.listrik],
      user_count: 0,
    });
    expect(r.body.data.navsObj.map((x: { label: string }) => x.label)).toEqual(['Air', 'Listrik']);
    expect(r.body.data.sys_navs).toHaveLength(SYS_NAVS.length);
    expect(
      r.body.data.sys_navs.filter((s: { checked: boolean }) => s.checked).map((s: { id: string }) => s.id),
    ).toEqual(['_device_list_', '_task_list_']);
  });
  it('defaults permissions to {} and accepts them as JSON text', async () => {
    const o = await tenantWithApp(gw.url);
    expect((await call(gw.url, rolesContract.add, { name: 'viewer' }, as(o))).body.data.permissions).toEqual({});
    expect(
      (await call(gw.url, rolesContract.add, { name: 'viewer2', permissions: '{"task_manage":true}' }, as(o))).body.data
        .permissions,
    ).toEqual({ task_manage: true });
  });
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['one character', 'a'],
    ['longer than 30', 'a'.repeat(31)],
    ['starting with an underscore', '_admin'],
    ['with a space', 'admin lokal'],
    ['with a dash', 'admin-lokal'],
  ])('answers -10 when the name is %s', async (_l, name) => {
    const o = await tenantWithApp(gw.url);
    const r = await call(gw.url, rolesContract.add, { name }, as(o));
    expect(r.status).toBe(400);
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0].path).toBe('name');
  });
  it('accepts a name of 30 characters starting with a digit', async () => {
    const o = await tenantWithApp(gw.url);
    expect((await call(gw.url, rolesContract.add, { name: `1${'a'.repeat(29)}` }, as(o))).body.response_result).toBe(0);
  });
  it.each([
    ['text that is not JSON', '{tidak json'],
    ['a JSON array', [1, 2]],
    ['a number', 5],
  ])('answers -10 "Invalid JSON for `Permissions`" when permissions is %s', async (_l, permissions) => {
    const o = await tenantWithApp(gw.url);
    const r = await call(gw.url, rolesContract.add, { name: 'admin', permissions }, as(o));
    expect(r.body).toMatchObject({ response_result: -10 });
    expect(r.body.errors[0]).toEqual({ path: 'permissions', message: T.roles.invalidPermissions });
  });
  it('answers -10 for an unknown system navigation key', async () => {
    const o = await tenantWithApp(gw.url);
    expect(
      (await call(gw.url, rolesContract.add, { name: 'admin', sys_navs: ['_semua_'] }, as(o))).body.response_result,
    ).toBe(-10);
  });
  it('answers -12 when the name is taken in the application (case-insensitive), not in another one', async () => {
    const o = await tenantWithApp(gw.url);
    await call(gw.url, rolesContract.add, { name: 'admin' }, as(o));
    const r = await call(gw.url, rolesContract.add, { name: 'Admin' }, as(o));
    expect(r.body).toMatchObject({ response_result: -12, message: T.roles.nameTaken });
    const other = await tenantWithApp(gw.url);
    expect((await call(gw.url, rolesContract.add, { name: 'admin' }, as(other))).body.response_result).toBe(0);
  });
  it('answers 404 for a dashboard of another application', async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await dashboard(other.appId, 'Rahasia');
    expect((await call(gw.url, rolesContract.add, { name: 'admin', navs: [foreign] }, as(o))).status).toBe(404);
    expect((await call(gw.url, rolesContract.add, { name: 'admin', navs: [999999] }, as(o))).status).toBe(404);
  });
  it('answers 401 without credentials', async () => {
    const o = await tenantWithApp(gw.url);
    expect((await call(gw.url, rolesContract.add, { name: 'admin' }, { domain: o.domain })).status).toBe(401);
  });
});

describe('GET /service/web/application/account/role/list', () => {
  it('lists the roles with their user count, and filters by a case-insensitive substring of the name', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_device_list_'] });
    await call(gw.url, rolesContract.add, { name: 'Teknisi_Listrik' }, as(o));
    const all = await call(gw.url, rolesContract.list, {}, as(o));
    expect(all.body.data).toHaveLength(2);
    expect(all.body.data.find((r: { id: number }) => r.id === m.roleId).user_count).toBe(1);
    const found = await call(gw.url, rolesContract.list, { name: 'listrik' }, as(o));
    expect(found.body.data.map((r: { name: string }) => r.name)).toEqual(['Teknisi_Listrik']);
  });
  it('answers 401 without credentials and shows nothing of another application', async () => {
    const o = await tenantWithApp(gw.url);
    await call(gw.url, rolesContract.add, { name: 'admin' }, as(o));
    expect((await call(gw.url, rolesContract.list, {}, { domain: o.domain })).status).toBe(401);
    const other = await tenantWithApp(gw.url);
    expect((await call(gw.url, rolesContract.list, {}, as(other))).body.data).toEqual([]);
  });
});

describe('GET /service/web/application/account/role/get/id/{id}', () => {
  it('answers the role, its sys_navs choices with labels, the navigation tree and the menu it gives', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const add = await call(
      gw.url,
      rolesContract.add,
      { name: 'admin', navs: [n.listrik, n.lantai1], sys_navs: ['_role_manage_'] },
      as(o),
    );
    const r = await call(gw.url, rolesContract.get, { id: add.body.data.id }, as(o));
    expect(r.body.response_result).toBe(0);
    expect(r.body.data.sys_navs).toContainEqual({
      id: '_role_manage_',
      label: T.roles.sysNavLabels._role_manage_,
      checked: true,
    });
    expect(r.body.data.sys_navs).toContainEqual({
      id: '_user_manage_',
      label: T.roles.sysNavLabels._user_manage_,
      checked: false,
    });
    expect(r.body.data.navs_root_obj.map((e: { label: string }) => e.label)).toEqual(['Listrik', 'Air']);
    // not descendant: only the picked items, Lantai 1 under its nearest picked ancestor
    expect(r.body.data.navs_root).toEqual([
      {
        id: n.listrik,
        path: 'listrik',
        label: 'Listrik',
        children: [{ id: n.lantai1, path: 'lantai_1', label: 'Lantai 1', children: [] }],
      },
    ]);
  });
  it("answers 404 for another application's role and -10 for a non-numeric id", async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await call(gw.url, rolesContract.add, { name: 'admin' }, as(other));
    expect((await call(gw.url, rolesContract.get, { id: foreign.body.data.id }, as(o))).status).toBe(404);
    expect((await call(gw.url, rolesContract.get, { id: 'abc' }, as(o))).body.response_result).toBe(-10);
  });
});

describe('POST /service/web/application/account/role/edit', () => {
  it('edits the info form (name, description, sys_navs, permissions) and keeps the dashboards', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const add = await call(gw.url, rolesContract.add, { name: 'admin', navs: [n.air] }, as(o));
    const r = await call(
      gw.url,
      rolesContract.edit,
      {
        id: add.body.data.id,
        name: 'supervisor',
        description: 'Pengawas',
        permissions: '{"task_manage": true}',
        sys_navs: [
          { id: '_task_list_', label: 'Tugas', checked: true },
          { id: '_user_manage_', label: 'x', checked: false },
        ],
      },
      as(o),
    );
    expect(r.body.data).toMatchObject({
      name: 'supervisor',
      description: 'Pengawas',
      permissions: { task_manage: true },
      navs: [n.air],
    });
    expect(
      r.body.data.sys_navs.filter((s: { checked: boolean }) => s.checked).map((s: { id: string }) => s.id),
    ).toEqual(['_task_list_']);
  });
  it('edits the access form (descendant, navs in their new order) and keeps the info', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const add = await call(
      gw.url,
      rolesContract.add,
      { name: 'admin', sys_navs: ['_task_list_'], navs: [n.listrik] },
      as(o),
    );
    const r = await call(
      gw.url,
      rolesContract.edit,
      { id: add.body.data.id, descendant: true, navs: [n.air, n.gedungA] },
      as(o),
    );
    expect(r.body.data).toMatchObject({ name: 'admin', descendant: true, direct: false, navs: [n.air, n.gedungA] });
    expect(r.body.data.sys_navs.find((s: { id: string }) => s.id === '_task_list_').checked).toBe(true);
  });
  it('answers -10 when neither form is sent, and for a bad name or permissions', async () => {
    const o = await tenantWithApp(gw.url);
    const add = await call(gw.url, rolesContract.add, { name: 'admin' }, as(o));
    const id = add.body.data.id;
    expect((await call(gw.url, rolesContract.edit, { id }, as(o))).body.response_result).toBe(-10);
    expect((await call(gw.url, rolesContract.edit, { id, name: '_x' }, as(o))).body.response_result).toBe(-10);
    const bad = await call(gw.url, rolesContract.edit, { id, name: 'admin', permissions: 'bukan json' }, as(o));
    expect(bad.body.errors[0].message).toBe(T.roles.invalidPermissions);
  });
  it('answers -12 when renamed to another role of the application', async () => {
    const o = await tenantWithApp(gw.url);
    await call(gw.url, rolesContract.add, { name: 'admin' }, as(o));
    const b = await call(gw.url, rolesContract.add, { name: 'teknisi' }, as(o));
    expect(
      (await call(gw.url, rolesContract.edit, { id: b.body.data.id, name: 'admin' }, as(o))).body.response_result,
    ).toBe(-12);
    expect(
      (await call(gw.url, rolesContract.edit, { id: b.body.data.id, name: 'teknisi', description: 'sama' }, as(o))).body
        .response_result,
    ).toBe(0);
  });
  it("answers 404 for another application's role", async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await call(gw.url, rolesContract.add, { name: 'admin' }, as(other));
    expect((await call(gw.url, rolesContract.edit, { id: foreign.body.data.id, name: 'curian' }, as(o))).status).toBe(
      404,
    );
  });
});

describe('POST /service/web/application/account/role/remove', () => {
  it('answers -21 "Hapus role gagal, masih terikat dengan user" while a user holds the role, and removes it after', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const bound = await call(gw.url, rolesContract.remove, { id: m.roleId }, as(o));
    expect(bound.status).toBe(400);
    expect(bound.body).toMatchObject({ response_result: -21, message: T.roles.deleteBound });
    await call(gw.url, usersContract.remove, { id: m.userId }, as(o));
    expect((await call(gw.url, rolesContract.remove, { id: m.roleId }, as(o))).body.response_result).toBe(0);
    expect((await call(gw.url, rolesContract.get, { id: m.roleId }, as(o))).status).toBe(404);
  });
  it("answers 404 for another application's role and 401 without credentials", async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await call(gw.url, rolesContract.add, { name: 'admin' }, as(other));
    expect((await call(gw.url, rolesContract.remove, { id: foreign.body.data.id }, as(o))).status).toBe(404);
    expect(
      (await call(gw.url, rolesContract.remove, { id: foreign.body.data.id }, { domain: other.domain })).status,
    ).toBe(401);
    expect((await call(gw.url, rolesContract.get, { id: foreign.body.data.id }, as(other))).status).toBe(200);
  });
});

describe('GET /service/web/application/nav/list and nav/list/detail', () => {
  it('answer the dashboards flat (parents first) and as a tree', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const list = await call(gw.url, navsContract.list, {}, as(o));
    expect(list.body.navs.map((x: { id: number }) => x.id)).toEqual([
      n.listrik,
      n.gedungA,
      n.lantai1,
      n.gedungB,
      n.air,
    ]);
    expect(list.body.navs[1]).toMatchObject({ label: 'Gedung A', path: 'gedung_a', parent: n.listrik });
    const detail = await call(gw.url, navsContract.detail, {}, as(o));
    expect(detail.body.navs_root_obj[0]).toMatchObject({
      id: n.listrik,
      children: [{ id: n.gedungA, children: [{ id: n.lantai1 }] }, { id: n.gedungB }],
    });
  });
  it('answer 401 without credentials and nothing of another application', async () => {
    const o = await tenantWithApp(gw.url);
    tree(o.appId);
    expect((await call(gw.url, navsContract.list, {}, { domain: o.domain })).status).toBe(401);
    const other = await tenantWithApp(gw.url);
    expect((await call(gw.url, navsContract.detail, {}, as(other))).body).toMatchObject({
      navs: [],
      navs_root_obj: [],
    });
  });
});

describe('GET /service/web/application/nav/list/role', () => {
  it('gives a tenant every dashboard as a tree', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const r = await call(gw.url, appsContract.menu, {}, as(o));
    expect(r.body.navs.map((e: { id: number }) => e.id)).toEqual([n.listrik, n.air]);
    expect(r.body.navs[0].children.map((e: { id: number }) => e.id)).toEqual([n.gedungA, n.gedungB]);
  });
  it("gives a user their role's dashboards in the role's order, without children unless descendant", async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_device_list_', '_task_list_'], navs: [n.air, n.gedungA] });
    const r = await call(gw.url, appsContract.menu, {}, { member: m.member, domain: m.domain });
    expect(r.body).toMatchObject({
      response_result: 0,
      app_name: `Aplikasi ${o.domain}`,
      navs_root: ['_device_list_', '_task_list_'],
    });
    expect(r.body.navs).toEqual([
      { id: n.air, path: 'air', label: 'Air', children: [] },
      { id: n.gedungA, path: 'gedung_a', label: 'Gedung A', children: [] },
    ]);
  });
  it('includes all children when the role is descendant', async () => {
    const o = await tenantWithApp(gw.url);
    const n = await tree(o.appId);
    const m = await memberWithRole(gw.url, o, { navs: [n.listrik, n.lantai1], descendant: true });
    const r = await call(gw.url, appsContract.menu, {}, { member: m.member, domain: m.domain });
    // Lantai 1 is inside Listrik already: it is not repeated at the top
    expect(r.body.navs).toHaveLength(1);
    expect(r.body.navs[0]).toMatchObject({
      id: n.listrik,
      children: [{ id: n.gedungA, children: [{ id: n.lantai1 }] }, { id: n.gedungB }],
    });
  });
  it('gives _role_manage_ the user entry too', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_role_manage_'] });
    const r = await call(gw.url, appsContract.menu, {}, { member: m.member, domain: m.domain });
    expect(r.body.navs_root).toEqual(['_role_manage_', '_user_manage_']);
  });
});
