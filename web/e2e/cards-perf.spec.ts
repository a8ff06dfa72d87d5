// The 30-card dashboard of issue #9 "Performance", measured on the production build in Chromium: the simulator's demo
// fleet (300 devices, runFleet in this process) publishes into a fresh tenant's application, a 30-card dashboard is
// made from the demo dashboards' cards, and each navigation to it is timed until every card shows its values and
// every chart is drawn (with the steps between: dashboard record, socket, subscribe, first and last card push, and
// the tick labels that pass their chart's edge: the axes' margins are laid out before drawing); then 10 s of live pushes are
// watched for long frames (> 50 ms), and the initial script bundle is checked for Plotly and Leaflet. The medians of
// the navigations are held to issue 28's 1.5 s, each navigation only to a generous bound (CI machines vary): the
// figures are printed (in full, and as one `bench cards_perf {...}` line) and written to
// test-results/cards-perf/perf.json for docs/performance.md. CARDS_PERF_RUNS sets the number of navigations (3); CARDS_PERF_PROFILE=1 also writes CPU
// profiles of the first one (load.cpuprofile) and of the live window (live.cpuprofile); CARDS_PERF_TRACE=1 a Chromium
// performance trace of the first navigation (load.trace.json: layout, style, paint and script on the main thread).
import fs from 'node:fs';
import os from 'node:os';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  CARD_LIVE,
  UNSCALED_HEIGHT_CARDS,
  cardPixelHeight,
  contracts,
  GRID_MARGIN,
  GRID_ROW_HEIGHT,
  type CardTypeCode,
  type ComponentInput,
} from '@sentra/contracts';
import { demoDashboards, demoFleetOptions, runFleet, type FleetHandle } from '../../simulator/src/index.js';
import { openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';
import { CANVAS_MARKERS_FROM as MAP_CANVAS_MARKERS_FROM } from '../src/cards/map/markers.js';
import { calibrationMs, slowdown } from './machine-speed.js';

const OUT = 'test-results/cards-perf';
const CARDS = 30;
const RUNS = Math.max(1, Number(process.env.CARDS_PERF_RUNS ?? 3));
/** issue 28: every value and every chart within 1.5 s (the medians of the navigations are held to it) */
const TARGET_MS = 1_500;

/**
 * The medians' bound on this machine now: the target times how much slower than the reference machine it runs
 * (machine-speed.ts: a fixed piece of console-like work timed in this Chromium), or times the overload when the
 * machine is overloaded by work that is not this spec's (its own gateway, fleet and browser keep a 2-core machine's
 * 1-minute load under ~2 per core), whichever is larger. So a slow or shared machine still fails a view that regressed
 * by more than the machine slowed down, and a quiet run on the reference machine is held to 1.5 s exactly.
 */
function mediansBoundMs(loadAverage: number, cpus: number, slower: number): { boundMs: number; overload: number } {
  const overload = Math.round(Math.max(1, loadAverage / (2 * Math.max(1, cpus))) * 10) / 10;
  return { boundMs: Math.round(TARGET_MS * Math.max(overload, slower)), overload };
}
const LIVE_WINDOW_MS = 10_000;
/** chunks that must stay lazy: their libraries' own marks */
const LAZY_LIBRARIES = { plotly: /plotly\.js/, leaflet: /leafletjs\.com|leaflet-container/ };

/**
 * 30 cards of the demo dashboards (energy, fuel station, laundry, environment, structure, fleet map) on one dashboard:
 * every chart and the map, the three-phase, strain and crack cards, two device lists, then single values up to 30.
 * Titles and command buttons are left out (they show no data). Placed row by row on the 4 view columns.
 */
function thirtyCards(demo: readonly ComponentInput[]): Record<string, ComponentInput> {
  // left out too: the coordinate card, whose demo model (latitude/longitude) is not what the gateway evaluates
  // (value/output), so it shows 'Komponen ini tidak memiliki query' whatever the view does
  const pool = demo.filter(
    (c) =>
      c.cat !== 'TITLE' &&
      c.cat !== 'COORDINATE_CARD' &&
      !String(c.cat).startsWith('BUTTON') &&
      !String(c.cat).startsWith('INPUT_'),
  );
  const lists = pool.filter((c) => c.cat === 'LIST_CARD').slice(0, 2);
  const singles = pool.filter((c) => c.cat === 'SINGLE_VALUE_CARD');
  const others = pool.filter((c) => c.cat !== 'LIST_CARD' && c.cat !== 'SINGLE_VALUE_CARD');
  // the demo's list and map cards read only the devices of one role tag (demo.ts roleTag); this fleet is not tagged and the
  // measure is of cards over the whole 300-device fleet (lists of all devices, a map of hundreds of markers): no tags
  const untagged = (c: ComponentInput): ComponentInput =>
    ({ ...c, model: { ...(c.model as Record<string, unknown>), tags: undefined } }) as ComponentInput;
  const chosen = [...others, ...lists, ...singles].slice(0, CARDS).map(untagged);
  expect(chosen, 'the demo dashboards hold 30 data cards').toHaveLength(CARDS);
  // skyline placement in grid rows (a stored height h spans 2h grid rows)
  const top = [0, 0, 0, 0];
  const out: Record<string, ComponentInput> = {};
  chosen.forEach((c, i) => {
    const w = c.cat === 'LIST_CARD' ? 2 : Math.min(4, c.w);
    const rows = UNSCALED_HEIGHT_CARDS.includes(c.cat as CardTypeCode) ? c.h : c.h * 2;
    let best = 0;
    let bestY = Infinity;
    for (let x = 0; x + w <= 4; x++) {
      const y = Math.max(...top.slice(x, x + w));
      if (y < bestY) ((bestY = y), (best = x));
    }
    for (let x = best; x < best + w; x++) top[x] = bestY + rows;
    const key = `c${String(i + 1).padStart(2, '0')}_${c.key}`.slice(0, 30);
    out[key] = { ...c, key, x: best, w, y: bestY };
  });
  return out;
}

/** Grid height in pixels of the placed cards (so the viewport shows all of them: every card must draw). */
function gridPixels(cards: Record<string, ComponentInput>): number {
  const rows = Math.max(
    ...Object.values(cards).map((c) => c.y + (UNSCALED_HEIGHT_CARDS.includes(c.cat as CardTypeCode) ? c.h : c.h * 2)),
  );
  return rows * (GRID_ROW_HEIGHT + GRID_MARGIN) + GRID_MARGIN + cardPixelHeight(0);
}

/** In the page before any script: long tasks, and the first frame at which every card shows data / every chart is drawn. */
function installProbes({ cards, event }: { cards: number; event: string }) {
  const w = window as unknown as {
    __perf: {
      longTasks: { start: number; duration: number }[];
      readyAt: Record<string, number>;
      compiled: string[];
      gridAt?: number;
      socketAt?: number;
      subscribedAt?: number;
      firstPushAt?: number;
      allPushedAt?: number;
      valuesAt?: number;
      chartsAt?: number;
    };
  };
  w.__perf = { longTasks: [], readyAt: {}, compiled: [] };
  // code compiled at run time (new Function): zod's per-schema fast paths are off in the console (src/zodConfig.ts)
  const NativeFunction = Function;
  window.Function = new Proxy(NativeFunction, {
    construct(target, args) {
      w.__perf.compiled.push(String(args.at(-1)).slice(0, 60));
      return Reflect.construct(target, args);
    },
  });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        w.__perf.longTasks.push({ start: Math.round(e.startTime), duration: Math.round(e.duration) });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no Long Tasks API: frames are still measured
  }
  // the gateway's side of the wait: when the first card push came, and when every card had its first frame
  const keys = new Set<string>();
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('open', () => (w.__perf.socketAt ??= Math.round(performance.now())));
      const send = this.send.bind(this);
      this.send = (data) => {
        if (typeof data === 'string' && /^\d*\["subscribe"/.test(data.slice(1)))
          w.__perf.subscribedAt ??= Math.round(performance.now());
        send(data);
      };
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string' || !e.data.startsWith(`42["${event}"`)) return;
        w.__perf.firstPushAt ??= Math.round(performance.now());
        const key = /"key":"([^"]+)"/.exec(e.data)?.[1];
        if (key) keys.add(key);
        if (keys.size === cards) w.__perf.allPushedAt ??= Math.round(performance.now());
      });
    }
  };
  const chart = (c: Element) =>
    c.getAttribute('data-cat')!.includes('CHART_CARD') && c.getAttribute('data-cat') !== 'TEXT_CHART_CARD';
  const check = () => {
    const all = [...document.querySelectorAll('[data-testid="dashboard-card"]')];
    if (all.length === cards) {
      w.__perf.gridAt ??= Math.round(performance.now());
      const ready = (c: Element) => !c.querySelector('[data-testid="card-loading"]');
      for (const c of all)
        if (ready(c)) w.__perf.readyAt[c.getAttribute('data-key')!] ??= Math.round(performance.now());
      if (w.__perf.valuesAt === undefined && all.filter((c) => !chart(c)).every(ready))
        w.__perf.valuesAt = Math.round(performance.now());
      if (
        w.__perf.valuesAt !== undefined &&
        all.filter(chart).every((c) => ready(c) && c.querySelector('[data-testid="chart"] .main-svg'))
      )
        w.__perf.chartsAt = Math.round(performance.now());
    }
    if (w.__perf.chartsAt === undefined) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** Frames for `ms`: count, those over 50 ms, the worst; long tasks in the same window. */
function watchFrames(ms: number) {
  return new Promise<{ frames: number; long: number; worst: number; longTasks: number; longestTask: number }>(
    (resolve) => {
      const perf = (window as unknown as { __perf: { longTasks: { start: number; duration: number }[] } }).__perf;
      const from = performance.now();
      let last = from;
      let frames = 0;
      let long = 0;
      let worst = 0;
      const tick = (now: number) => {
        const d = now - last;
        last = now;
        frames++;
        if (d > 50) long++;
        worst = Math.max(worst, d);
        if (now - from < ms) return void requestAnimationFrame(tick);
        const tasks = perf.longTasks.filter((t) => t.start >= from);
        resolve({
          frames,
          long,
          worst: Math.round(worst),
          longTasks: tasks.length,
          longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
        });
      };
      requestAnimationFrame(tick);
    },
  );
}

interface Run {
  /** the 30 card frames in the grid */
  gridMs: number;
  /** the dashboard record received (its GET), the live socket open, the channel's subscribe sent */
  recordMs: number;
  socketMs: number;
  subscribedMs: number;
  /** the first card push received, and the push that completed every card's first frame */
  firstPushMs: number;
  allPushedMs: number;
  valuesMs: number;
  chartsMs: number;
  /** main-thread time beyond 50 ms per long task, from navigation until the charts were drawn */
  blockingMs: number;
  longestTaskMs: number;
  /** the three cards that showed their data last, with the time */
  lastReady: string[];
  scripts: { name: string; kb: number; at: number; from: number }[];
  calls: string[];
  /** functions compiled at run time (new Function) up to the last chart: the start of each body */
  compiled: string[];
  /** cards showing an error: key and message */
  problems: string[];
  /** tick labels reaching past their chart's drawing (the margins laid out before drawing were too small): key and text */
  clipped: string[];
  /** the charts' own main-thread cost (chartDraws.ts user timings): Plotly's evaluation, the sum of the first draws */
  plotlyEvalMs: number;
  firstDrawsMs: number;
  /** each chart's first draw (ms), in the order they ran */
  draws: number[];
  /** when Plotly's evaluation started (ms after navigation) */
  plotlyEvalAt: number;
  /** when the first chart draw started (ms after navigation) */
  firstDrawAt: number;
}

async function navigate(
  browser: Browser,
  baseURL: string,
  t: TenantApp,
  id: number,
  viewportHeight: number,
  frames: boolean,
  profile: { load?: boolean; live?: boolean; trace?: boolean } = {},
): Promise<Run & { frames?: Awaited<ReturnType<typeof watchFrames>>; pushes?: number }> {
  const page = await browser.newPage({ baseURL, viewport: { width: 1280, height: viewportHeight } });
  try {
    await openAsTenant(page, t, 'about');
    await page.addInitScript(installProbes, { cards: CARDS, event: CARD_LIVE.event });
    const pushes: number[] = [];
    page.on('websocket', (ws) =>
      ws.on(
        'framereceived',
        (f) =>
          typeof f.payload === 'string' && f.payload.startsWith(`42["${CARD_LIVE.event}"`) && pushes.push(Date.now()),
      ),
    );
    // CARDS_PERF_PROFILE=1: CPU profiles to open in Chromium's DevTools (Performance)
    const cdp = profile.load ? await page.context().newCDPSession(page) : undefined;
    if (cdp) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
    // CARDS_PERF_TRACE=1: the performance panel's view of the load (open load.trace.json in DevTools)
    if (profile.trace) {
      fs.mkdirSync(OUT, { recursive: true });
      await browser.startTracing(page, {
        path: `${OUT}/load.trace.json`,
        screenshots: false,
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'blink.user_timing',
          'loading',
          'disabled-by-default-v8.cpu_profiler',
        ],
      });
    }
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${id}`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __perf: { chartsAt?: number } }).__perf.chartsAt !== undefined,
      null,
      { timeout: 30_000, polling: 250 },
    );
    if (profile.trace) await browser.stopTracing();
    if (cdp) {
      const { profile: cpu } = await cdp.send('Profiler.stop');
      fs.mkdirSync(OUT, { recursive: true });
      fs.writeFileSync(`${OUT}/load.cpuprofile`, JSON.stringify(cpu));
    }
    const run = await measured(page);
    if (!frames) return run;
    await page.waitForTimeout(1000);
    const liveCdp = profile.live ? await page.context().newCDPSession(page) : undefined;
    if (liveCdp) await liveCdp.send('Profiler.enable').then(() => liveCdp.send('Profiler.start'));
    const from = Date.now();
    const f = await page.evaluate(watchFrames, LIVE_WINDOW_MS);
    const until = Date.now();
    if (liveCdp)
      fs.writeFileSync(`${OUT}/live.cpuprofile`, JSON.stringify((await liveCdp.send('Profiler.stop')).profile));
    fs.mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: `${OUT}/thirty.png`, fullPage: true });
    return { ...run, frames: f, pushes: pushes.filter((at) => at >= from && at <= until).length };
  } finally {
    await page.close();
  }
}

async function measured(page: Page): Promise<Run> {
  return page.evaluate(() => {
    const timings = (name: string) => performance.getEntriesByName(name, 'measure');
    const p = (
      window as unknown as {
        __perf: {
          longTasks: { start: number; duration: number }[];
          readyAt: Record<string, number>;
          compiled: string[];
          gridAt: number;
          socketAt: number;
          subscribedAt: number;
          firstPushAt: number;
          allPushedAt: number;
          valuesAt: number;
          chartsAt: number;
        };
      }
    ).__perf;
    const load = p.longTasks.filter((t) => t.start <= p.chartsAt);
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.endsWith('.js'))
      .map((e) => ({
        name: e.name.split('/').pop()!,
        kb: Math.round(e.decodedBodySize / 1024),
        at: Math.round(e.responseEnd),
        from: Math.round(e.startTime),
      }));
    // the calls before the cards' data (session, menu, the dashboard record): when each was asked and answered
    const calls = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => /\/(service|fetch)\//.test(e.name))
      .map((e) => `${new URL(e.name).pathname} ${Math.round(e.startTime)}→${Math.round(e.responseEnd)} ms`);
    return {
      gridMs: p.gridAt,
      recordMs: Math.round(
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
          /\/fetch\/web\/d\/\d+/.test(e.name),
        )?.responseEnd ?? -1,
      ),
      socketMs: p.socketAt,
      subscribedMs: p.subscribedAt,
      firstPushMs: p.firstPushAt,
      allPushedMs: p.allPushedAt,
      valuesMs: p.valuesAt,
      chartsMs: p.chartsAt,
      blockingMs: load.reduce((s, t) => s + Math.max(0, t.duration - 50), 0),
      longestTaskMs: Math.max(0, ...load.map((t) => t.duration)),
      lastReady: Object.entries(p.readyAt)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([k, at]) => `${k} ${at}`),
      scripts,
      calls,
      plotlyEvalMs: Math.round(timings('sentra:chart-library')[0]?.duration ?? -1),
      firstDrawsMs: Math.round(timings('sentra:chart-first-draw').reduce((s, m) => s + m.duration, 0)),
      draws: timings('sentra:chart-first-draw').map((m) => Math.round(m.duration)),
      plotlyEvalAt: Math.round(timings('sentra:chart-library')[0]?.startTime ?? -1),
      firstDrawAt: Math.round(timings('sentra:chart-first-draw')[0]?.startTime ?? -1),
      clipped: [...document.querySelectorAll('[data-testid="dashboard-card"]')].flatMap((c) => {
        const svg = c.querySelector('[data-testid="chart"] .main-svg');
        if (!svg) return [];
        const edge = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('.xtick text, .ytick text, .g-xtitle text, .g-ytitle text')]
          .filter((t) => {
            const r = t.getBoundingClientRect();
            return (
              r.width > 0 &&
              (r.left < edge.left - 0.5 ||
                r.right > edge.right + 0.5 ||
                r.top < edge.top - 0.5 ||
                r.bottom > edge.bottom + 0.5)
            );
          })
          .map((t) => `${c.getAttribute('data-key')}: ${t.textContent}`);
      }),
      compiled: p.compiled,
      problems: [...document.querySelectorAll('[data-testid="dashboard-card"]')]
        .filter((c) => c.querySelector('[data-testid="card-error"]'))
        .map((c) => `${c.getAttribute('data-key')}: ${c.querySelector('[data-testid="card-error"]')!.textContent}`),
    };
  });
}

/** The scripts index.html loads before anything else (entry and module preloads), with their text. */
async function initialScripts(request: APIRequestContext): Promise<{ name: string; bytes: number; text: string }[]> {
  const html = await (await request.get('/')).text();
  const srcs = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  return Promise.all(
    srcs.map(async (src) => {
      const text = await (await request.get(src)).text();
      return { name: src.split('/').pop()!, bytes: Buffer.byteLength(text), text };
    }),
  );
}

test.describe.serial('30-card dashboard performance', () => {
  let t: TenantApp;
  let fleet: FleetHandle | undefined;
  let dashboardId: number;
  let viewportHeight: number;

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(240_000);
    t = await tenantWithApp(request);
    const mqttPort = process.env.SENTRA_E2E_MQTT_PORT;
    expect(mqttPort, 'global-setup exports the broker port').toBeTruthy();
    const options = demoFleetOptions({
      url: baseURL!,
      mqtt: `mqtt://127.0.0.1:${mqttPort}`,
      username: t.username,
      password: t.pass,
      domain: t.domain,
    });
    fleet = await runFleet(options);
    expect(fleet.devices.length, fleet.stats().lastError).toBeGreaterThanOrEqual(250);
    const dashboards = demoDashboards(fleet.devices, options.seed);
    const cards = thirtyCards(
      dashboards.flatMap((d) => Object.values(d.conf_dashboard.dashboard ?? {}) as ComponentInput[]),
    );
    viewportHeight = Math.min(6000, gridPixels(cards) + 240);
    // the energy dashboard's view filters (today by the hour by default), as the demo dashboards read
    const conf = {
      version: '2',
      type: 'normal',
      config: { refresh: 0 },
      view: { decimal: 2 },
      var: dashboards[0]!.conf_dashboard.var,
      dashboard: cards,
    };
    const add = await (
      await request.post(contracts.dashboards.add.path, {
        data: { label: 'Tiga Puluh Kartu', conf_dashboard: conf },
        headers: tenantHeaders(t),
      })
    ).json();
    expect(add.response_result, JSON.stringify(add)).toBe(0);
    dashboardId = add.data?.id ?? add.id;
    // let the fleet publish a round (one message per device every 10 s) so every card has data to show
    await new Promise((r) => setTimeout(r, 10_000));
  });

  test.afterAll(async () => {
    await fleet?.stop();
  });

  test('interactive quickly, charts drawn, no dropped frames under live pushes; Plotly and Leaflet stay lazy', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.setTimeout(60_000 + RUNS * 45_000);
    const loadAtStart = os.loadavg()[0]!;
    const calibration = [await calibrationMs(browser)];
    const initial = await initialScripts(request);
    const profiling = !!process.env.CARDS_PERF_PROFILE;
    const tracing = !!process.env.CARDS_PERF_TRACE;
    const runs: Awaited<ReturnType<typeof navigate>>[] = [];
    for (let i = 0; i < RUNS; i++)
      runs.push(
        await navigate(browser, baseURL!, t, dashboardId, viewportHeight, i === RUNS - 1, {
          load: profiling && i === 0,
          live: profiling,
          trace: tracing && i === 0,
        }),
      );
    calibration.push(await calibrationMs(browser));
    const last = runs.at(-1)!;
    const range = (k: 'valuesMs' | 'chartsMs' | 'blockingMs') => [
      Math.min(...runs.map((r) => r[k])),
      Math.max(...runs.map((r) => r[k])),
    ];
    const median = (k: 'valuesMs' | 'chartsMs' | 'plotlyEvalMs' | 'firstDrawsMs') => {
      const xs = runs.map((r) => r[k]).sort((a, b) => a - b);
      return xs.length % 2 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
    };
    const initialKb = Math.round(initial.reduce((s, x) => s + x.bytes, 0) / 1024);
    const report = {
      cards: CARDS,
      viewport: `1280x${viewportHeight}`,
      devices: fleet!.devices.length,
      runs: runs.map(({ scripts: _scripts, calls: _calls, ...r }) => r),
      calls: last.calls,
      valuesMs: range('valuesMs'),
      chartsMs: range('chartsMs'),
      medianMs: {
        values: median('valuesMs'),
        charts: median('chartsMs'),
        plotlyEval: median('plotlyEvalMs'),
        firstDraws: median('firstDrawsMs'),
      },
      blockingMs: range('blockingMs'),
      live: { windowMs: LIVE_WINDOW_MS, pushes: last.pushes, ...last.frames },
      initialScripts: initial.map((s) => `${s.name} ${Math.round(s.bytes / 1024)} KB`),
      initialKb,
      // with the time each arrived (ms after navigation): a view's chunk arriving after its data delays the values
      lazyScripts: last.scripts
        .filter((s) => !initial.some((i) => i.name === s.name))
        .map((s) => `${s.name} ${s.kb} KB ${s.from}→${s.at} ms`),
      fleet: fleet!.stats().msgsPerSec,
    };
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(`${OUT}/perf.json`, JSON.stringify(report, null, 2));
    console.log(`cards perf ${JSON.stringify(report, null, 2)}`);
    // one line in `npm run bench`'s style (named figures, units in the names; the load average says how busy the
    // machine was): what a note or a CI log quotes
    const slower = slowdown((calibration[0]! + calibration[1]!) / 2);
    const { boundMs, overload } = mediansBoundMs(loadAtStart, os.cpus().length, slower);
    const bench = {
      cards: CARDS,
      runs: RUNS,
      values_median_ms: median('valuesMs'),
      charts_median_ms: median('chartsMs'),
      values_max_ms: range('valuesMs')[1],
      charts_max_ms: range('chartsMs')[1],
      initial_scripts_kb: initialKb,
      load_average_at_start: Math.round(loadAtStart * 10) / 10,
      cpus: os.cpus().length,
      calibration_ms: calibration,
      slowdown: slower,
      medians_bound_ms: boundMs,
      overload,
    };
    console.log(`bench cards_perf ${JSON.stringify(bench)}`);
    test.info().annotations.push({
      type: 'perf',
      description: JSON.stringify({
        valuesMs: report.valuesMs,
        chartsMs: report.chartsMs,
        live: report.live,
        initialKb,
      }),
    });

    for (const s of initial)
      for (const [lib, mark] of Object.entries(LAZY_LIBRARIES))
        expect(mark.test(s.text), `${lib} in the initial script ${s.name}`).toBe(false);
    // issue 28's target: every value and every chart within 1.5 s in a full `.ci/run` (quiet machine: values ~0.5 s,
    // charts ~0.7–0.9 s). The medians hold to it (scaled only on a machine overloaded by others: mediansBoundMs):
    // Plotly back on the values' path, a 300 ms reveal throttle or charts redrawn twice cross it; the per-run bounds
    // stay generous (a navigation the shared 2-core machine stalls), so a single slow navigation does not fail the run
    // while a view that hangs does
    for (const r of runs) {
      expect(r.problems, 'cards showing a problem').toEqual([]);
      expect(r.compiled, 'functions compiled at run time (zod schemas compile none: src/zodConfig.ts)').toEqual([]);
      expect(r.clipped, "tick labels past their chart's edge").toEqual([]);
      expect(r.valuesMs).toBeLessThan(6_000);
      expect(r.chartsMs).toBeLessThan(10_000);
    }
    expect(
      median('valuesMs'),
      `median of the navigations: every value shown (bound ${boundMs} ms, overload ${overload}, slowdown ${slower})`,
    ).toBeLessThan(boundMs);
    expect(
      median('chartsMs'),
      `median of the navigations: every chart drawn (bound ${boundMs} ms, overload ${overload}, slowdown ${slower})`,
    ).toBeLessThan(boundMs);
    expect(last.frames!.frames).toBeGreaterThan(0);
    // generous: a regression (every chart redrawn on every push) shows as a large share of long frames
    expect(last.frames!.long / last.frames!.frames).toBeLessThan(0.25);
  });

  test('the fleet map groups its hundreds of markers into clusters, paints single ones on one canvas, and hovering one shows its device', async ({
    browser,
    baseURL,
  }) => {
    const page = await browser.newPage({ baseURL, viewport: { width: 1280, height: viewportHeight } });
    try {
      await openAsTenant(page, t, `_dashboard_view_/${dashboardId}`);
      const map = page.locator('[data-testid="dashboard-card"][data-cat="MAP_CARD"]').getByTestId('map');
      await expect(map).toHaveAttribute('data-markers', /^\d+$/);
      expect(Number(await map.getAttribute('data-markers')), 'a large fleet').toBeGreaterThanOrEqual(
        MAP_CANVAS_MARKERS_FROM,
      );
      // a painted marker: the centre of a run of online green (#2e7d32) or offline grey (#9e9e9e) pixels
      const spot = async () =>
        map.locator('canvas').evaluate((c: HTMLCanvasElement) => {
          const { data, width, height } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
          const r = c.getBoundingClientRect();
          const marker = (i: number) =>
            (Math.abs(data[i]! - 46) < 8 && Math.abs(data[i + 1]! - 125) < 8 && Math.abs(data[i + 2]! - 50) < 8) ||
            (Math.abs(data[i]! - 158) < 8 && Math.abs(data[i + 1]! - 158) < 8 && Math.abs(data[i + 2]! - 158) < 8);
          let painted = 0;
          const found: { x: number; y: number }[] = [];
          for (let y = 0; y < height; y++)
            for (let x = 0; x < width; x++) {
              if (!marker((y * width + x) * 4)) continue;
              painted++;
              const px = r.left + ((x + 0.5) * r.width) / width;
              const py = r.top + ((y + 0.5) * r.height) / height;
              // inside the map's visible box, not under its zoom buttons (top left) nor under a cluster
              const box = c.closest('[data-testid="map"]')!.getBoundingClientRect();
              if (
                found.length < 64 &&
                px > box.left + 60 &&
                px < box.right - 10 &&
                py > box.top + 10 &&
                py < box.bottom - 10 &&
                x + 3 < width &&
                marker((y * width + x + 3) * 4) &&
                // the canvas itself at that point, not a cluster badge or a tooltip drawn over it
                document.elementFromPoint(px + 3, py) === c
              )
                found.push({ x: px + 3, y: py });
            }
          return { painted, found };
        });
      const tip = map.locator('.leaflet-tooltip');
      const clusters = map.getByTestId('map-cluster');
      let painted = 0;
      await expect(clusters.first(), 'a dense fleet opens grouped').toBeVisible();
      // a dense fleet opens grouped (issue 28): a click on a cluster zooms in until single markers are painted
      // (the canvas joins the map with its first single marker)
      await expect(async () => {
        const at = (await map.locator('canvas').count()) > 0 ? await spot() : { found: [] };
        if (at.found.length === 0) {
          // the largest cluster whose badge lies wholly inside the map, clicked where a user would: its centre
          const target = await map.evaluate((m) => {
            const box = m.getBoundingClientRect();
            let best: { x: number; y: number; count: number } | undefined;
            for (const el of m.querySelectorAll('[data-testid="map-cluster"]')) {
              const r = el.getBoundingClientRect();
              const inside =
                r.left > box.left + 60 &&
                r.right < box.right - 10 &&
                r.top > box.top + 10 &&
                r.bottom < box.bottom - 10;
              const count = Number(el.textContent);
              if (inside && (!best || count > best.count))
                best = { x: r.left + r.width / 2, y: r.top + r.height / 2, count };
            }
            return best;
          });
          if (target) await page.mouse.click(target.x, target.y);
        }
        expect(at.found.length, 'a single marker painted inside the map').toBeGreaterThan(0);
      }).toPass({ timeout: 40_000 });
      await expect(map.locator('canvas')).toHaveCount(1);
      expect(await map.locator('path.leaflet-interactive').count(), 'no SVG element per marker').toBe(0);
      // live pushes repaint the canvas and regroup the clusters (trackers move): a painted marker is found again and
      // hovered afresh, a different one on each attempt, until the tooltip of a single device shows
      const labels = fleet!.devices.map((d) => d.plan.name);
      let attempt = 0;
      await expect(async () => {
        const at = await spot();
        painted = at.painted;
        expect(at.found.length, 'a marker painted inside the map').toBeGreaterThan(0);
        const point = at.found[attempt++ % at.found.length]!;
        await page.mouse.move(0, 0);
        await expect(tip).toHaveCount(0, { timeout: 1_000 });
        await page.mouse.move(point.x, point.y);
        await expect(tip).toBeVisible({ timeout: 1_000 });
        const text = (await tip.textContent()) ?? '';
        expect(
          labels.some((l) => text.startsWith(l)),
          `tooltip '${text}' names a fleet device`,
        ).toBe(true);
      }).toPass({ timeout: 20_000 });
      // one marker's fill at least (radius 8 px, less its white ring)
      expect(painted).toBeGreaterThan(60);
    } finally {
      await page.close();
    }
  });
});
