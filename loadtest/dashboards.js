// k6 scenario of a dashboard view: open a dashboard (GET /fetch/web/d/{id}) and fetch every card of it, as the web
// does on first paint and on the refresh button. Reuses the setup of cards.js.
//   k6 run loadtest/dashboards.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import { application, dashboard, devices, signIn, queryOf, FUNCTIONS, BASE, SERIES } from './lib/session.js';

const firstPaint = new Trend('dashboard_first_paint_ms', true);

export const options = {
  setupTimeout: '120s',
  scenarios: {
    viewers: { executor: 'constant-vus', vus: Number(__ENV.VUS || 20), duration: __ENV.DURATION || '1m' },
  },
  thresholds: { http_req_failed: ['rate<0.01'], dashboard_first_paint_ms: ['p(95)<1500'] },
};

export function setup() {
  const headers = application(signIn());
  const ids = devices(headers, 100);
  if (ids.length === 0)
    throw new Error(`no device of the application reports ${SERIES.sensor}/${SERIES.config}/${SERIES.param}`);
  return { headers, dashboardId: dashboard(headers, ids) };
}

export default function (data) {
  const started = Date.now();
  const view = http.get(`${BASE}/fetch/web/d/${data.dashboardId}`, {
    headers: data.headers,
    tags: { name: 'dashboard' },
  });
  check(view, { 'dashboard 200': (r) => r.status === 200 });
  const conf = view.json('data.conf_dashboard') || {};
  const keys = Object.keys(conf.dashboard || {});
  const requests = keys.map((key) => {
    const name = Object.keys(FUNCTIONS).find((n) => key.startsWith(n.toLowerCase())) || 'LATEST';
    return [
      'GET',
      `${BASE}/fetch/web/g/${data.dashboardId}/${key}${queryOf(name)}`,
      null,
      { headers: data.headers, tags: { name: 'card' } },
    ];
  });
  const answers = http.batch(requests);
  check(answers, { 'every card 200': (rs) => rs.every((r) => r.status === 200) });
  firstPaint.add(Date.now() - started);
  sleep(1);
}
