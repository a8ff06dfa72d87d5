// Dashboards that read on any screen (issue 28), end to end on the simulator's demo: a small demo fleet (the first nine
// devices of the mix: a meter, a fuel station, a laundry, a GPS truck…) and the ready-made demo dashboards. At 1366 px
// the spec's four columns; at 400 px one column where every card shows its values; the top bar names the dashboard;
// the fleet map has a base layer (the bundled coastlines: tests have no internet and the gateway no MAP_TILE_URL);
// the quick time ranges and the filters share one time control. Screenshots at both widths are kept in test-results/dashboard-views.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { T } from './helpers.js';
import { openAsTenant, tenantWithApp, type TenantApp } from './access-fixtures.js';
import { demoDashboards, installDemoDashboards, tagDemoFleet, type FleetHandle } from '../../simulator/src/index.js';
import { runSmallDemoFleet } from './demo-fleet.kit.js';

const SHOTS = 'test-results/dashboard-views';

const cards = (page: Page) => page.getByTestId('dashboard-card');

/** Every card of the view shows something read from a device: a value that is not "-", a chart point, a list row, a marker. */
async function expectValuesInEveryCard(page: Page) {
  await expect(cards(page).first()).toBeVisible();
  const all = await cards(page).all();
  for (const card of all) {
    const key = await card.getAttribute('data-key');
    await expect(card, `card ${key} draws`).toBeVisible();
    await expect
      .poll(() => cardShowsData(card), { message: `card ${key} shows a value`, timeout: 20_000, intervals: [250] })
      .toBe(true);
  }
}

async function cardShowsData(card: Locator): Promise<boolean> {
  const title = card.getByTestId('card-title');
  const values = await card.getByTestId('card-value').allTextContents();
  const chart = card.getByTestId('chart');
  const map = card.getByTestId('map');
  const list = card.getByTestId('card-list');
  if (await chart.count()) return Number(await chart.getAttribute('data-points')) > 0;
  if (await map.count()) return Number(await map.getAttribute('data-markers')) > 0;
  if (await list.count()) return (await list.locator('tbody td').allTextContents()).some((t) => /\d/.test(t));
  if (values.length > 0) return values.every((v) => v.trim() !== '' && v.trim() !== T.cardViews.noValue);
  // a title card: its text is its content
  return (await title.count()) > 0 || ((await card.textContent()) ?? '').trim() !== '';
}

/**
 * Tick labels and axis titles of the drawn charts that reach past their chart's edge (the check cards-perf.spec.ts
 * makes on the 30-card dashboard, here at phone width), once every chart of the view is drawn.
 */
async function clippedAxisLabels(page: Page): Promise<string[]> {
  const charts = page.getByTestId('chart');
  await expect
    .poll(
      async () =>
        (await charts.count()) > 0 &&
        (await page.locator('[data-testid="chart"] .main-svg').count()) >= (await charts.count()),
      { timeout: 20_000 },
    )
    .toBe(true);
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="dashboard-card"]')].flatMap((c) => {
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
  );
}

/** The cards' boxes, top to bottom. */
async function boxes(page: Page) {
  const out = [];
  for (const c of await cards(page).all())
    out.push({ key: await c.getAttribute('data-key'), ...(await c.boundingBox())! });
  return out.sort((a, b) => a.y - b.y);
}

test.describe.serial('dashboards that read on any screen', () => {
  let page: Page;
  let t: TenantApp;
  let fleet: FleetHandle;
  let ids: Record<string, number>;

  const open = async (path: string) => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids[path]}`);
    await expect(cards(page).first()).toBeVisible();
  };

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(90_000);
    t = await tenantWithApp(request);
    fleet = await runSmallDemoFleet(baseURL!, t, 'e2e-views');
    const gateway = { url: baseURL!, username: t.username, password: t.pass, domain: t.domain };
    // as demo-run.ts does: the list and map cards read the devices of their role tag
    expect(await tagDemoFleet(gateway, fleet.devices)).toBeGreaterThan(0);
    const installed = await installDemoDashboards(gateway, demoDashboards(fleet.devices, 'e2e-views'));
    ids = installed.ids;
    expect(Object.keys(ids)).toEqual(expect.arrayContaining(['energi', 'peta_armada']));
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
    await openAsTenant(page, t, `_dashboard_view_/${ids.energi}`);
    await expect(cards(page).first()).toBeVisible();
  });

  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  test("at 1366 px the energy dashboard keeps the spec's 4 columns, names itself in the top bar and shows values in every card", async () => {
    await expect(page.getByTestId('page-title')).toHaveText('Energi');
    await expectValuesInEveryCard(page);
    expect(await clippedAxisLabels(page), 'axis labels inside their chart').toEqual([]);
    // cards side by side: the first row holds the two three-phase cards and the single values
    const first = (await boxes(page)).filter((b) => b.key === 'tegangan' || b.key === 'arus' || b.key === 'daya');
    expect(new Set(first.map((b) => Math.round(b.y))).size).toBe(1);
    await page.screenshot({ path: `${SHOTS}/energi-1366.png`, fullPage: true });
  });

  test('at 1366 px the fuel station dashboard shows values in every card, its charts named by their labels as words', async () => {
    await open('spbu');
    await expect(page.getByTestId('page-title')).toHaveText('SPBU');
    await expectValuesInEveryCard(page);
    expect(await clippedAxisLabels(page), 'axis labels inside their chart').toEqual([]);
    // the tank chart's series (its summary strip names them): the labels sisa_bbm and pengisian as words
    const summary = page.locator('[data-testid="dashboard-card"][data-key="tangki_1"]').getByTestId('chart-summary');
    await expect(summary).toContainText('Sisa BBM');
    await expect(summary).toContainText('Pengisian');
    await expect(summary).not.toContainText('sisa_bbm');
    await page.screenshot({ path: `${SHOTS}/spbu-1366.png`, fullPage: true });
    await open('energi');
  });

  test('at 400 px the cards stack in one full-width column, each showing its values', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    const grid = page.getByTestId('dashboard-grid');
    await expect(grid).toHaveAttribute('data-breakpoint', 'xxs');
    await expectValuesInEveryCard(page);
    const list = await boxes(page);
    const gridBox = (await grid.boundingBox())!;
    for (const b of list) {
      expect(Math.abs(b.x - list[0]!.x), `${b.key} in the one column`).toBeLessThan(2);
      // full width of the grid, less its margins
      expect(b.width, `${b.key} as wide as the column`).toBeGreaterThan(gridBox.width - 80);
    }
    for (let i = 1; i < list.length; i++)
      expect(list[i]!.y, `${list[i]!.key} below ${list[i - 1]!.key}`).toBeGreaterThanOrEqual(
        list[i - 1]!.y + list[i - 1]!.height - 1,
      );
    expect(await clippedAxisLabels(page), 'axis labels inside their chart').toEqual([]);
    // a title no longer shrinks to "T…": the three-phase card reads its whole title
    await expect(
      page.locator('[data-testid="dashboard-card"][data-key="tegangan"]').getByText('Tegangan', { exact: true }),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/energi-400.png`, fullPage: true });
  });

  test('the fleet map draws land and sea under its markers without a tile server (the bundled coastlines)', async () => {
    await open('peta_armada');
    await expect(page.getByTestId('page-title')).toHaveText('Peta Armada');
    const map = page.getByTestId('map');
    await expect(map).toHaveAttribute('data-base-layer', 'coastlines', { timeout: 15_000 });
    // the land is drawn as shapes in its own pane, under the markers
    await expect.poll(() => map.locator('.leaflet-sentra-coastlines-pane path').count()).toBeGreaterThan(10);
    await expect
      .poll(async () => Number(await map.getAttribute('data-markers')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expectValuesInEveryCard(page);
    await page.screenshot({ path: `${SHOTS}/peta-armada-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await expect(page.getByTestId('dashboard-grid')).toHaveAttribute('data-breakpoint', 'lg');
    await page.screenshot({ path: `${SHOTS}/peta-armada-1366.png`, fullPage: true });
  });

  test('a quick time range in the time control: "1 jam terakhir" reads the last hour, the filters stay offered', async () => {
    await open('energi');
    await page.getByTestId('quick-range').click();
    // the dashboard's own filters are in the same control (issue 38), above the quick ranges
    await expect(page.getByTestId('view-filter-option')).toHaveText(['Hari ini', '1 jam terakhir']);
    await page.getByRole('menuitem', { name: T.dashboards.screens.quickRanges.last1h }).last().click();
    await expect(page.getByTestId('quick-range')).toHaveText(T.dashboards.screens.quickRanges.last1h);
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-filter', 'range');
    await expectValuesInEveryCard(page);
    await page.screenshot({ path: `${SHOTS}/energi-1366-last-hour.png`, fullPage: true });
  });
});
