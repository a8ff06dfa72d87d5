// k6 scenarios for the card query path (GET /fetch/web/g/{dashboardId}/{componentKey}): setup signs in, finds the
// devices and builds (or reuses) a dashboard with one card per query function and device; then a ramping-VU scenario
// and a constant-arrival-rate scenario fetch cards, with thresholds on p95 and errors and one trend per function.
// The defaults suit a 2-core machine running the gateway and k6 together; every stage, VU count and rate is an
// environment variable (lib/profile.js, loadtest/README.md), e.g. the heavy profile for a bigger machine:
//   k6 run loadtest/cards.js                                    (gateway on http://127.0.0.1:8080)
//   RAMP_STAGES=20s:20,40s:50,20s:0 RAMP_SLEEP=0 RATE=1000 PRE_VUS=50 MAX_VUS=400 k6 run loadtest/cards.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Rate, Trend, Counter } from 'k6/metrics';
import {
  application,
  dashboard,
  devices,
  emptyLatestCards,
  signIn,
  queryOf,
  FUNCTIONS,
  BASE,
  SERIES,
} from './lib/session.js';
import { cardsProfile } from './lib/profile.js';

const profile = cardsProfile(__ENV);

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
      startVUs: profile.startVUs,
      stages: profile.stages,
      gracefulRampDown: '5s',
      exec: 'viewer',
    },
    constant: {
      executor: 'constant-arrival-rate',
      rate: profile.rate,
      timeUnit: '1s',
      duration: profile.duration,
      preAllocatedVUs: profile.preAllocatedVUs,
      maxVUs: profile.maxVUs,
      startTime: profile.constantStart,
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
  const series = `${SERIES.sensor}/${SERIES.config}/${SERIES.param}`;
  if (ids.length === 0)
    throw new Error(`no device of the application reports ${series}: run \`npm run sim\` (or npm start) first`);
  const dashboardId = dashboard(headers, ids);
  const empty = emptyLatestCards(headers, dashboardId, Math.min(10, ids.length));
  if (empty > 0) throw new Error(`${empty} LATEST cards on ${series} answer no value: the run would time empty cards`);
  const keys = [];
  for (const name of Object.keys(FUNCTIONS))
    for (let i = 0; i < Math.min(10, ids.length); i++) keys.push({ name, key: `${name.toLowerCase()}_${i}` });
  return { headers, dashboardId, keys };
}

export function cards(data) {
  const pick = data.keys[Math.floor(Math.random() * data.keys.length)];
  const res = http.get(`${BASE}/fetch/web/g/${data.dashboardId}/${pick.key}${queryOf(pick.name)}`, {
    headers: data.headers,
    tags: { name: `card ${pick.name}` },
  });
  const ok = check(res, {
    'HTTP 200': (r) => r.status === 200,
    'response_result 0': (r) => r.json('response_result') === 0,
  });
  cardErrors.add(!ok);
  if (ok && res.json('success') === false) cardAlerts.add(1);
  trends[pick.name].add(res.timings.duration);
}

/** The ramping scenario's VU: a card request, then `RAMP_SLEEP` seconds of pause (0 = back to back). */
export function viewer(data) {
  cards(data);
  if (profile.sleep > 0) sleep(profile.sleep);
}
