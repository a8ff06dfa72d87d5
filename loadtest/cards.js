// k6 scenarios for the card query path (GET /fetch/web/g/{dashboardId}/{componentKey}): setup signs in, finds the
// devices and builds (or reuses) a dashboard with one card per query function and device; then a ramping-VU scenario
// and a constant-arrival-rate scenario fetch cards, with thresholds on p95 and errors and one trend per function.
//   k6 run loadtest/cards.js                                    (gateway on http://127.0.0.1:8080)
//   SENTRA_URL=http://127.0.0.1:8080 RATE=3000 k6 run loadtest/cards.js
import http from 'k6/http';
import { check } from 'k6';
import { Rate, Trend, Counter } from 'k6/metrics';
import { application, dashboard, devices, signIn, queryOf, FUNCTIONS, BASE } from './lib/session.js';

const RATE = Number(__ENV.RATE || 1000);
const DURATION = __ENV.DURATION || '1m';

/** one latency trend per query function, and the failures */
const trends = {};
for (const name of Object.keys(FUNCTIONS)) trends[name] = new Trend(`card_${name.toLowerCase()}_ms`, true);
const cardErrors = new Rate('card_errors');
const cardAlerts = new Counter('card_alerts');

export const options = {
  setupTimeout: '120s',
  scenarios: {
    ramping: {
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [
        { duration: '20s', target: 20 },
        { duration: '40s', target: 50 },
        { duration: '20s', target: 0 },
      ],
      gracefulRampDown: '5s',
      exec: 'cards',
    },
    constant: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: 50,
      maxVUs: 400,
      startTime: '85s',
      exec: 'cards',
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    card_errors: ['rate<0.01'],
    'http_req_duration{scenario:constant}': ['p(95)<50'],
    card_latest_ms: ['p(95)<5'],
    card_avg_hourly_ms: ['p(95)<20'],
    card_sum_daily_30d_ms: ['p(95)<20'],
  },
};

export function setup() {
  const headers = application(signIn());
  const ids = devices(headers, 100);
  if (ids.length === 0) throw new Error('the application has no devices: run `npm run sim` (or npm start with the demo fleet) first');
  const dashboardId = dashboard(headers, ids);
  const keys = [];
  for (const name of Object.keys(FUNCTIONS)) for (let i = 0; i < Math.min(10, ids.length); i++) keys.push({ name, key: `${name.toLowerCase()}_${i}` });
  return { headers, dashboardId, keys };
}

export function cards(data) {
  const pick = data.keys[Math.floor(Math.random() * data.keys.length)];
  const res = http.get(`${BASE}/fetch/web/g/${data.dashboardId}/${pick.key}${queryOf(pick.name)}`, { headers: data.headers, tags: { name: `card ${pick.name}` } });
  const ok = check(res, {
    'HTTP 200': (r) => r.status === 200,
    'response_result 0': (r) => r.json('response_result') === 0,
  });
  cardErrors.add(!ok);
  if (ok && res.json('success') === false) cardAlerts.add(1);
  trends[pick.name].add(res.timings.duration);
}
