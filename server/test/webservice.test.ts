// Web-service cards (GET /fetch/web/ws/{dashboardId}/{componentKey}): the gateway fetches the card's stored address,
// only for allow-listed hosts (WEBSERVICE_ALLOW, empty refuses all), within a time-out and a size limit.
import { sql } from 'drizzle-orm';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, WebserviceCode, dashboardsContract, webserviceContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { tenantWithApp } from './fixtures.js';
import { isAllowed, parseHostAllowList } from '../src/platform/http/host-allow-list.js';
import { loadConfig } from '../src/platform/config.js';

let gw: Running;
let upstream: http.Server;
let origin: string;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let dashboardId: number;

const card = (key: string, cat: string, config: Record<string, unknown>) => ({
  key,
  cat,
  x: 0,
  y: 0,
  w: 2,
  h: 2,
  model: { config },
});

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    if (req.url === '/weather')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: { temp: 31.5, city: 'Jakarta' } }));
    if (req.url === '/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('OK 42');
    if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 8000);
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('[' + '1,'.repeat(300_000) + '1]');
    }
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gw = await startGateway({ WEBSERVICE_ALLOW: `127.0.0.1:${(upstream.address() as AddressInfo).port}` });
  owner = await tenantWithApp(gw.url);
  const dashboard = {
    weather: card('weather', 'WEBSERVICE', { url: `${origin}/weather`, path: 'data.temp' }),
    whole: card('whole', 'WEBSERVICE_FETCH', { url: `${origin}/weather` }),
    text: card('text', 'WEBSERVICE', { url: `${origin}/text` }),
    slow: card('slow', 'WEBSERVICE', { url: `${origin}/slow` }),
    huge: card('huge', 'WEBSERVICE', { url: `${origin}/huge` }),
    redirect: card('redirect', 'WEBSERVICE', { url: `${origin}/redirect` }),
    broken: card('broken', 'WEBSERVICE', { url: `${origin}/broken` }),
    other: card('other', 'WEBSERVICE', { url: 'http://example.com/data' }),
    nourl: card('nourl', 'WEBSERVICE', {}),
    value: { key: 'value', cat: 'SINGLE_VALUE_CARD', x: 2, y: 0, w: 1, h: 1 },
  };
  const r = await call(
    gw.url,
    dashboardsContract.add,
    {
      label: 'Web service',
      conf_dashboard: { version: '2', config: { refresh: 0 }, view: { decimal: 2 }, var: {}, dashboard },
    },
    { tenant: owner.tenant, domain: owner.domain },
  );
  expect(r.body.response_result).toBe(0);
  dashboardId = r.body.data?.id ?? r.body.id;
}, 30_000);

afterAll(async () => {
  await gw?.stop();
  await new Promise((r) => upstream?.close(r));
});

const fetchCard = (componentKey: string) =>
  call(gw.url, webserviceContract.fetch, { dashboardId, componentKey }, { tenant: owner.tenant, domain: owner.domain });

describe('web-service cards', () => {
  it("answers the endpoint's JSON at the card's path", async () => {
    const r = await fetchCard('weather');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ response_result: 0, status: 200, content_type: 'application/json', data: 31.5 });
    expect(typeof r.body.fetched_at).toBe('number');
    expect((await fetchCard('whole')).body.data).toEqual({ data: { temp: 31.5, city: 'Jakarta' } });
    expect((await fetchCard('text')).body.data).toBe('OK 42');
  });

  it('refuses a host that is not on the allow-list (-50), before any request leaves', async () => {
    const r = await fetchCard('other');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      response_result: WebserviceCode.NOT_ALLOWED,
      message: T.cardViews.webserviceNotAllowed,
    });
  });

  it('gives up after the time-out (-51)', async () => {
    const r = await fetchCard('slow');
    expect(r.body).toMatchObject({
      response_result: WebserviceCode.UPSTREAM_TIMEOUT,
      message: T.cardViews.webserviceTimeout,
    });
  }, 15_000);

  it('stops reading beyond the size limit (-52)', async () => {
    expect((await fetchCard('huge')).body).toMatchObject({ response_result: WebserviceCode.TOO_LARGE });
  });

  it('does not follow redirects and reports failed endpoints (-53)', async () => {
    expect((await fetchCard('redirect')).body).toMatchObject({ response_result: WebserviceCode.UPSTREAM_FAILED });
    expect((await fetchCard('broken')).body).toMatchObject({ response_result: WebserviceCode.UPSTREAM_FAILED });
  });

  it('answers -10 for a card without address or of another type, 404 for an unknown card', async () => {
    expect((await fetchCard('nourl')).body).toMatchObject({
      response_result: -10,
      message: T.cardViews.webserviceNoSource,
    });
    expect((await fetchCard('value')).body).toMatchObject({
      response_result: -10,
      message: T.cardViews.webserviceNotCard,
    });
    expect((await fetchCard('missing')).status).toBe(404);
  });

  it('answers -10 (not a 500) for a stored card whose body is broken', async () => {
    const auth = { tenant: owner.tenant, domain: owner.domain };
    const added = await call(
      gw.url,
      dashboardsContract.add,
      { label: 'Rusak', conf_dashboard: { version: '2', config: { refresh: 0 }, var: {}, dashboard: {} } },
      auth,
    );
    const id = added.body.data?.id ?? added.body.id;
    // stored before a schema change (or written outside the service): the card no longer passes the schema
    const rusak = { ...card('rusak', 'WEBSERVICE', { url: `${origin}/weather` }), w: 'lebar' };
    await gw.app.store.exec(
      sql`UPDATE dashboards SET conf_dashboard = ${JSON.stringify({ version: '2', config: { refresh: 0 }, var: {}, dashboard: { rusak } })} WHERE id = ${id}`,
    );
    const r = await call(gw.url, webserviceContract.fetch, { dashboardId: id, componentKey: 'rusak' }, auth);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ response_result: -10, message: T.cards.invalidComponent });
  });

  it('is for the application only: another tenant gets 404', async () => {
    const stranger = await tenantWithApp(gw.url);
    const r = await call(
      gw.url,
      webserviceContract.fetch,
      { dashboardId, componentKey: 'weather' },
      { tenant: stranger.tenant, domain: stranger.domain },
    );
    expect(r.status).toBe(404);
  });
});

describe('allow-list', () => {
  const parsed = (raw: string) => {
    const r = parseHostAllowList(raw);
    if (!r.ok) throw new Error(r.error);
    return r.list;
  };
  it('is empty by default: every address is refused', () => {
    expect(loadConfig({}).WEBSERVICE_ALLOW).toEqual([]);
    expect(isAllowed('https://api.example.com/x', [])).toBe(false);
  });
  it('matches hosts, host:port and *.domain; only http(s), no credentials in the address', () => {
    const allow = parsed('api.example.com, 10.0.0.5:8080, *.bmkg.go.id, , [::1]:8443');
    expect(allow).toHaveLength(4);
    expect(isAllowed('https://api.example.com/v1', allow)).toBe(true);
    expect(isAllowed('http://api.example.com:9999/v1', allow)).toBe(true);
    expect(isAllowed('http://10.0.0.5:8080/a', allow)).toBe(true);
    expect(isAllowed('http://10.0.0.5/a', allow)).toBe(false);
    expect(isAllowed('https://data.bmkg.go.id/x', allow)).toBe(true);
    expect(isAllowed('https://bmkg.go.id.evil.com/x', allow)).toBe(false);
    expect(isAllowed('ftp://api.example.com/x', allow)).toBe(false);
    expect(isAllowed('https://user:pw@api.example.com/x', allow)).toBe(false);
    expect(isAllowed('https://api.example.com.evil.org/', allow)).toBe(false);
    expect(isAllowed('https://[::1]:8443/x', allow)).toBe(true);
  });
  it('a malformed entry stops the gateway at start, naming it (it was dropped without a word)', () => {
    expect(() => loadConfig({ WEBSERVICE_ALLOW: 'api.example.com, bad entry!' })).toThrow(
      /WEBSERVICE_ALLOW.*bad entry!/,
    );
    expect(loadConfig({ WEBSERVICE_ALLOW: 'api.example.com' }).WEBSERVICE_ALLOW).toEqual([
      { host: 'api.example.com', port: undefined, wildcard: false },
    ]);
  });
});
