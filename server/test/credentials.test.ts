// API credentials: list, read, create, update, delete, regenerate secret (spec 01 sections 2 "Credentials", 3, 4, 5,
// 7, 8), and the pair itself authenticating REST calls of its application, limited by its scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appsContract, credentialsContract, Header, rolesContract, T, usersContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantWithApp } from './fixtures.js';
import { credentials } from '../src/modules/credentials/credentials.table.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
const as = (o: Owner) => ({ tenant: o.tenant, domain: o.domain });
const pairAuth = (domain: string, id: string, secret: string) => ({
  domain,
  headers: { [Header.credentialsId]: id, [Header.credentialsSecret]: secret },
});

async function create(o: Owner, over: Record<string, unknown> = {}) {
  const r = await call(
    gw.url,
    credentialsContract.create,
    { credentials_id: 'integrasi_1', scopes: {}, details: { owner: 'tim data' }, ...over },
    as(o),
  );
  return r;
}

describe('POST /service/web/credentials/create', () => {
  it('creates a pair with the default category 19 OPEN_V0 and a server-generated secret', async () => {
    const o = await tenantWithApp(gw.url);
    const r = await create(o, { credentials_secret: 'pilihan-klien', scopes: { navs: ['_device_list_'] } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      category: 19,
      category_text: 'OPEN_V0',
      credentials_id: 'integrasi_1',
      scopes: { navs: ['_device_list_'] },
      details: { owner: 'tim data' },
    });
    expect(r.body.data.credentials_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.data.credentials_secret).not.toBe('pilihan-klien');
  });
  it.each([
    [21, 'API_KEY'],
    [14, 'OPEN_V4'],
    [19, 'OPEN_V0'],
    [31, 'OIDC'],
  ])('names category %i %s', async (category, text) => {
    const o = await tenantWithApp(gw.url);
    expect((await create(o, { category })).body.data).toMatchObject({ category, category_text: text });
  });
  it('keeps the secret encrypted in the database', async () => {
    const o = await tenantWithApp(gw.url);
    const r = await create(o);
    const row = (await gw.app.store.db.select().from(credentials).where(eq(credentials.id, r.body.data.id)).get())!;
    expect(JSON.stringify(row)).not.toContain(r.body.data.credentials_secret);
  });
  it.each([
    ['an unknown category', { category: 20 }, 'category'],
    ['credentials_id missing', { credentials_id: undefined }, 'credentials_id'],
    ['credentials_id empty', { credentials_id: '' }, 'credentials_id'],
    ['credentials_id longer than 32', { credentials_id: 'a'.repeat(33) }, 'credentials_id'],
    ['credentials_id with a space', { credentials_id: 'dua kata' }, 'credentials_id'],
    ['scopes missing', { scopes: undefined }, 'scopes'],
    ['details missing', { details: undefined }, 'details'],
    ['scopes navs not a system key', { scopes: { navs: ['_semua_'] } }, 'scopes.navs.0'],
  ])('answers -10 when %s', async (_l, over, field) => {
    const o = await tenantWithApp(gw.url);
    const r = await create(o, over);
    expect(r.status).toBe(400);
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0].path).toBe(field);
  });
  it('accepts a credentials_id of 32 characters', async () => {
    const o = await tenantWithApp(gw.url);
    expect((await create(o, { credentials_id: 'a'.repeat(32) })).body.response_result).toBe(0);
  });
  it.each([
    ['text that is not JSON', '{bukan json'],
    ['a JSON array', [1]],
    ['a string', 'teks'],
  ])(
    'answers -10 "Invalid JSON for `Scopes`" / "Invalid JSON for `Details`" when the value is %s',
    async (_l, value) => {
      const o = await tenantWithApp(gw.url);
      expect((await create(o, { scopes: value })).body.errors[0]).toEqual({
        path: 'scopes',
        message: T.credentials.invalidScopes,
      });
      expect((await create(o, { details: value })).body.errors[0]).toEqual({
        path: 'details',
        message: T.credentials.invalidDetails,
      });
    },
  );
  it('accepts scopes and details as JSON text', async () => {
    const o = await tenantWithApp(gw.url);
    const r = await create(o, { scopes: '{"navs":["*"]}', details: '{}' });
    expect(r.body.data).toMatchObject({ scopes: { navs: ['*'] }, details: {} });
  });
  it('answers -12 when the credentials_id is taken in the application, not in another one', async () => {
    const o = await tenantWithApp(gw.url);
    await create(o);
    expect((await create(o)).body).toMatchObject({ response_result: -12, message: T.credentials.idTaken });
    expect((await create(await tenantWithApp(gw.url))).body.response_result).toBe(0);
  });
  it('answers 401 without credentials', async () => {
    const o = await tenantWithApp(gw.url);
    expect(
      (
        await call(
          gw.url,
          credentialsContract.create,
          { credentials_id: 'x', scopes: {}, details: {} },
          { domain: o.domain },
        )
      ).status,
    ).toBe(401);
  });
});

describe('GET /service/web/credentials/list and read', () => {
  it('lists the pairs of the application and reads one with its secret', async () => {
    const o = await tenantWithApp(gw.url);
    const a = await create(o, { credentials_id: 'satu' });
    const b = await create(o, { credentials_id: 'dua', category: 21 });
    const list = await call(gw.url, credentialsContract.list, {}, as(o));
    expect(list.body.data.map((c: { credentials_id: string }) => c.credentials_id)).toEqual(['satu', 'dua']);
    const read = await call(gw.url, credentialsContract.read, { id: b.body.data.id }, as(o));
    expect(read.body.data).toEqual(b.body.data);
    expect(read.body.data.credentials_secret).not.toBe(a.body.data.credentials_secret);
  });
  it("answers 404 for another application's pair and lists none of them", async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await create(other);
    expect((await call(gw.url, credentialsContract.read, { id: foreign.body.data.id }, as(o))).status).toBe(404);
    expect((await call(gw.url, credentialsContract.list, {}, as(o))).body.data).toEqual([]);
  });
  it('answers 401 without credentials and -10 without an id', async () => {
    const o = await tenantWithApp(gw.url);
    expect((await call(gw.url, credentialsContract.list, {}, { domain: o.domain })).status).toBe(401);
    expect((await call(gw.url, credentialsContract.read, {}, as(o))).body.response_result).toBe(-10);
  });
});

describe('POST /service/web/credentials/update', () => {
  it('replaces scopes and details; category and credentials_id stay read-only', async () => {
    const o = await tenantWithApp(gw.url);
    const c = await create(o);
    const r = await call(
      gw.url,
      credentialsContract.update,
      {
        id: c.body.data.id,
        category: 21,
        credentials_id: 'lain',
        scopes: { navs: ['_user_manage_'] },
        details: { v: 2 },
      },
      as(o),
    );
    expect(r.body.data).toMatchObject({
      category: 19,
      credentials_id: 'integrasi_1',
      scopes: { navs: ['_user_manage_'] },
      details: { v: 2 },
      credentials_secret: c.body.data.credentials_secret,
    });
  });
  it('answers -10 for invalid scopes or details JSON', async () => {
    const o = await tenantWithApp(gw.url);
    const c = await create(o);
    expect(
      (await call(gw.url, credentialsContract.update, { id: c.body.data.id, scopes: '[', details: {} }, as(o))).body
        .errors[0].message,
    ).toBe(T.credentials.invalidScopes);
    expect(
      (await call(gw.url, credentialsContract.update, { id: c.body.data.id, scopes: {}, details: '[' }, as(o))).body
        .errors[0].message,
    ).toBe(T.credentials.invalidDetails);
  });
  it("answers 404 for another application's pair", async () => {
    const o = await tenantWithApp(gw.url);
    const foreign = await create(await tenantWithApp(gw.url));
    expect(
      (await call(gw.url, credentialsContract.update, { id: foreign.body.data.id, scopes: {}, details: {} }, as(o)))
        .status,
    ).toBe(404);
  });
});

describe('POST /service/web/credentials/delete and regenerate/secret', () => {
  it('regenerates the secret: the old one answers 401 at once, the new one works', async () => {
    const o = await tenantWithApp(gw.url);
    const c = await create(o, { scopes: { navs: ['_user_manage_'] } });
    const old = c.body.data.credentials_secret;
    expect((await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'integrasi_1', old))).status).toBe(200);
    const r = await call(gw.url, credentialsContract.regenerateSecret, { id: c.body.data.id }, as(o));
    expect(r.body.data.credentials_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.data.credentials_secret).not.toBe(old);
    expect((await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'integrasi_1', old))).status).toBe(401);
    expect(
      (await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'integrasi_1', r.body.data.credentials_secret)))
        .status,
    ).toBe(200);
  });
  it('deletes the pair: it is gone and no longer authenticates', async () => {
    const o = await tenantWithApp(gw.url);
    const c = await create(o, { scopes: { navs: ['*'] } });
    expect((await call(gw.url, credentialsContract.delete, { id: c.body.data.id }, as(o))).body.response_result).toBe(
      0,
    );
    expect((await call(gw.url, credentialsContract.read, { id: c.body.data.id }, as(o))).status).toBe(404);
    expect(
      (await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'integrasi_1', c.body.data.credentials_secret)))
        .status,
    ).toBe(401);
  });
  it("answers 404 for another application's pair and 401 without credentials", async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await create(other);
    expect((await call(gw.url, credentialsContract.delete, { id: foreign.body.data.id }, as(o))).status).toBe(404);
    expect((await call(gw.url, credentialsContract.regenerateSecret, { id: foreign.body.data.id }, as(o))).status).toBe(
      404,
    );
    expect(
      (await call(gw.url, credentialsContract.delete, { id: foreign.body.data.id }, { domain: other.domain })).status,
    ).toBe(401);
    expect((await call(gw.url, credentialsContract.read, { id: foreign.body.data.id }, as(other))).status).toBe(200);
  });
});

describe('a credentials pair calling the API', () => {
  it('authenticates with x-credentials-id, x-credentials-secret and x-app-domain, limited by its scopes', async () => {
    const o = await tenantWithApp(gw.url);
    const c = await create(o, { scopes: { navs: ['_user_manage_'] } });
    const auth = pairAuth(o.domain, 'integrasi_1', c.body.data.credentials_secret);
    expect((await call(gw.url, usersContract.list, {}, auth)).body).toMatchObject({ response_result: 0, data: [] });
    expect((await call(gw.url, rolesContract.list, {}, auth)).status).toBe(200);
    // outside its scopes
    const refused = await call(gw.url, rolesContract.add, { name: 'admin' }, auth);
    expect(refused.status).toBe(403);
    expect(refused.body.response_result).toBe(-13);
    expect((await call(gw.url, credentialsContract.list, {}, auth)).status).toBe(403);
    // never for tenant-level calls: a pair belongs to an application, outside it it is no credential at all
    expect((await call(gw.url, appsContract.list, {}, auth)).status).toBe(401);
  });
  it('grants nothing with empty scopes, every system key with "*", and permissions as a role does', async () => {
    const o = await tenantWithApp(gw.url);
    const none = await create(o, { credentials_id: 'kosong', scopes: {} });
    const all = await create(o, { credentials_id: 'semua', scopes: { navs: ['*'] } });
    const manager = await create(o, {
      credentials_id: 'pengelola',
      scopes: { permissions: { credentials_manage: true } },
    });
    expect(
      (await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'kosong', none.body.data.credentials_secret)))
        .status,
    ).toBe(403);
    expect(
      (await call(gw.url, appsContract.menu, {}, pairAuth(o.domain, 'kosong', none.body.data.credentials_secret))).body,
    ).toMatchObject({ response_result: 0, navs_root: [] });
    const allAuth = pairAuth(o.domain, 'semua', all.body.data.credentials_secret);
    expect((await call(gw.url, rolesContract.add, { name: 'dari_api' }, allAuth)).body.response_result).toBe(0);
    expect((await call(gw.url, credentialsContract.list, {}, allAuth)).status).toBe(403);
    expect(
      (
        await call(
          gw.url,
          credentialsContract.list,
          {},
          pairAuth(o.domain, 'pengelola', manager.body.data.credentials_secret),
        )
      ).status,
    ).toBe(200);
  });
  it('updating the scopes takes effect on the next call', async () => {
    const o = await tenantWithApp(gw.url);
    const c = await create(o, { scopes: {} });
    const auth = pairAuth(o.domain, 'integrasi_1', c.body.data.credentials_secret);
    expect((await call(gw.url, usersContract.list, {}, auth)).status).toBe(403);
    await call(
      gw.url,
      credentialsContract.update,
      { id: c.body.data.id, scopes: { navs: ['_role_manage_'] }, details: {} },
      as(o),
    );
    expect((await call(gw.url, usersContract.list, {}, auth)).status).toBe(200);
  });
  it('answers 401 for a wrong secret, a missing half, another application, or an unknown id', async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const c = await create(o, { scopes: { navs: ['*'] } });
    const secret = c.body.data.credentials_secret;
    expect((await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'integrasi_1', 'f'.repeat(64)))).status).toBe(
      401,
    );
    expect((await call(gw.url, usersContract.list, {}, pairAuth(o.domain, 'tidak_ada', secret))).status).toBe(401);
    expect((await call(gw.url, usersContract.list, {}, pairAuth(other.domain, 'integrasi_1', secret))).status).toBe(
      401,
    );
    expect(
      (
        await call(
          gw.url,
          usersContract.list,
          {},
          { domain: o.domain, headers: { [Header.credentialsId]: 'integrasi_1' } },
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await call(
          gw.url,
          usersContract.list,
          {},
          { domain: o.domain, headers: { [Header.credentialsSecret]: secret } },
        )
      ).status,
    ).toBe(401);
  });
  it('lets a role grant credentials management through its permissions', async () => {
    const o = await tenantWithApp(gw.url);
    const plain = await memberWithRole(gw.url, o, { sys_navs: ['_user_manage_'] });
    expect((await call(gw.url, credentialsContract.list, {}, { member: plain.member, domain: o.domain })).status).toBe(
      403,
    );
    const keeper = await memberWithRole(gw.url, o, { permissions: { credentials_manage: true } });
    expect((await call(gw.url, credentialsContract.list, {}, { member: keeper.member, domain: o.domain })).status).toBe(
      200,
    );
  });
});
