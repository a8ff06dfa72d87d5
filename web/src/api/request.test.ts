import { describe, expect, it, vi } from 'vitest';
import { contracts, Header, T } from '@sentra/contracts';
import { createRequester, isOk, type RequestEnv } from './request.js';
import { failureMessage } from './outcome.js';
import { FIXED_PERIODS } from './period.js';
import { areaOf } from './area.js';

function json(status: number, body: unknown, statusText = 'OK') {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });
}

function setup(
  over: Partial<RequestEnv> = {},
  answer: () => Promise<Response> | Response = () => json(200, { response_result: 0 }),
) {
  const fetchMock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => answer());
  const env: RequestEnv = {
    serviceBase: 'http://svc.test',
    fetchBase: 'http://fetch.test',
    timeoutMs: 30_000,
    fetch: fetchMock as unknown as typeof fetch,
    tenant: () => ({ id: 7, token: 'tenant-token' }),
    account: (domain) => (domain === 'kebun' ? { id: 21, token: 'account-token' } : null),
    area: () => ({ isTenant: true }),
    onUnauthorized: vi.fn(),
    onPaymentRequired: vi.fn(),
    ...over,
  };
  const sent = () => {
    const [url, init] = fetchMock.mock.calls.at(-1)!;
    return { url: String(url), init: init!, headers: init!.headers as Record<string, string> };
  };
  return { api: createRequester(env), env, fetchMock, sent };
}

describe('request layer: addresses and methods', () => {
  it('joins a path to the service base and sends GET params as a query string', async () => {
    const { api, sent } = setup();
    await api.request({ path: '/service/web/application/list', params: { page: 2, q: 'a b', none: undefined } });
    expect(sent().url).toBe('http://svc.test/service/web/application/list?page=2&q=a+b');
    expect(sent().init.method).toBe('GET');
    expect(sent().init.body).toBeUndefined();
  });
  it('uses the fetch base for /fetch paths and a POST JSON body', async () => {
    const { api, sent } = setup();
    await api.request({ method: 'POST', path: '/fetch/web/p/x', body: { a: 1 } });
    expect(sent().url).toBe('http://fetch.test/fetch/web/p/x');
    expect(sent().headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent().init.body as string)).toEqual({ a: 1 });
  });
  it('takes a full url as given', async () => {
    const { api, sent } = setup();
    await api.request({ url: 'http://elsewhere.test/x' });
    expect(sent().url).toBe('http://elsewhere.test/x');
  });
  it('refuses a call with neither url nor path as an input failure, sending nothing', async () => {
    const { api, fetchMock } = setup();
    const r = await api.request({ method: 'GET' });
    expect(r).toMatchObject({ code: 0, failure: 'input' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
  it('answers { code, text, headers, body }', async () => {
    const { api } = setup({}, () => json(200, { response_result: 0, data: [] }, 'OK'));
    const r = await api.request({ path: '/service/web/application/list' });
    expect(r.code).toBe(200);
    expect(r.text).toBe('OK');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toEqual({ response_result: 0, data: [] });
  });
  it('reads a text answer as text', async () => {
    const { api } = setup({}, () => new Response('a,b\n1,2', { status: 200 }));
    const r = await api.request({ path: '/fetch/web/csv', responseType: 'text' });
    expect(r.body).toBe('a,b\n1,2');
  });
});

describe('request layer: headers per principal', () => {
  it('sends the tenant id and token, plus the application domain', async () => {
    const { api, sent } = setup();
    await api.request({ path: '/service/web/x', isTenant: true, domain: 'kebun' });
    expect(sent().headers).toMatchObject({
      [Header.tenantId]: '7',
      [Header.tenantToken]: 'tenant-token',
      [Header.appDomain]: 'kebun',
    });
    expect(sent().headers[Header.accountId]).toBeUndefined();
  });
  it("sends the application user's id and token of the current domain", async () => {
    const { api, sent } = setup();
    await api.request({ path: '/service/web/x', isTenant: false, domain: 'kebun' });
    expect(sent().headers).toMatchObject({
      [Header.accountId]: '21',
      [Header.accountToken]: 'account-token',
      [Header.appDomain]: 'kebun',
    });
    expect(sent().headers[Header.tenantId]).toBeUndefined();
  });
  it('with usingAuth false and a domain, sends only the domain header', async () => {
    const { api, sent } = setup();
    await api.request({
      method: 'POST',
      path: '/service/web/application/account/auth/login',
      usingAuth: false,
      domain: 'kebun',
      body: {},
    });
    expect(Object.keys(sent().headers).sort()).toEqual([Header.appDomain, 'content-type'].sort());
  });
  it('gives an unauthorized result and sends nothing when credentials are missing', async () => {
    const { api, fetchMock, env } = setup({ tenant: () => null });
    const r = await api.request({ path: '/service/web/application/list', isTenant: true });
    expect(r).toMatchObject({ code: 401, failure: 'unauthorized' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(env.onUnauthorized).toHaveBeenCalledWith({ isTenant: true, domain: undefined });
    const member = await api.request({ path: '/service/web/x', isTenant: false, domain: 'lain' });
    expect(member.code).toBe(401);
    expect(fetchMock).not.toHaveBeenCalled();
  });
  it('defaults isTenant to the area of the current page', async () => {
    const { api, sent } = setup({ area: () => areaOf('/kebun/_device_list_') });
    await api.request({ path: '/service/web/x', domain: 'kebun' });
    expect(sent().headers[Header.accountId]).toBe('21');
  });
});

describe('request layer: contract calls', () => {
  it('fills the path from the contract and the input, once', async () => {
    const { api, sent } = setup();
    await api.call(contracts.apps.getByDomain, { domain: 'kebun' }, { isTenant: true, domain: 'kebun' });
    expect(sent().url).toBe('http://svc.test/service/web/application/get/domain/kebun');
  });
  it('sends tenant-level calls without an application domain, even inside an application page', async () => {
    const { api, sent } = setup({ area: () => areaOf('/admin/kebun/@about') });
    await api.call(contracts.apps.list);
    expect(sent().headers[Header.appDomain]).toBeUndefined();
    expect(sent().headers[Header.tenantId]).toBe('7');
  });
  it('sends member calls with the domain of the page', async () => {
    const { api, sent } = setup({ area: () => areaOf('/admin/kebun/@about') });
    await api.call(contracts.apps.menu);
    expect(sent().headers[Header.appDomain]).toBe('kebun');
  });
  it('sends public calls without credentials', async () => {
    const { api, sent } = setup({ tenant: () => null });
    await api.call(contracts.auth.tenantLogin, { input: 'budi', pass: 'rahasia' });
    expect(sent().headers[Header.tenantId]).toBeUndefined();
    expect(JSON.parse(sent().init.body as string)).toEqual({ input: 'budi', pass: 'rahasia' });
  });
  it('refuses a contract call whose path parameter is missing, sending nothing', async () => {
    const { api, fetchMock } = setup();
    const r = await api.call(contracts.apps.getByDomain, {} as { domain: string });
    expect(r.failure).toBe('input');
    expect(fetchMock).not.toHaveBeenCalled();
  });
  it('recognises success as HTTP 200 with response_result 0', async () => {
    const ok = await setup({}, () => json(200, { response_result: 0, data: [] })).api.call(contracts.apps.list);
    const bad = await setup({}, () => json(400, { response_result: -3, message: 'x' })).api.call(contracts.apps.list);
    expect(isOk(ok)).toBe(true);
    expect(isOk(bad)).toBe(false);
  });
});

describe('request layer: time-outs', () => {
  it('aborts after the default time-out and answers a timeout failure', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn(
        (_u: unknown, init?: RequestInit) =>
          new Promise<Response>((_, reject) =>
            init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      );
      const { api } = setup({ fetch: fetchMock as unknown as typeof fetch, timeoutMs: 30_000 });
      const pending = api.request({ path: '/service/web/x' });
      await vi.advanceTimersByTimeAsync(29_999);
      expect(fetchMock.mock.calls[0]![1]!.signal!.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ code: 0, failure: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });
  it("uses the contract's own time-out (add application 180000 ms)", async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn(
        (_u: unknown, init?: RequestInit) =>
          new Promise<Response>((_, reject) =>
            init!.signal!.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
      );
      const { api } = setup({ fetch: fetchMock as unknown as typeof fetch });
      const pending = api.call(contracts.apps.add, { name: 'Kebun Raya', domain: 'kebun' });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(fetchMock.mock.calls[0]![1]!.signal!.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(150_000);
      expect((await pending).failure).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });
  it('answers a network failure when fetch rejects', async () => {
    const { api } = setup({}, () => Promise.reject(new TypeError('Failed to fetch')));
    const r = await api.request({ path: '/service/web/x' });
    expect(r).toMatchObject({ code: 0, failure: 'network' });
    expect(failureMessage(r, { fallback: 'x' })).toBe(T.common.noConnection);
  });
});

describe('request layer: periods', () => {
  it("converts 'march', 'april' and 'may' into fixed 2020 start and end timestamps", async () => {
    const { api, sent } = setup();
    await api.request({ path: '/fetch/web/g/1/a', params: { period: 'april', device: 3 } });
    const q = new URL(sent().url).searchParams;
    expect(q.get('period')).toBeNull();
    expect(Number(q.get('start'))).toBe(FIXED_PERIODS.april!.start);
    expect(Number(q.get('end'))).toBe(FIXED_PERIODS.april!.end);
    expect(q.get('device')).toBe('3');
  });
  it('uses calendar months of 2020 in Asia/Jakarta', () => {
    expect(new Date(FIXED_PERIODS.march!.start).toISOString()).toBe('2020-02-29T17:00:00.000Z');
    expect(new Date(FIXED_PERIODS.march!.end + 1).toISOString()).toBe('2020-03-31T17:00:00.000Z');
    expect(new Date(FIXED_PERIODS.may!.end + 1).toISOString()).toBe('2020-05-31T17:00:00.000Z');
  });
  it('leaves other periods alone', async () => {
    const { api, sent } = setup();
    await api.request({ path: '/fetch/web/g/1/a', params: { period: 'day' } });
    expect(new URL(sent().url).searchParams.get('period')).toBe('day');
  });
});

describe('request layer: global 401 and 402', () => {
  it('reports a 401 answer to the global handler with the principal and domain', async () => {
    const { api, env } = setup({}, () => json(401, { response_result: -14 }));
    const r = await api.request({ path: '/service/web/x', isTenant: false, domain: 'kebun' });
    expect(r.code).toBe(401);
    expect(env.onUnauthorized).toHaveBeenCalledWith({ isTenant: false, domain: 'kebun' });
  });
  it('does not report a 401 of an unauthenticated call (the sign-in handles it)', async () => {
    const { api, env } = setup({}, () => json(401, { response_result: -14 }));
    await api.request({
      method: 'POST',
      path: '/service/web/application/account/auth/login',
      usingAuth: false,
      domain: 'kebun',
    });
    expect(env.onUnauthorized).not.toHaveBeenCalled();
  });
  it('reports a 402 with the isTenant of the answer', async () => {
    const { api, env } = setup({}, () => json(402, { response_result: -40, isTenant: false }));
    await api.request({ path: '/service/web/x', isTenant: true });
    expect(env.onPaymentRequired).toHaveBeenCalledWith({ isTenant: false });
  });
});

describe('failure messages', () => {
  const rules = { byCode: contracts.auth.tenantLogin.errors, fallback: T.login.failed };
  const r = (code: number, body: unknown) => ({ code, text: '', headers: {}, body });
  it.each([
    [400, { response_result: -1 }, T.login.unknownUsername],
    [400, { response_result: -2 }, T.login.wrongPassword],
    [400, { response_result: -10 }, T.login.failed],
    [500, { response_result: -99 }, T.common.serverDown],
    [404, null, T.login.failed],
  ])('HTTP %i %j gives %s', (code, body, message) => {
    expect(failureMessage(r(code, body), rules)).toBe(message);
  });
});
