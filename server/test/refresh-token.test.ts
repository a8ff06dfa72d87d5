// Refresh token: show (get), regenerate (gen: the previous token stops at once) and exchange for a session
// (spec 01 sections 2 "Refresh Token", 3 "Token", 4, 7, 8 "Refresh token").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsContract, credentialsContract, Header, refreshTokenContract, usersContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantWithApp } from './fixtures.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
const as = (o: Owner) => ({ tenant: o.tenant, domain: o.domain });

describe('GET /service/web/application/account/open/token/get', () => {
  it('shows the current refresh token, the same on every read', async () => {
    const o = await tenantWithApp(gw.url);
    const first = await call(gw.url, refreshTokenContract.get, {}, as(o));
    expect(first.body).toMatchObject({ response_result: 0, refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await call(gw.url, refreshTokenContract.get, {}, as(o))).body.refresh_token).toBe(first.body.refresh_token);
  });
  it('keeps one token per principal and application', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const tenantToken = (await call(gw.url, refreshTokenContract.get, {}, as(o))).body.refresh_token;
    const memberToken = (await call(gw.url, refreshTokenContract.get, {}, { member: m.member, domain: o.domain })).body
      .refresh_token;
    expect(memberToken).not.toBe(tenantToken);
  });
  it('answers 401 without credentials, 404 in another application, 403 for a credentials pair', async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    expect((await call(gw.url, refreshTokenContract.get, {}, { domain: o.domain })).status).toBe(401);
    expect((await call(gw.url, refreshTokenContract.get, {}, { tenant: o.tenant, domain: other.domain })).status).toBe(
      404,
    );
    const pair = await call(
      gw.url,
      credentialsContract.create,
      { credentials_id: 'api', scopes: { navs: ['*'] }, details: {} },
      as(o),
    );
    const pairAuth = {
      domain: o.domain,
      headers: { [Header.credentialsId]: 'api', [Header.credentialsSecret]: pair.body.data.credentials_secret },
    };
    expect((await call(gw.url, refreshTokenContract.get, {}, pairAuth)).status).toBe(403);
  });
});

describe('POST /service/web/application/account/open/token/gen', () => {
  it('issues a new token and disables the previous one at once', async () => {
    const o = await tenantWithApp(gw.url);
    const old = (await call(gw.url, refreshTokenContract.get, {}, as(o))).body.refresh_token;
    const gen = await call(gw.url, refreshTokenContract.gen, {}, as(o));
    expect(gen.body).toMatchObject({ response_result: 0, refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(gen.body.refresh_token).not.toBe(old);
    expect((await call(gw.url, refreshTokenContract.get, {}, as(o))).body.refresh_token).toBe(gen.body.refresh_token);
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: old }, { domain: o.domain })).status,
    ).toBe(401);
    expect(
      (
        await call(
          gw.url,
          refreshTokenContract.exchange,
          { refresh_token: gen.body.refresh_token },
          { domain: o.domain },
        )
      ).status,
    ).toBe(200);
  });
  it('answers 401 without credentials', async () => {
    const o = await tenantWithApp(gw.url);
    expect((await call(gw.url, refreshTokenContract.gen, {}, { domain: o.domain })).status).toBe(401);
  });
});

describe('POST /service/web/application/account/open/token/exchange', () => {
  it('gives an application user a working session answered like a sign-in', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_user_manage_'] });
    const token = (await call(gw.url, refreshTokenContract.gen, {}, { member: m.member, domain: o.domain })).body
      .refresh_token;
    const r = await call(gw.url, refreshTokenContract.exchange, { refresh_token: token }, { domain: o.domain });
    expect(r.body).toMatchObject({ response_result: 0, id: m.userId, name: 'Rina', is_tenant: false });
    expect(r.body.token).not.toBe(m.member.token);
    const session = { member: { id: r.body.id, token: r.body.token }, domain: o.domain };
    expect((await call(gw.url, usersContract.list, {}, session)).status).toBe(200);
  });
  it('gives a tenant a tenant session', async () => {
    const o = await tenantWithApp(gw.url);
    const token = (await call(gw.url, refreshTokenContract.get, {}, as(o))).body.refresh_token;
    const r = await call(gw.url, refreshTokenContract.exchange, { refresh_token: token }, { domain: o.domain });
    expect(r.body).toMatchObject({ response_result: 0, id: o.tenant.id, name: 'Budi', is_tenant: true });
    expect((await call(gw.url, appsContract.list, {}, { tenant: { id: r.body.id, token: r.body.token } })).status).toBe(
      200,
    );
  });
  it('answers 401 for an unknown token, another application, or no x-app-domain; -10 when empty', async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const token = (await call(gw.url, refreshTokenContract.get, {}, as(o))).body.refresh_token;
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: 'f'.repeat(64) }, { domain: o.domain }))
        .status,
    ).toBe(401);
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: token }, { domain: other.domain })).status,
    ).toBe(401);
    expect((await call(gw.url, refreshTokenContract.exchange, { refresh_token: token })).status).toBe(401);
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: '' }, { domain: o.domain })).body
        .response_result,
    ).toBe(-10);
  });
  it('stops working once the user is removed', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const token = (await call(gw.url, refreshTokenContract.get, {}, { member: m.member, domain: o.domain })).body
      .refresh_token;
    await call(gw.url, usersContract.remove, { id: m.userId }, as(o));
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: token }, { domain: o.domain })).status,
    ).toBe(401);
  });
});
