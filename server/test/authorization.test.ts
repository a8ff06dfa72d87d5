// Authorisation on the server: every member call declares what a role must grant, and an application user with a
// narrow role is refused (403, -13) outside it, whatever the menu shows (spec 01 sections 2 "Menus", 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allCalls,
  appsContract,
  credentialsContract,
  navsContract,
  refreshTokenContract,
  rolesContract,
  T,
  usersContract,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantWithApp } from './fixtures.js';

/** Member calls every principal of the application may make: their own menu and their own refresh token. */
const NO_ACCESS_NEEDED = new Set([
  appsContract.menu.path,
  refreshTokenContract.get.path,
  refreshTokenContract.gen.path,
]);

describe('the route table', () => {
  it('declares `access` on every member call except the short allow-list', () => {
    const missing = allCalls()
      .filter((c) => c.audience === 'member' && !c.access && !NO_ACCESS_NEEDED.has(c.path))
      .map((c) => `${c.method} ${c.path}`);
    expect(missing).toEqual([]);
  });
  it('keeps the allow-list honest: every entry is a member call without access', () => {
    for (const path of NO_ACCESS_NEEDED) {
      const def = allCalls().find((c) => c.path === path);
      expect(def?.audience).toBe('member');
      expect(def?.access).toBeUndefined();
    }
  });
});

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

describe('an application user with a narrow role', () => {
  it('answers 403 -13 on user, role and credentials calls to a role granting only _device_list_', async () => {
    const owner = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const auth = { member: m.member, domain: m.domain };
    const refused: [unknown, Record<string, unknown>][] = [
      [usersContract.list, {}],
      [usersContract.get, { id: m.userId }],
      [
        usersContract.add,
        {
          username: 'baru1234',
          first: 'Baru',
          email: 'baru@contoh.id',
          pass: 'abcd1234',
          passv: 'abcd1234',
          role_id: m.roleId,
        },
      ],
      [usersContract.edit, { id: m.userId, first: 'Rinaa', email: 'x@contoh.id', role_id: m.roleId }],
      [usersContract.changePassword, { id: m.userId, passn: 'baru1234' }],
      [usersContract.remove, { id: m.userId }],
      [rolesContract.list, {}],
      [rolesContract.get, { id: m.roleId }],
      [rolesContract.add, { name: 'admin' }],
      [rolesContract.edit, { id: m.roleId, name: 'admin', sys_navs: ['_role_manage_'] }],
      [rolesContract.remove, { id: m.roleId }],
      [navsContract.list, {}],
      [navsContract.detail, {}],
      [credentialsContract.list, {}],
      [credentialsContract.create, { credentials_id: 'x', scopes: {}, details: {} }],
    ];
    for (const [def, input] of refused) {
      const r = await call(gw.url, def as typeof usersContract.list, input, auth);
      expect({ path: (def as { path: string }).path, status: r.status, code: r.body.response_result }).toEqual({
        path: (def as { path: string }).path,
        status: 403,
        code: -13,
      });
      expect(r.body.message).toBe(T.common.forbidden);
    }
    // what needs nothing still works
    expect((await call(gw.url, appsContract.menu, {}, auth)).body).toMatchObject({
      response_result: 0,
      navs_root: ['_device_list_'],
    });
    expect((await call(gw.url, refreshTokenContract.get, {}, auth)).body.response_result).toBe(0);
  });

  it('lets _user_manage_ manage users and read the role list, but not roles', async () => {
    const owner = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, owner, { sys_navs: ['_user_manage_'] });
    const auth = { member: m.member, domain: m.domain };
    expect((await call(gw.url, usersContract.list, {}, auth)).status).toBe(200);
    expect((await call(gw.url, rolesContract.list, {}, auth)).status).toBe(200);
    expect((await call(gw.url, rolesContract.get, { id: m.roleId }, auth)).status).toBe(403);
    expect((await call(gw.url, rolesContract.add, { name: 'lain' }, auth)).status).toBe(403);
  });

  it('lets _role_manage_ manage roles and users too', async () => {
    const owner = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, owner, { sys_navs: ['_role_manage_'] });
    const auth = { member: m.member, domain: m.domain };
    expect((await call(gw.url, rolesContract.get, { id: m.roleId }, auth)).status).toBe(200);
    expect((await call(gw.url, usersContract.list, {}, auth)).status).toBe(200);
    expect((await call(gw.url, navsContract.list, {}, auth)).status).toBe(200);
  });

  it('answers 403 when a member would grant more than their own role (no escalation)', async () => {
    const owner = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, owner, { sys_navs: ['_role_manage_'] });
    const auth = { member: m.member, domain: m.domain };
    const bigger = await call(gw.url, rolesContract.add, { name: 'pengelola', sys_navs: ['_device_manage_'] }, auth);
    expect(bigger.status).toBe(403);
    const withPermission = await call(
      gw.url,
      rolesContract.add,
      { name: 'pengelola', permissions: { task_manage: true } },
      auth,
    );
    expect(withPermission.status).toBe(403);
    const same = await call(gw.url, rolesContract.add, { name: 'pembantu', sys_navs: ['_user_manage_'] }, auth);
    expect(same.body.response_result).toBe(0);
    // a role above the member's own cannot be handed to a user either
    const admin = await call(
      gw.url,
      rolesContract.add,
      { name: 'admin', sys_navs: ['_device_manage_'] },
      { tenant: owner.tenant, domain: owner.domain },
    );
    const give = await call(
      gw.url,
      usersContract.edit,
      { id: m.userId, first: 'Rina', email: 'rina@contoh.id', role_id: admin.body.data.id },
      auth,
    );
    expect(give.status).toBe(403);
  });

  it('applies a role change on the next call', async () => {
    const owner = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, owner, { sys_navs: ['_task_list_'] });
    const auth = { member: m.member, domain: m.domain };
    expect((await call(gw.url, usersContract.list, {}, auth)).status).toBe(403);
    const tenant = { tenant: owner.tenant, domain: owner.domain };
    await call(gw.url, rolesContract.edit, { id: m.roleId, name: 'pengguna', sys_navs: ['_user_manage_'] }, tenant);
    expect((await call(gw.url, usersContract.list, {}, auth)).status).toBe(200);
  });
});
