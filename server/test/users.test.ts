// Application user accounts: list, add (-3/-4, no role), get, edit, remove, password change (spec 01 sections 2
// "Users", 4, 5 "User add" / "User edit" / "Password change", 7, 8 "Users").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsContract, authContract, rolesContract, T, usersContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantWithApp, unique } from './fixtures.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
const as = (o: Owner) => ({ tenant: o.tenant, domain: o.domain });

async function appWithRole() {
  const o = await tenantWithApp(gw.url);
  const role = await call(gw.url, rolesContract.add, { name: 'operator', sys_navs: ['_device_list_'] }, as(o));
  return { ...o, roleId: role.body.data.id as number };
}

const newUser = (roleId: number, over: Record<string, unknown> = {}) => {
  const username = unique('andi');
  return {
    username,
    first: 'Andi',
    last: 'Wijaya',
    email: `${username}@contoh.id`,
    pass: 'rahasia1',
    passv: 'rahasia1',
    role_id: roleId,
    email_verification: false,
    ...over,
  };
};

describe('POST /service/web/application/account/manage/add', () => {
  it('adds a user who then appears in the list with the role name and can sign in', async () => {
    const o = await appWithRole();
    const input = newUser(o.roleId);
    const r = await call(gw.url, usersContract.add, input, as(o));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      response_result: 0,
      data: {
        username: input.username,
        first: 'Andi',
        last: 'Wijaya',
        email: input.email,
        role_id: o.roleId,
        role_name: 'operator',
      },
    });
    expect(r.body.data).not.toHaveProperty('pass');
    const list = await call(gw.url, usersContract.list, {}, as(o));
    expect(list.body.data.map((u: { id: number }) => u.id)).toEqual([r.body.data.id]);
    const login = await call(
      gw.url,
      authContract.appLogin,
      { input: input.username, pass: 'rahasia1' },
      { domain: o.domain },
    );
    expect(login.body).toMatchObject({ response_result: 0, id: r.body.data.id, name: 'Andi' });
  });
  it('accepts the bounds: username and first of 4 and 16, no last name, email of 4, pass of 8', async () => {
    const o = await appWithRole();
    for (const over of [
      { username: 'abcd', first: 'Abcd', last: undefined, pass: 'abcdefgh', passv: 'abcdefgh' },
      { username: 'b'.repeat(16), first: 'A'.repeat(16), last: '' },
    ]) {
      const r = await call(gw.url, usersContract.add, newUser(o.roleId, over), as(o));
      expect(r.body.response_result).toBe(0);
    }
    expect(
      (await call(gw.url, usersContract.add, newUser(o.roleId, { email: 'a@b.id' }), as(o))).body.response_result,
    ).toBe(0);
  });
  it.each([
    ['username shorter than 4', { username: 'abc' }, 'username'],
    ['username longer than 16', { username: 'a'.repeat(17) }, 'username'],
    ['username missing', { username: undefined }, 'username'],
    ['first shorter than 4', { first: 'Abc' }, 'first'],
    ['first longer than 16', { first: 'A'.repeat(17) }, 'first'],
    ['last longer than 16', { last: 'A'.repeat(17) }, 'last'],
    ['email shorter than 4', { email: 'a@b' }, 'email'],
    ['email not an address', { email: 'bukan-email' }, 'email'],
    ['pass shorter than 8', { pass: 'abcdefg', passv: 'abcdefg' }, 'pass'],
    ['passv missing', { passv: undefined }, 'passv'],
    ['role_id missing', { role_id: undefined }, 'role_id'],
  ])('answers -10 when %s', async (_l, over, field) => {
    const o = await appWithRole();
    const r = await call(gw.url, usersContract.add, newUser(o.roleId, over), as(o));
    expect(r.status).toBe(400);
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
  it('answers -10 "Konforimasi password harus sama!" when passv differs', async () => {
    const o = await appWithRole();
    const r = await call(gw.url, usersContract.add, newUser(o.roleId, { passv: 'lainnya' }), as(o));
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors).toContainEqual({ path: 'passv', message: T.common.passwordMismatch });
  });
  it('answers -3 "Username sudah terpakai" when the username is taken', async () => {
    const o = await appWithRole();
    const first = newUser(o.roleId);
    await call(gw.url, usersContract.add, first, as(o));
    const r = await call(gw.url, usersContract.add, newUser(o.roleId, { username: first.username }), as(o));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ response_result: -3, message: T.users.usernameTaken });
  });
  it('answers -4 "Email sudah terpakai" when the email is taken', async () => {
    const o = await appWithRole();
    const first = newUser(o.roleId);
    await call(gw.url, usersContract.add, first, as(o));
    const r = await call(gw.url, usersContract.add, newUser(o.roleId, { email: first.email }), as(o));
    expect(r.body).toMatchObject({ response_result: -4, message: T.users.emailTaken });
  });
  it('lets another application use the same username and email', async () => {
    const a = await appWithRole();
    const b = await appWithRole();
    const input = newUser(a.roleId);
    await call(gw.url, usersContract.add, input, as(a));
    expect((await call(gw.url, usersContract.add, { ...input, role_id: b.roleId }, as(b))).body.response_result).toBe(
      0,
    );
  });
  it('refuses with "Tidak dapat menambah pengguna, belum ada role terdaftar" while no role exists', async () => {
    const o = await tenantWithApp(gw.url);
    const r = await call(gw.url, usersContract.add, newUser(1), as(o));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ response_result: -12, message: T.users.noRole });
  });
  it('answers 404 for a role of another application', async () => {
    const o = await appWithRole();
    const other = await appWithRole();
    expect((await call(gw.url, usersContract.add, newUser(other.roleId), as(o))).status).toBe(404);
  });
  it('answers 401 without credentials', async () => {
    const o = await appWithRole();
    expect((await call(gw.url, usersContract.add, newUser(o.roleId), { domain: o.domain })).status).toBe(401);
  });
});

describe('GET /service/web/application/account/manage/list and get/id/{id}', () => {
  it('answers one account by id', async () => {
    const o = await appWithRole();
    const add = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    const r = await call(gw.url, usersContract.get, { id: add.body.data.id }, as(o));
    expect(r.body).toEqual({ response_result: 0, data: add.body.data });
  });
  it("answers 404 for another application's account, and lists none of them", async () => {
    const o = await appWithRole();
    const other = await appWithRole();
    const foreign = await call(gw.url, usersContract.add, newUser(other.roleId), as(other));
    expect((await call(gw.url, usersContract.get, { id: foreign.body.data.id }, as(o))).status).toBe(404);
    expect((await call(gw.url, usersContract.list, {}, as(o))).body.data).toEqual([]);
  });
  it('answers 401 without credentials', async () => {
    const o = await appWithRole();
    expect((await call(gw.url, usersContract.list, {}, { domain: o.domain })).status).toBe(401);
    expect((await call(gw.url, usersContract.get, { id: 1 }, { domain: o.domain })).status).toBe(401);
  });
});

describe('POST /service/web/application/account/manage/edit', () => {
  it('edits first, last, email and role; the username stays read-only', async () => {
    const o = await appWithRole();
    const role2 = await call(gw.url, rolesContract.add, { name: 'teknisi' }, as(o));
    const add = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    const r = await call(
      gw.url,
      usersContract.edit,
      {
        id: add.body.data.id,
        username: 'diganti',
        first: 'Budiman',
        last: '',
        email: 'budi@contoh.id',
        role_id: role2.body.data.id,
      },
      as(o),
    );
    expect(r.body.data).toMatchObject({
      username: add.body.data.username,
      first: 'Budiman',
      last: null,
      email: 'budi@contoh.id',
      role_id: role2.body.data.id,
      role_name: 'teknisi',
    });
  });
  it.each([
    ['first shorter than 4', { first: 'Abc' }, 'first'],
    ['first missing', { first: undefined }, 'first'],
    ['last longer than 16', { last: 'A'.repeat(17) }, 'last'],
    ['email shorter than 4', { email: 'a@b' }, 'email'],
    ['role_id missing', { role_id: undefined }, 'role_id'],
  ])('answers -10 when %s', async (_l, over, field) => {
    const o = await appWithRole();
    const add = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    const r = await call(
      gw.url,
      usersContract.edit,
      { id: add.body.data.id, first: 'Andi', email: 'a@contoh.id', role_id: o.roleId, ...over },
      as(o),
    );
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0].path).toBe(field);
  });
  it('answers -4 "Email sudah terpakai" when the email belongs to another user', async () => {
    const o = await appWithRole();
    const a = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    const b = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    const r = await call(
      gw.url,
      usersContract.edit,
      { id: b.body.data.id, first: 'Andi', email: a.body.data.email, role_id: o.roleId },
      as(o),
    );
    expect(r.body).toMatchObject({ response_result: -4, message: T.users.emailTaken });
  });
  it("answers 404 for another application's account or role", async () => {
    const o = await appWithRole();
    const other = await appWithRole();
    const foreign = await call(gw.url, usersContract.add, newUser(other.roleId), as(other));
    expect(
      (
        await call(
          gw.url,
          usersContract.edit,
          { id: foreign.body.data.id, first: 'Andi', email: 'x@contoh.id', role_id: o.roleId },
          as(o),
        )
      ).status,
    ).toBe(404);
    const mine = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    expect(
      (
        await call(
          gw.url,
          usersContract.edit,
          { id: mine.body.data.id, first: 'Andi', email: 'x@contoh.id', role_id: other.roleId },
          as(o),
        )
      ).status,
    ).toBe(404);
  });
});

describe('POST /service/web/application/account/manage/remove', () => {
  it('removes the account and ends its sessions', async () => {
    const o = await appWithRole();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const memberAuth = { member: m.member, domain: m.domain };
    expect((await call(gw.url, appsContract.menu, {}, memberAuth)).status).toBe(200);
    expect((await call(gw.url, usersContract.remove, { id: m.userId }, as(o))).body.response_result).toBe(0);
    expect((await call(gw.url, appsContract.menu, {}, memberAuth)).status).toBe(401);
    expect(
      (await call(gw.url, authContract.appLogin, { input: m.username, pass: m.pass }, { domain: o.domain })).body
        .response_result,
    ).toBe(-1);
    expect((await call(gw.url, usersContract.get, { id: m.userId }, as(o))).status).toBe(404);
  });
  it("answers 404 for another application's account and 401 without credentials", async () => {
    const o = await appWithRole();
    const other = await appWithRole();
    const foreign = await call(gw.url, usersContract.add, newUser(other.roleId), as(other));
    expect((await call(gw.url, usersContract.remove, { id: foreign.body.data.id }, as(o))).status).toBe(404);
    expect(
      (await call(gw.url, usersContract.remove, { id: foreign.body.data.id }, { domain: other.domain })).status,
    ).toBe(401);
  });
});

describe('POST /service/web/application/account/setting/edit/password/id', () => {
  it('sets the trimmed password and ends every session of the user', async () => {
    const o = await appWithRole();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const r = await call(gw.url, usersContract.changePassword, { id: m.userId, passn: '  sandibaru  ' }, as(o));
    expect(r.body.response_result).toBe(0);
    expect((await call(gw.url, appsContract.menu, {}, { member: m.member, domain: m.domain })).status).toBe(401);
    expect(
      (await call(gw.url, authContract.appLogin, { input: m.username, pass: m.pass }, { domain: o.domain })).body
        .response_result,
    ).toBe(-2);
    expect(
      (await call(gw.url, authContract.appLogin, { input: m.username, pass: 'sandibaru' }, { domain: o.domain })).body
        .response_result,
    ).toBe(0);
  });
  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['missing', undefined],
    ['longer than 128', 'a'.repeat(129)],
  ])('answers -10 when passn is %s', async (_l, passn) => {
    const o = await appWithRole();
    const add = await call(gw.url, usersContract.add, newUser(o.roleId), as(o));
    const r = await call(gw.url, usersContract.changePassword, { id: add.body.data.id, passn }, as(o));
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0].path).toBe('passn');
  });
  it("answers 404 for another application's account and 401 without credentials", async () => {
    const o = await appWithRole();
    const other = await appWithRole();
    const foreign = await call(gw.url, usersContract.add, newUser(other.roleId), as(other));
    expect(
      (await call(gw.url, usersContract.changePassword, { id: foreign.body.data.id, passn: 'abcd1234' }, as(o))).status,
    ).toBe(404);
    expect(
      (
        await call(
          gw.url,
          usersContract.changePassword,
          { id: foreign.body.data.id, passn: 'abcd1234' },
          { domain: other.domain },
        )
      ).status,
    ).toBe(401);
  });
});
