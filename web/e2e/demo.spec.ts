// The demo as a new user first meets it (issue 28, "The demo is the first impression"): the demo fleet on a fresh
// application replays its past week (fleet/run.ts `historyMs`), is tagged by role (tagDemoFleet) and gets the
// ready-made dashboards. At 1366 px every dashboard shows a value in every card: list cards list their role's devices
// with no "-" value, every history chart (line, bar) draws more than one point on the default "Hari ini" / "1 jam
// terakhir" filter. A screenshot of each dashboard is kept under test-results/demo/.
//
// The fleet here is the first 40 devices of the demo's mix (every kind once, then the weighted draw), not the 300 of
// `npm start`: the same code paths, a machine shared with other runs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { T } from '@sentra/contracts';
import { openAsTenant, tenantWithApp, type TenantApp } from './access-fixtures.js';
import {
  DEMO_FLEET,
  demoDashboards,
  installDemoDashboards,
  runFleet,
  tagDemoFleet,
  type FleetHandle,
} from '../../simulator/src/index.js';

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/demo');
const HISTORY_CHARTS = ['LINE_CHART_CARD', 'BAR_CHART_CARD', 'LINE_MONITORING_CHART_CARD'];
/** cards whose value is not a reading (titles) or is drawn elsewhere (a map's markers, a toggle's switch) */
const NO_VALUE_TEXT = ['TITLE', 'MAP_CARD', 'INPUT_TOGGLE_CARD', 'BUTTON_CARD'];

/** The most values one trace of the chart's Plotly figure draws (null: a bucket without data, not drawn). */
const drawnPoints = (chart: Locator) =>
  chart.evaluate((el) =>
    Math.max(
      0,
      ...((el as HTMLElement & { data?: { y?: unknown[] }[] }).data ?? []).map(
        (t) => (t.y ?? []).filter((v) => v !== null && v !== undefined && v !== '').length,
      ),
    ),
  );

/** Whether it is the application's first hour of the day (Asia/Jakarta, the default zone). */
function firstHourOfDay(): boolean {
  const hour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Jakarta', hour: 'numeric', hourCycle: 'h23' });
  return Number(hour.format(new Date())) === 0;
}

/**
 * In the first hour of the day the default "Hari ini" holds a single hour bucket, so an hourly chart rightly draws one
 * point per series: the history checks then read the last 24 hours through the quick range, as a user would.
 */
async function widenInFirstHourOfDay(page: Page): Promise<void> {
  if (!firstHourOfDay()) return;
  await page.getByTestId('quick-range').click();
  await page.getByRole('menuitem', { name: T.dashboards.screens.quickRanges.last24h }).click();
  await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-filter', 'range');
}

test.describe.serial('the demo dashboards on first start', () => {
  let page: Page;
  let t: TenantApp;
  let fleet: FleetHandle;
  let ids: Record<string, number>;

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(240_000);
    t = await tenantWithApp(request);
    const gateway = { url: baseURL!, username: t.username, password: t.pass, domain: t.domain };
    fleet = await runFleet({
      ...gateway,
      mqtt: `mqtt://127.0.0.1:${process.env.SENTRA_E2E_MQTT_PORT}`,
      devices: 40,
      rate: 0.5,
      seed: DEMO_FLEET.seed,
      historyMs: DEMO_FLEET.historyMs,
      ramp: 100,
    });
    // as demo-run.ts does: tags and dashboards first, then the replay of the past
    expect(await tagDemoFleet(gateway, fleet.devices)).toBeGreaterThan(4);
    ids = (await installDemoDashboards(gateway, demoDashboards(fleet.devices, DEMO_FLEET.seed))).ids;
    fleet.replayHistory();
    const history = await fleet.history;
    expect(history.readings, 'a week of history was replayed').toBeGreaterThan(1000);
    expect(Object.keys(ids)).toEqual(['energi', 'spbu', 'laundry', 'lingkungan', 'struktur', 'peta_armada']);
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 768 } });
    await openAsTenant(page, t, `_dashboard_view_/${ids.energi}`);
  });

  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  for (const dashboard of ['energi', 'spbu', 'laundry', 'lingkungan', 'struktur', 'peta_armada']) {
    test(`${dashboard} at 1366 px: a value in every card, no "-" in list cards, more than one point in every history chart`, async () => {
      await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids[dashboard]}`);
      const cards = page.getByTestId('dashboard-card');
      await expect(cards.first()).toBeVisible();
      await widenInFirstHourOfDay(page);
      const all = await cards.all();
      for (const c of all) {
        const cat = (await c.getAttribute('data-cat')) ?? '';
        const key = await c.getAttribute('data-key');
        if (HISTORY_CHARTS.includes(cat)) {
          // the points Plotly drew: values (not empty buckets) of the fullest series
          await expect
            .poll(() => drawnPoints(c.getByTestId('chart')), { message: `${key}: points drawn`, timeout: 20_000 })
            .toBeGreaterThan(1);
        } else if (cat === 'LIST_CARD') {
          const rows = c.getByTestId('card-list').locator('tbody tr');
          await expect.poll(() => rows.count(), { message: `${key}: rows`, timeout: 20_000 }).toBeGreaterThan(0);
          await expect
            .poll(
              async () =>
                (await rows.locator('td').allTextContents()).filter((x) => x.trim() === '-' || x.trim() === ''),
              { message: `${key}: "-" cells`, timeout: 20_000 },
            )
            .toEqual([]);
        } else if (cat === 'MAP_CARD') {
          await expect
            .poll(async () => Number(await c.getByTestId('map').getAttribute('data-markers')), {
              message: `${key}: markers`,
              timeout: 20_000,
            })
            .toBeGreaterThan(0);
        } else if (!NO_VALUE_TEXT.includes(cat)) {
          await expect(c, `${key} shows a value`).not.toHaveText(/^\s*$/);
          await expect(c, `${key} shows no "-"`).not.toContainText(/(^|\s)-(\s|$)/, { timeout: 20_000 });
        }
      }
      await page.screenshot({ path: path.join(SHOTS, `${dashboard}-1366.png`), fullPage: true });
    });
  }

  test('"kWh per jam" draws hourly buckets: at most 24 bars today, each on the hour', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids.energi}`);
    const chart = page.locator('[data-testid="dashboard-card"][data-key="pemakaian"]').getByTestId('chart');
    // in the first hour of the day "today" holds one hour bucket: one bar, still on the hour
    const least = firstHourOfDay() ? 1 : 2;
    await expect.poll(() => drawnPoints(chart), { timeout: 20_000 }).toBeGreaterThanOrEqual(least);
    expect(await drawnPoints(chart)).toBeLessThanOrEqual(24);
    // the x values are local wall-clock strings with trailing zero parts dropped (chart/series.ts xOf: midnight is the
    // bare date, 09:00 is "… 09:00"; a 10-minute bucket would read "… 09:10"): every bar starts on the hour
    const xs = await chart.evaluate((el) =>
      ((el as HTMLElement & { data?: { x?: string[] }[] }).data?.[0]?.x ?? []).map(String),
    );
    expect(xs.length).toBeGreaterThanOrEqual(least);
    for (const x of xs) expect(x).toMatch(/^\d{4}-\d{2}-\d{2}( \d{2}:00)?$/);
  });

  test('the fleet map and the fleet list show only the trucks', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids.peta_armada}`);
    const trucks = fleet.devices.filter((d) => d.plan.profile === 'gps' && d.plan.wire === 'generic').length;
    const map = page.locator('[data-testid="dashboard-card"][data-key="peta"]').getByTestId('map');
    await expect.poll(async () => Number(await map.getAttribute('data-markers')), { timeout: 20_000 }).toBe(trucks);
    const list = page
      .locator('[data-testid="dashboard-card"][data-key="semua_armada"]')
      .getByTestId('card-list')
      .locator('tbody tr');
    await expect(list).toHaveCount(trucks);
    await expect(list.first()).toContainText('Armada');
  });
});
