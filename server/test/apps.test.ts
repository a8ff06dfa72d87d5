// Applications: list, add (-2/-3), About, menu; isolation between tenants (spec 01 sections 2, 5, 7, 8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsContract, SYS_NAVS, T } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { tenantSession, tenantWithApp, unique } from './fixtures.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

describe('POST /service/web/application/add', () => {
  it('adds an application that the list then shows', async () => {
    const t = await tenantSession(gw.url);
    const domain = unique('pabrik');
    const r = await call(
      gw.url,
      appsContract.add,
      { name: 'Pabrik Satu', domain, description: 'Monitoring listrik' },
      { tenant: t.tenant },
    );
    expect(r.body).toMatchObject({
      response_result: 0,
      data: { name: 'Pabrik Satu', domain, description: 'Monitoring listrik' },
    });
    const list = await call(gw.url, appsContract.list, {}, { tenant: t.tenant });
    expect(list.body.data).toEqual([
      { id: r.body.data.id, name: 'Pabrik Satu', domain, description: 'Monitoring listrik' },
    ]);
  });
  it.each([
    ['starts with a digit', '1pabrik'],
    ['has a capital letter', 'Pabrik'],
    ['has a dash', 'pab-rik'],
    ['is longer than 64', `a${'b'.repeat(64)}`],
  ])('answers -2 "Domain harus alphanumerik dan tidak diawali angka" when the domain %s', async (_l, domain) => {
    const t = await tenantSession(gw.url);
    const r = await call(gw.url, appsContract.add, { name: 'Pabrik Satu', domain }, { tenant: t.tenant });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ response_result: -2, message: T.application.invalidDomain });
  });
  it('answers -3 "Domain sudah terpakai, silahkan gunakan domain lain" when the domain is taken (by anyone)', async () => {
    const a = await tenantWithApp(gw.url);
    const b = await tenantSession(gw.url);
    const r = await call(gw.url, appsContract.add, { name: 'Pabrik Dua', domain: a.domain }, { tenant: b.tenant });
    expect(r.body).toMatchObject({ response_result: -3, message: T.application.domainTaken });
  });
  it.each(['admin', 'pages', 'expire', 'apps', 'login', 'registration', 'applications'])(
    'answers -3 for %s, a path of the console itself',
    async (domain) => {
      const t = await tenantSession(gw.url);
      const r = await call(gw.url, appsContract.add, { name: 'Pabrik Satu', domain }, { tenant: t.tenant });
      expect(r.body).toMatchObject({ response_result: -3, message: T.application.domainTaken });
    },
  );
  it.each([
    ['name shorter than 4', { name: 'abc' }],
    ['name longer than 128', { name: 'a'.repeat(129) }],
    ['name missing', { name: undefined }],
  ])('answers -10 when the %s', async (_l, over) => {
    const t = await tenantSession(gw.url);
    const r = await call(gw.url, appsContract.add, Object.assign({ name: 'Pabrik Satu', domain: unique('d') }, over), {
      tenant: t.tenant,
    });
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0].path).toBe('name');
  });
  it('answers 401 without a session', async () => {
    expect((await call(gw.url, appsContract.add, { name: 'Pabrik', domain: unique('d') })).status).toBe(401);
  });
});

describe('GET /service/web/application/get/domain/{domain}', () => {
  it('answers id, name, domain and created_time for the owner', async () => {
    const t = await tenantWithApp(gw.url);
    const r = await call(
      gw.url,
      appsContract.getByDomain,
      { domain: t.domain },
      { tenant: t.tenant, domain: t.domain },
    );
    expect(r.body).toMatchObject({ response_result: 0, data: { id: t.appId, domain: t.domain } });
    expect(r.body.data.created_time).toBeGreaterThan(Date.now() - 60_000);
  });
  it("answers 404 for another tenant's application", async () => {
    const a = await tenantWithApp(gw.url);
    const b = await tenantSession(gw.url);
    expect((await call(gw.url, appsContract.getByDomain, { domain: a.domain }, { tenant: b.tenant })).status).toBe(404);
    expect(
      (await call(gw.url, appsContract.getByDomain, { domain: a.domain }, { tenant: b.tenant, domain: a.domain }))
        .status,
    ).toBe(404);
    expect(
      (await call(gw.url, appsContract.getByDomain, { domain: 'tidakada' }, { tenant: b.tenant })).body.response_result,
    ).toBe(-11);
  });
});

describe('GET /service/web/application/nav/list/role', () => {
  it('gives a tenant every system entry and the application name', async () => {
    const t = await tenantWithApp(gw.url);
    const r = await call(gw.url, appsContract.menu, {}, { tenant: t.tenant, domain: t.domain });
    expect(r.body).toMatchObject({
      response_result: 0,
      navs: [],
      navs_root: [...SYS_NAVS],
      app_name: `Aplikasi ${t.domain}`,
    });
  });
  it("answers 404 inside another tenant's application and -10 without x-app-domain", async () => {
    const a = await tenantWithApp(gw.url);
    const b = await tenantSession(gw.url);
    expect((await call(gw.url, appsContract.menu, {}, { tenant: b.tenant, domain: a.domain })).status).toBe(404);
    expect((await call(gw.url, appsContract.menu, {}, { tenant: b.tenant })).body.response_result).toBe(-10);
  });
});

describe('unknown calls and the OpenAPI document', () => {
  it('answers 404 -11 for an unknown API path', async () => {
    const r = await fetch(`${gw.url}/service/web/tidak/ada`);
    expect(r.status).toBe(404);
    expect((await r.json()).response_result).toBe(-11);
  });
  it('documents every mounted call', async () => {
    const doc = await (await fetch(`${gw.url}/service/web/openapi.json`)).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(
      doc.paths[appsContract.add.path].post.requestBody.content['application/json'].schema.properties.domain,
    ).toBeDefined();
    expect(doc.paths['/service/web/application/get/domain/{domain}'].get.parameters[0]).toMatchObject({
      name: 'domain',
      in: 'path',
    });
  });
});
