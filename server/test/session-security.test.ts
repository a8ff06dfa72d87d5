// Sessions that end, refresh tokens that rotate, throttled guesses, new passwords of 8 and 401 without credentials
// (issue 23 items 4, 5 and 8), against the real gateway.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  appsContract,
  authContract,
  Header,
  cardsContract,
  dashboardsContract,
  refreshTokenContract,
  Result,
  T,
  usersContract,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantSession, tenantWithApp, unique } from './fixtures.js';
import { accounts } from '../src/modules/users/users.table.js';
import { hashPassword } from '../src/platform/crypto.js';

const HOUR = 3_600_000;
let gw: Running;
/** a gateway whose clock the test moves: sessions idle out after 1 h and live at most 3 h */
let timed: Running;
let offset = 0;
beforeAll(async () => {
  // sign-in throttling is tested on gateways of its own: here failures from 127.0.0.1 must not add up
  gw = await startGateway({ LOGIN_THROTTLE_ATTEMPTS: '1000' });
  timed = await startGateway(
    { SESSION_IDLE_TIMEOUT_S: '3600', SESSION_MAX_AGE_S: '10800' },
    { now: () => Date.now() + offset },
  );
});
afterAll(async () => Promise.all([gw.stop(), timed.stop()]));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('401 for an unauthenticated call to an authenticated route (issue 23 item 8)', () => {
  it('answers 401 -14 without credentials even when x-app-domain is missing', async () => {
    for (const [def, input] of [
      [usersContract.list, {}],
      [dashboardsContract.view, { id: 1 }],
      [cardsContract.get, { dashboardId: 1, componentKey: 'x' }],
      [appsContract.list, {}],
      [refreshTokenContract.gen, {}],
    ] as const) {
      const r = await call(gw.url, def, input);
      expect({ path: def.path, status: r.status, code: r.body.response_result }).toEqual({
        path: def.path,
        status: 401,
        code: Result.UNAUTHORIZED,
      });
    }
  });
  it('still answers -10 to a signed-in tenant that forgot x-app-domain on an application call', async () => {
    const t = await tenantSession(gw.url);
    const r = await call(gw.url, usersContract.list, {}, { tenant: t.tenant });
    expect({ status: r.status, code: r.body.response_result }).toEqual({ status: 400, code: -10 });
  });
});

describe('session lifetime (issue 23 item 4)', () => {
  it('ends a session unused for the idle time-out', async () => {
    const t = await tenantSession(timed.url);
    expect((await call(timed.url, appsContract.list, {}, { tenant: t.tenant })).status).toBe(200);
    offset += HOUR + 1000;
    expect((await call(timed.url, appsContract.list, {}, { tenant: t.tenant })).status).toBe(401);
  });
  it('keeps a session in use past the idle time-out, and ends it at its lifetime however busy', async () => {
    const t = await tenantSession(timed.url);
    for (let i = 0; i < 5; i++) {
      offset += HOUR / 2;
      expect((await call(timed.url, appsContract.list, {}, { tenant: t.tenant })).status).toBe(200);
    }
    offset += HOUR / 2 + 1000; // 3 h after the sign-in
    expect((await call(timed.url, appsContract.list, {}, { tenant: t.tenant })).status).toBe(401);
    // signing in again opens a fresh session
    const again = await call(timed.url, authContract.tenantLogin, { input: t.username, pass: t.pass });
    expect(
      (await call(timed.url, appsContract.list, {}, { tenant: { id: again.body.id, token: again.body.token } })).status,
    ).toBe(200);
  });
});

describe('refresh tokens rotate on use (issue 23 item 4)', () => {
  it('answers the next refresh token with the session; the presented one stops working', async () => {
    const o = await tenantWithApp(gw.url);
    const first = (await call(gw.url, refreshTokenContract.get, {}, { tenant: o.tenant, domain: o.domain })).body
      .refresh_token as string;
    const used = await call(gw.url, refreshTokenContract.exchange, { refresh_token: first }, { domain: o.domain });
    expect(used.body).toMatchObject({
      response_result: 0,
      is_tenant: true,
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(used.body.refresh_token).not.toBe(first);
    // the Refresh Token page shows the current one
    expect(
      (await call(gw.url, refreshTokenContract.get, {}, { tenant: o.tenant, domain: o.domain })).body.refresh_token,
    ).toBe(used.body.refresh_token);
    const next = await call(
      gw.url,
      refreshTokenContract.exchange,
      { refresh_token: used.body.refresh_token },
      { domain: o.domain },
    );
    expect(next.body.response_result).toBe(0);
  });

  it('treats two exchanges of one token at once as a replay: one session, then the family ends', async () => {
    const o = await tenantWithApp(gw.url);
    const token = (await call(gw.url, refreshTokenContract.get, {}, { tenant: o.tenant, domain: o.domain })).body
      .refresh_token as string;
    const both = await Promise.all(
      [0, 1].map(() => call(gw.url, refreshTokenContract.exchange, { refresh_token: token }, { domain: o.domain })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = both.find((r) => r.status === 200)!;
    expect(
      (
        await call(
          gw.url,
          refreshTokenContract.exchange,
          { refresh_token: winner.body.refresh_token },
          { domain: o.domain },
        )
      ).status,
    ).toBe(401);
    expect(
      (await call(gw.url, appsContract.list, {}, { tenant: { id: winner.body.id, token: winner.body.token } })).status,
    ).toBe(401);
  });

  it('revokes the whole family and its sessions when a rotated token is presented again', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const t1 = (await call(gw.url, refreshTokenContract.get, {}, { member: m.member, domain: o.domain })).body
      .refresh_token as string;
    const a = await call(gw.url, refreshTokenContract.exchange, { refresh_token: t1 }, { domain: o.domain });
    const b = await call(
      gw.url,
      refreshTokenContract.exchange,
      { refresh_token: a.body.refresh_token },
      { domain: o.domain },
    );
    expect(b.body.response_result).toBe(0);
    const sessionOf = (r: typeof a) => ({
      member: { id: r.body.id as number, token: r.body.token as string },
      domain: o.domain,
    });
    expect((await call(gw.url, appsContract.menu, {}, sessionOf(b))).status).toBe(200);

    // t1 again: a replay (someone else holds the chain now)
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: t1 }, { domain: o.domain })).status,
    ).toBe(401);
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: b.body.refresh_token }, { domain: o.domain }))
        .status,
    ).toBe(401);
    expect((await call(gw.url, appsContract.menu, {}, sessionOf(a))).status).toBe(401);
    expect((await call(gw.url, appsContract.menu, {}, sessionOf(b))).status).toBe(401);
    // the session signed in with the password is not of that family
    expect((await call(gw.url, appsContract.menu, {}, { member: m.member, domain: o.domain })).status).toBe(200);
  });

  it('refuses a refresh token issued before an administrator reset the password, and ends its sessions', async () => {
    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const old = (await call(gw.url, refreshTokenContract.get, {}, { member: m.member, domain: o.domain })).body
      .refresh_token as string;
    const minted = await call(gw.url, refreshTokenContract.exchange, { refresh_token: old }, { domain: o.domain });
    const reset = await call(
      gw.url,
      usersContract.changePassword,
      { id: m.userId, passn: 'sandibaru123' },
      { tenant: o.tenant, domain: o.domain },
    );
    expect(reset.body.response_result).toBe(0);
    expect(
      (await call(gw.url, refreshTokenContract.exchange, { refresh_token: old }, { domain: o.domain })).status,
    ).toBe(401);
    expect(
      (
        await call(
          gw.url,
          refreshTokenContract.exchange,
          { refresh_token: minted.body.refresh_token },
          { domain: o.domain },
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await call(
          gw.url,
          appsContract.menu,
          {},
          { member: { id: minted.body.id, token: minted.body.token }, domain: o.domain },
        )
      ).status,
    ).toBe(401);
    // signed in with the new password, the member gets a new token
    const login = await call(
      gw.url,
      authContract.appLogin,
      { input: m.username, pass: 'sandibaru123' },
      { domain: o.domain },
    );
    const fresh = await call(
      gw.url,
      refreshTokenContract.get,
      {},
      { member: { id: login.body.id, token: login.body.token }, domain: o.domain },
    );
    expect(fresh.body.refresh_token).not.toBe(old);
  });
});

describe('sign-in throttling (issue 23 item 5)', () => {
  /** a failed sign-in, as status and envelope code */
  const outcome = (r: { status: number; body: Record<string, any> }) => ({
    status: r.status,
    code: r.body.response_result,
  });

  it('answers the 11th wrong password within a minute 429, and the right one works once the window has passed', async () => {
    const throttled = await startGateway({ LOGIN_THROTTLE_WINDOW_S: '3' });
    try {
      const t = await tenantSession(throttled.url);
      for (let i = 0; i < 10; i++) {
        expect(
          outcome(await call(throttled.url, authContract.tenantLogin, { input: t.username, pass: `salah${i}` })),
        ).toEqual({ status: 400, code: -2 });
      }
      const res = await fetch(throttled.url + authContract.tenantLogin.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: t.username, pass: 'salah10' }),
      });
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(await res.json()).toEqual({
        response_result: Result.TOO_MANY_ATTEMPTS,
        message: T.common.tooManyAttempts(retryAfter),
        retry_after: retryAfter,
      });
      // while blocked the right password is refused too: guessing cannot go on under the block
      expect(outcome(await call(throttled.url, authContract.tenantLogin, { input: t.username, pass: t.pass }))).toEqual(
        { status: 429, code: Result.TOO_MANY_ATTEMPTS },
      );
      await sleep(retryAfter * 1000 + 300);
      const ok = await call(throttled.url, authContract.tenantLogin, { input: t.username, pass: t.pass });
      expect(ok.body).toMatchObject({ response_result: 0, id: t.tenant.id });
    } finally {
      await throttled.stop();
    }
  });

  /** a tenant sign-in from a chosen loopback address: status, envelope code and how long it took */
  function signInFrom(
    url: string,
    localAddress: string,
    input: string,
    pass: string,
    domain?: string,
    forwardedFor?: string,
  ) {
    const path = domain ? authContract.appLogin.path : authContract.tenantLogin.path;
    const started = performance.now();
    return new Promise<{ status: number; code: number; ms: number }>((resolve, reject) => {
      const req = http.request(
        url + path,
        {
          method: 'POST',
          localAddress,
          headers: {
            'content-type': 'application/json',
            ...(domain ? { [Header.appDomain]: domain } : {}),
            ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              code: (JSON.parse(text) as { response_result: number }).response_result,
              ms: performance.now() - started,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ input, pass }));
    });
  }

  it('refuses a guesser at its address, never the owner: from an address that has not failed the owner signs in', async () => {
    const throttled = await startGateway({ LOGIN_THROTTLE_ATTEMPTS: '3', LOGIN_THROTTLE_WINDOW_S: '60' });
    try {
      const t = await tenantSession(throttled.url);
      for (let i = 0; i < 3; i++)
        expect(await signInFrom(throttled.url, '127.0.0.2', t.username, `salah${i}`)).toMatchObject({
          status: 400,
          code: -2,
        });
      expect(await signInFrom(throttled.url, '127.0.0.2', t.username, 'salah3')).toMatchObject({
        status: 429,
        code: Result.TOO_MANY_ATTEMPTS,
      });
      // the right password from the guesser's address is refused too: guessing cannot go on under the block
      expect(await signInFrom(throttled.url, '127.0.0.2', t.username, t.pass)).toMatchObject({ status: 429 });
      // the owner, from an address that has not failed, signs in
      expect(await signInFrom(throttled.url, '127.0.0.3', t.username, t.pass)).toMatchObject({ status: 200, code: 0 });
    } finally {
      await throttled.stop();
    }
  });

  it('counts by the address a trusted balancer forwards (TRUST_PROXY), and ignores X-Forwarded-For from anyone else', async () => {
    // 127.0.0.9 plays the load balancer; the guesser and the owner reach the gateway through it
    const throttled = await startGateway({
      LOGIN_THROTTLE_ATTEMPTS: '3',
      LOGIN_THROTTLE_WINDOW_S: '60',
      TRUST_PROXY: '127.0.0.9',
    });
    try {
      const t = await tenantSession(throttled.url);
      const viaBalancer = (from: string, pass: string) =>
        signInFrom(throttled.url, '127.0.0.9', t.username, pass, undefined, from);
      // the owner signs in from home through the balancer, then a guesser behind the same balancer tries
      expect(await viaBalancer('198.51.100.9', t.pass)).toMatchObject({ status: 200, code: 0 });
      for (let i = 0; i < 3; i++) expect(await viaBalancer('203.0.113.7', `salah${i}`)).toMatchObject({ code: -2 });
      expect(await viaBalancer('203.0.113.7', t.pass)).toMatchObject({ status: 429 });
      // the owner is not the guesser, though both came through the balancer's one address
      expect(await viaBalancer('198.51.100.9', t.pass)).toMatchObject({ status: 200, code: 0 });
      // a peer that is not the balancer cannot choose its address: the header is ignored, its own address counts
      const u = await tenantSession(throttled.url);
      for (let i = 0; i < 3; i++)
        expect(
          await signInFrom(throttled.url, '127.0.0.4', u.username, `salah${i}`, undefined, `192.0.2.${i + 1}`),
        ).toMatchObject({ code: -2 });
      expect(await signInFrom(throttled.url, '127.0.0.4', u.username, u.pass, undefined, '192.0.2.50')).toMatchObject({
        status: 429,
      });
    } finally {
      await throttled.stop();
    }
  });

  it('slows a guesser rotating addresses (no more guesses than from one), while the owner from its own address is not slowed', async () => {
    const throttled = await startGateway({ LOGIN_THROTTLE_ATTEMPTS: '3', LOGIN_THROTTLE_WINDOW_S: '60' });
    try {
      const t = await tenantSession(throttled.url);
      expect(await signInFrom(throttled.url, '127.0.0.3', t.username, t.pass)).toMatchObject({ code: 0 });
      for (let i = 0; i < 3; i++)
        expect(await signInFrom(throttled.url, `127.0.1.${i + 1}`, t.username, `salah${i}`)).toMatchObject({
          code: -2,
        });
      // two guesses at once from fresh addresses: checked one turn apart (window / attempts, at most 4 s here)
      const two = await Promise.all([
        signInFrom(throttled.url, '127.0.1.10', t.username, 'salah-a'),
        signInFrom(throttled.url, '127.0.1.11', t.username, 'salah-b'),
      ]);
      expect(two.map((r) => r.code)).toEqual([-2, -2]);
      expect(Math.max(...two.map((r) => r.ms))).toBeGreaterThanOrEqual(3500);
      // the owner from its own address: at once
      const home = await signInFrom(throttled.url, '127.0.0.3', t.username, t.pass);
      expect(home).toMatchObject({ status: 200, code: 0 });
      expect(home.ms).toBeLessThan(2000);
    } finally {
      await throttled.stop();
    }
  });

  it('answers 429 to names nobody has from an address past its count of them, never to an account that exists', async () => {
    const throttled = await startGateway({ LOGIN_THROTTLE_ATTEMPTS: '2', LOGIN_THROTTLE_WINDOW_S: '60' });
    try {
      const o = await tenantWithApp(throttled.url);
      const m = await memberWithRole(throttled.url, o, { sys_navs: ['_task_list_'] });
      // 3 × the account limit of unknown names (typos of a whole office)
      for (let i = 0; i < 6; i++)
        expect(await signInFrom(throttled.url, '127.0.0.4', unique('siapa'), 'apa saja', o.domain)).toMatchObject({
          code: -1,
        });
      expect(await signInFrom(throttled.url, '127.0.0.4', unique('siapa'), 'apa saja', o.domain)).toMatchObject({
        status: 429,
        code: Result.TOO_MANY_ATTEMPTS,
      });
      expect(await signInFrom(throttled.url, '127.0.0.4', m.username, m.pass, o.domain)).toMatchObject({ code: 0 });
      expect(await signInFrom(throttled.url, '127.0.0.4', o.username, o.pass)).toMatchObject({ code: 0 });
    } finally {
      await throttled.stop();
    }
  });

  it('throttles self-registration per address', async () => {
    const throttled = await startGateway({ REGISTER_THROTTLE_ATTEMPTS: '2' });
    try {
      const register = () => {
        const name = unique('reg');
        return call(throttled.url, authContract.register, {
          username: name,
          first: 'Siti',
          email: `${name}@contoh.id`,
          pass: 'rahasia123',
          passv: 'rahasia123',
          tenant_name: 'PT Maju',
        });
      };
      expect((await register()).body.response_result).toBe(0);
      expect((await register()).body.response_result).toBe(0);
      expect(outcome(await register())).toEqual({ status: 429, code: Result.TOO_MANY_ATTEMPTS });
    } finally {
      await throttled.stop();
    }
  });

  it('answers an unknown username as slowly as a wrong password (one scrypt run each), keeping the spec codes -1 and -2', async () => {
    const t = await tenantSession(gw.url);
    const timeOf = async (input: string, code: number) => {
      const started = performance.now();
      const r = await call(gw.url, authContract.tenantLogin, { input, pass: 'bukan-ini' });
      expect(r.body.response_result).toBe(code);
      return performance.now() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) {
      unknown.push(await timeOf(unique('tidakada'), -1));
      wrong.push(await timeOf(t.username, -2));
    }
    // before: 2 ms against 83 ms; the machine is shared, so only the order of magnitude is asserted
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
  });
});

describe('new passwords of at least 8 characters (issue 23 item 5)', () => {
  it('refuses 7 characters at registration, user add and password change with "Minimal 8 karakter"', async () => {
    const name = unique('reg');
    const reg = await call(gw.url, authContract.register, {
      username: name,
      first: 'Siti',
      email: `${name}@contoh.id`,
      pass: 'tujuh77',
      passv: 'tujuh77',
      tenant_name: 'PT Maju',
    });
    expect(reg.body).toMatchObject({
      response_result: -10,
      errors: expect.arrayContaining([{ path: 'pass', message: T.common.min(8) }]),
    });

    const o = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_task_list_'] });
    const auth = { tenant: o.tenant, domain: o.domain };
    const username = unique('usr');
    const add = await call(
      gw.url,
      usersContract.add,
      { username, first: 'Andi', email: `${username}@contoh.id`, pass: 'tujuh77', passv: 'tujuh77', role_id: m.roleId },
      auth,
    );
    expect(add.body).toMatchObject({
      response_result: -10,
      errors: expect.arrayContaining([{ path: 'pass', message: T.common.min(8) }]),
    });
    const change = await call(gw.url, usersContract.changePassword, { id: m.userId, passn: '  tujuh77  ' }, auth);
    expect(change.body).toMatchObject({ response_result: -10, errors: [{ path: 'passn', message: T.common.min(8) }] });
    expect(
      (await call(gw.url, usersContract.changePassword, { id: m.userId, passn: 'delapan8' }, auth)).body
        .response_result,
    ).toBe(0);
  });

  it('still signs in an account whose password predates the rule (4 characters)', async () => {
    const o = await tenantWithApp(gw.url);
    await gw.app.store.db
      .insert(accounts)
      .values({
        appId: o.appId,
        username: 'lama',
        email: 'lama@contoh.id',
        first: 'Lama',
        passHash: await hashPassword('abcd'),
        createdAt: Date.now(),
      })
      .run();
    const login = await call(gw.url, authContract.appLogin, { input: 'lama', pass: 'abcd' }, { domain: o.domain });
    expect(login.body).toMatchObject({ response_result: 0, name: 'Lama' });
    expect(await gw.app.store.db.select().from(accounts).where(eq(accounts.username, 'lama'))).toHaveLength(1);
  });
});
