// Shared k6 helpers for the card query scenarios: sign in (or register) the load-test tenant, find or create its
// application and a dashboard of cards, and the headers every call carries. Plain k6 JavaScript (ES modules).
import http from 'k6/http';
import { check, fail } from 'k6';
import { cardsDashboard, devicesWithSeries, seriesOf } from './cards.js';

export const BASE = __ENV.SENTRA_URL || 'http://127.0.0.1:8080';
const USER = __ENV.SENTRA_USER || 'k6tenant';
const PASS = __ENV.SENTRA_PASS || 'k6-rahasia';
export const DOMAIN = __ENV.SENTRA_DOMAIN || 'k6cards';
const JSON_HEADERS = { 'content-type': 'application/json' };

function post(path, body, headers) {
  return http.post(`${BASE}${path}`, JSON.stringify(body), {
    headers: Object.assign({}, JSON_HEADERS, headers || {}),
    tags: { name: path },
  });
}

/** Signs the tenant in, registering it on first use; answers the tenant headers. */
export function signIn() {
  let login = post('/service/web/tenant/account/auth/login', { input: USER, pass: PASS });
  if (login.json('response_result') !== 0) {
    post('/service/web/tenant/account/auth/register', {
      username: USER,
      first: 'K6',
      email: `${USER}@contoh.id`,
      pass: PASS,
      passv: PASS,
      tenant_name: 'K6 Load',
    });
    login = post('/service/web/tenant/account/auth/login', { input: USER, pass: PASS });
  }
  if (!check(login, { 'signed in': (r) => r.json('response_result') === 0 })) fail(`sign-in failed: ${login.body}`);
  return { 'x-tenant-id': String(login.json('id')), 'x-tenant-token': login.json('token') };
}

/** The application of the load test (created on first use); answers the member headers. */
export function application(tenant) {
  post('/service/web/application/add', { name: 'K6 Cards', domain: DOMAIN }, tenant);
  return Object.assign({}, tenant, { 'x-app-domain': DOMAIN });
}

/** The series the cards read (`SENTRA_SERIES`, sensor/config/param; default `pm/meter/power`). */
export const SERIES = seriesOf(__ENV.SENTRA_SERIES);

/** Ids of the application's devices that report the cards' series (at most `size`). */
export function devices(headers, size) {
  const r = http.get(`${BASE}/service/web/application/nav/device/devices`, {
    headers,
    tags: { name: 'device tree' },
  });
  if (!check(r, { 'device tree': (x) => x.json('response_result') === 0 })) fail(`device tree: ${r.body}`);
  return devicesWithSeries(r.json('devices'), SERIES, size || 100);
}

/** The card functions the scenarios exercise, with the card that reads each and the query it is fetched with. */
export const FUNCTIONS = {
  LATEST: { cat: 'SINGLE_VALUE_CARD', queryType: 'device', w: 1, h: 1, query: '' },
  AVG_HOURLY: {
    cat: 'LINE_CHART_CARD',
    fn: 'AVG',
    queryType: 'graph',
    w: 2,
    h: 2,
    query: '?range=TODAY&period=hour&interval=1',
  },
  SUM_DAILY_30D: { cat: 'BAR_CHART_CARD', fn: 'SUM', queryType: 'graph', w: 2, h: 2, query: 'DAILY' },
  USAGE_TODAY: { cat: 'SINGLE_VALUE_CARD', fn: 'USAGE', queryType: 'device', w: 1, h: 1, query: '?range=TODAY' },
  MAX_REALTIME: { cat: 'SINGLE_VALUE_CARD', fn: 'MAX', queryType: 'device', w: 1, h: 1, query: '?ndata=60' },
  TOTAL_DEVICE: { cat: 'SINGLE_VALUE_CARD', fn: 'TOTAL_DEVICE', queryType: 'tags', w: 1, h: 1, query: '' },
  MATH: { cat: 'SINGLE_VALUE_CARD', fn: 'MATH', queryType: 'condition', w: 1, h: 1, query: '' },
};

/** The path suffix of a function's query (the 30-day daily chart ends now). */
export function queryOf(name) {
  const q = FUNCTIONS[name].query;
  if (q !== 'DAILY') return q;
  const end = Date.now();
  return `?start=${end - 30 * 86400000}&end=${end}&period=day&interval=1`;
}

/**
 * A fresh dashboard `K6 Cards` with one card per function and device (the devices reporting `SENTRA_SERIES`): a
 * dashboard of an earlier run is removed first, since it may name devices that are gone or lack the series.
 */
export function dashboard(headers, deviceIds) {
  const list = http.get(`${BASE}/service/web/application/nav/list`, { headers, tags: { name: 'nav list' } });
  for (const stale of (list.json('navs') || []).filter((n) => n.label === 'K6 Cards')) {
    const removed = post('/service/web/application/nav/remove', { id: stale.id }, headers);
    if (!check(removed, { 'stale dashboard removed': (r) => r.json('response_result') === 0 }))
      fail(`removing the dashboard of an earlier run: ${removed.body}`);
  }
  const conf = cardsDashboard(FUNCTIONS, deviceIds, SERIES);
  const added = post('/service/web/application/nav/add', { label: 'K6 Cards', conf_dashboard: conf }, headers);
  if (!check(added, { 'dashboard created': (r) => r.json('response_result') === 0 })) fail(`dashboard: ${added.body}`);
  return added.json('id');
}

/**
 * Reads each LATEST card once: every one must answer a value, or the run would time the empty path. Answers the
 * number of empty cards (setup fails on any).
 */
export function emptyLatestCards(headers, dashboardId, count) {
  let empty = 0;
  for (let i = 0; i < count; i++) {
    const r = http.get(`${BASE}/fetch/web/g/${dashboardId}/latest_${i}`, { headers, tags: { name: 'card check' } });
    if (r.json('response_result') !== 0 || r.json('value') === null || r.json('value') === undefined) empty++;
  }
  return empty;
}
