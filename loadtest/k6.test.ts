// The k6 scripts are plain ES modules a stock `k6 run` accepts: they parse as modules, import only k6's own modules
// and each other, export the options k6 reads, and define the scenarios and thresholds the README promises.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain k6 JavaScript without types
import { cardsProfile } from './lib/profile.js';
// @ts-expect-error plain k6 JavaScript without types
import { cardsDashboard, devicesWithSeries, seriesOf } from './lib/cards.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const scripts = ['cards.js', 'dashboards.js', 'lib/session.js', 'lib/profile.js', 'lib/cards.js'];
const K6_MODULES = new Set([
  'k6',
  'k6/http',
  'k6/metrics',
  'k6/ws',
  'k6/crypto',
  'k6/encoding',
  'k6/execution',
  'k6/data',
  'k6/timers',
]);

/** `node --check` on a .mjs copy: the module grammar (import/export) is parsed, nothing is linked or run. */
function checkModule(file: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k6-'));
  const copy = path.join(dir, `${path.basename(file, '.js')}.mjs`);
  fs.writeFileSync(copy, fs.readFileSync(path.join(here, file)));
  try {
    execFileSync(process.execPath, ['--check', copy], { stdio: 'pipe' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const importsOf = (source: string) => [...source.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

describe('k6 scripts', () => {
  it.each(scripts)('%s parses as an ES module', (file) => {
    expect(() => checkModule(file)).not.toThrow();
  });
  it.each(scripts)('%s imports only k6 modules and its own files', (file) => {
    const source = fs.readFileSync(path.join(here, file), 'utf8');
    for (const spec of importsOf(source)) {
      if (spec.startsWith('.')) expect(fs.existsSync(path.join(here, path.dirname(file), spec))).toBe(true);
      else expect(K6_MODULES.has(spec)).toBe(true);
    }
  });
  it('cards.js has a ramping and a constant-arrival-rate scenario, thresholds on p95 and errors, and a trend per function', () => {
    const source = fs.readFileSync(path.join(here, 'cards.js'), 'utf8');
    expect(source).toMatch(/executor: 'ramping-vus'/);
    expect(source).toMatch(/executor: 'constant-arrival-rate'/);
    expect(source).toMatch(/http_req_failed: \['rate<0\.01'\]/);
    expect(source).toMatch(/p\(95\)</);
    expect(source).toMatch(/new Trend\(`card_\$\{name\.toLowerCase\(\)\}_ms`/);
    expect(source).toMatch(/export const options/);
    expect(source).toMatch(/export function setup/);
  });
});

describe('cards.js load profile from the environment', () => {
  it('defaults to a ramp of at most 8 pausing VUs and 100 requests/s, which a 2-core machine meets', () => {
    const p = cardsProfile({});
    expect(p.stages).toEqual([
      { duration: '15s', target: 4 },
      { duration: '30s', target: 8 },
      { duration: '15s', target: 0 },
    ]);
    expect(p).toMatchObject({
      startVUs: 1,
      sleep: 0.1,
      rate: 100,
      duration: '1m',
      preAllocatedVUs: 10,
      maxVUs: 100,
      constantStart: '65s',
    });
  });
  it('takes the heavy profile (the former fixed 1 → 20 → 50 VUs back to back, 1,000 requests/s) from variables', () => {
    const p = cardsProfile({
      RAMP_STAGES: '20s:20,40s:50,20s:0',
      RAMP_SLEEP: '0',
      RATE: '1000',
      PRE_VUS: '50',
      MAX_VUS: '400',
      DURATION: '2m',
    });
    expect(p.stages.map((s: { target: number }) => s.target)).toEqual([20, 50, 0]);
    expect(p).toMatchObject({
      sleep: 0,
      rate: 1000,
      duration: '2m',
      preAllocatedVUs: 50,
      maxVUs: 400,
      constantStart: '85s',
    });
  });
  it('never allocates fewer VUs at most than it pre-allocates', () => {
    expect(cardsProfile({ PRE_VUS: '60', MAX_VUS: '20' }).maxVUs).toBe(60);
  });
  it.each([
    [{ RAMP_STAGES: '20:20' }, 'RAMP_STAGES'],
    [{ RAMP_STAGES: '20s:-1' }, 'RAMP_STAGES'],
    [{ RATE: 'viel' }, 'RATE'],
    [{ RATE: '-5' }, 'RATE'],
    [{ RAMP_SLEEP: 'x' }, 'RAMP_SLEEP'],
    [{ DURATION: 'lama' }, 'DURATION'],
  ])('stops on %o with a message naming %s', (env, name) => {
    expect(() => cardsProfile(env)).toThrow(new RegExp(`^${name}: `));
  });
});

describe('the cards of the scenarios read devices that have their series', () => {
  // a demo-like application: meters report pm/meter/power, the others something else
  const tree = {
    '7': { pm: { meter: { power: { r: null, total: null }, energy: null } } },
    '3': { gps: { data: { speed: null } } },
    '12': { pm: { meter: { energy: null } } },
    '5': { pm: { meter: { power: { total: null } } } },
    '9': {},
  };
  it('picks only the devices reporting the series, lowest id first, at most the number asked', () => {
    const power = seriesOf(undefined);
    expect(power).toEqual({ sensor: 'pm', config: 'meter', param: 'power' });
    expect(devicesWithSeries(tree, power, 100)).toEqual([5, 7]);
    expect(devicesWithSeries(tree, power, 1)).toEqual([5]);
    expect(devicesWithSeries(tree, seriesOf('gps/data/speed'), 100)).toEqual([3]);
    expect(devicesWithSeries({ '1': { ['__proto__']: {} } }, seriesOf('a/b/c'), 10)).toEqual([]);
  });
  it('refuses a SENTRA_SERIES that is not sensor/config/param', () => {
    expect(() => seriesOf('pm/meter')).toThrow(/^SENTRA_SERIES: /);
    expect(() => seriesOf('pm//power')).toThrow(/^SENTRA_SERIES: /);
  });
  it('builds one card per function and device on those devices', () => {
    const functions = { LATEST: { cat: 'SINGLE_VALUE_CARD', queryType: 'device', w: 1, h: 1, query: '' } };
    const conf = cardsDashboard(functions, [5, 7], seriesOf(undefined));
    expect(Object.keys(conf.dashboard)).toEqual(['latest_0', 'latest_1']);
    expect(conf.dashboard.latest_1.model.value).toMatchObject({ device_id: 7, sensor: 'pm', param: 'power' });
  });
  it('removes the dashboard of an earlier run and checks that its cards answer values before timing them', () => {
    const session = fs.readFileSync(path.join(here, 'lib/session.js'), 'utf8');
    expect(session).toMatch(/nav\/remove/);
    expect(session).not.toMatch(/if \(existing\) return existing\.id/);
    expect(fs.readFileSync(path.join(here, 'cards.js'), 'utf8')).toMatch(/emptyLatestCards\(/);
  });
});
