// Time and maps that work like Grafana's and ThingsBoard's (issue 38), clicked through on the demo dashboards of a
// small demo fleet with three days of history: one time control (quick ranges, the dashboard's filters, an absolute or relative range) whose
// choice is the address (kept on reload, the browser's back returns to the one before), week charts whose ticks carry
// dates, drag-to-zoom on a chart and zoom out; the fleet map fitted to its vans, a depot's vans one cluster with its
// count, a popup with the van's value, position, last update and a link to its screen, OpenStreetMap's tiles with
// their attribution when they load and the bundled land-and-sea layer when they do not (this machine has no internet).
// Screenshots at 1366 and 400 px are kept in test-results/dashboard-time-map.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { contracts, deviceFamilyCalls, fillPath } from '@sentra/contracts';
import { T } from './helpers.js';
import { openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';
import {
  DEMO_ROLE,
  demoDashboards,
  installDemoDashboards,
  runFleet,
  tagDemoFleet,
  type FleetHandle,
} from '../../simulator/src/index.js';

const SHOTS = 'test-results/dashboard-time-map';
const q = T.dashboards.screens.quickRanges;
const tr = T.dashboards.screens.timeRange;

/** The x tick labels Plotly drew on a chart. */
const xTicks = (chart: Locator) => chart.locator('.xtick text').allTextContents();

/** The address's time choice. */
const addressOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** Waits until the chart is drawn with ticks, then answers them. */
async function drawnTicks(chart: Locator): Promise<string[]> {
  await expect.poll(async () => (await xTicks(chart)).length, { timeout: 20_000 }).toBeGreaterThan(1);
  return xTicks(chart);
}

/** A depot's vans: Dummy devices (no data of their own) at registry positions a couple of hundred metres apart. */
const DEPOT = { lat: -6.3, lon: 106.9 };
const VANS = 12;

test.describe.serial('one time control and the fleet map', () => {
  let page: Page;
  let t: TenantApp;
  let fleet: FleetHandle;
  let ids: Record<string, number>;
  let truckId: number;

  const picker = () => page.getByTestId('quick-range');
  const chart = (key: string) => page.locator(`[data-testid="dashboard-card"][data-key="${key}"]`).getByTestId('chart');
  const open = async (path: string, search = '') => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids[path]}${search}`);
    await expect(page.getByTestId('dashboard-card').first()).toBeVisible();
  };
  /** a choice of the time control: the dashboard's filter comes first where a quick range has the same words */
  const choose = async (name: string) => {
    await picker().click();
    await page.getByRole('menuitem', { name, exact: true }).first().click();
    // closed, its backdrop gone too (it would take the next press on the page)
    await expect(page.getByRole('dialog', { name: T.dashboards.screens.quickRange })).toBeHidden();
    await expect(page.locator('.MuiPopover-root')).toHaveCount(0);
  };

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(120_000);
    t = await tenantWithApp(request);
    const gateway = { url: baseURL!, username: t.username, password: t.pass, domain: t.domain };
    // the first nine devices of the demo's mix (a meter, a fuel station, a laundry, a GPS van…) with three days of
    // past, replayed as the demo does, so the week's charts have days to label and to zoom into
    fleet = await runFleet({
      ...gateway,
      mqtt: `mqtt://127.0.0.1:${process.env.SENTRA_E2E_MQTT_PORT}`,
      devices: 9,
      rate: 1,
      seed: 'e2e-time-map',
      historyMs: 3 * 86_400_000,
      ramp: 100,
    });
    expect(fleet.stats().lastError, 'every device registered').toBeUndefined();
    expect(await tagDemoFleet(gateway, fleet.devices)).toBeGreaterThan(0);
    ids = (await installDemoDashboards(gateway, demoDashboards(fleet.devices, 'e2e-time-map'))).ids;
    fleet.replayHistory();
    expect((await fleet.history).readings, 'three days of history').toBeGreaterThan(500);
    truckId = fleet.devices.find((d) => d.plan.profile === 'gps')!.id;
    // the depot's vans, tagged as the fleet's vans are, in a 3 × 4 grid 0.002° apart
    for (let i = 0; i < VANS; i++) {
      const res = await request.post(deviceFamilyCalls.dummy.adds.dummy!.path, {
        data: {
          serial_number: `VAN-${t.domain}-${i}`.slice(0, 32),
          name: `Van depo ${i + 1}`,
          latitude: DEPOT.lat + (i % 3) * 0.002,
          longitude: DEPOT.lon + Math.floor(i / 3) * 0.002,
          tags: { [DEMO_ROLE.prefix]: [DEMO_ROLE.options.armada.key] },
        },
        headers: tenantHeaders(t),
      });
      expect((await res.json()).response_result, `van ${i}`).toBe(0);
    }
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
    await openAsTenant(page, t, `_dashboard_view_/${ids.energi}`);
    await expect(page.getByTestId('dashboard-card').first()).toBeVisible();
  });

  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  test('"7 hari terakhir" puts the range in the address and labels the week charts with dates, not 00:00:00', async () => {
    await open('energi');
    // the dashboard's default filter, named on the button
    await expect(picker()).toHaveText('Hari ini');
    await choose(q.last7d);
    await expect(picker()).toHaveText(q.last7d);
    expect(addressOf(page)).toEqual({ from: 'now-7d', to: 'now' });
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-filter', 'range');
    for (const key of ['daya_fasa', 'pemakaian']) {
      const ticks = await drawnTicks(chart(key));
      expect(
        ticks.filter((x) => x === '00:00:00' || x === '00:00'),
        `${key}: ${ticks.join(' | ')}`,
      ).toEqual([]);
      for (const tick of ticks) expect(tick, `${key} tick carries its date`).toMatch(/^\d{2} [A-Z][a-z]{2}/);
    }
    await page.screenshot({ path: `${SHOTS}/energi-7d-1366.png`, fullPage: true });
  });

  test('a tooltip wherever the pointer is along a line, not only within a few pixels of a point', async () => {
    // "Hari ini" by the hour: points ~50 px apart, where Plotly's own 20 px reach left the middles without a tooltip
    await open('energi');
    const target = chart('daya_fasa');
    await expect(target).toHaveAttribute('data-drawn-span', /\d+/, { timeout: 20_000 });
    const plot = (await target.locator('.nsewdrag').boundingBox())!;
    const tip = page.locator('[data-testid="dashboard-card"][data-key="daya_fasa"]').getByTestId('chart-tooltip');
    for (let i = 1; i < 40; i++) {
      await page.mouse.move(plot.x + (plot.width * i) / 40, plot.y + plot.height * 0.3);
      await expect(tip, `tooltip at ${i}/40 of the plot`).toBeVisible();
      await expect(tip.getByTestId('tooltip-title')).toHaveText(/^\d{2}:\d{2}, \d{2} [A-Z][a-z]{2} \d{2}$/);
    }
    await page.mouse.move(0, 0);
    await page.goBack();
  });

  test('the range survives a reload and is what a shared address opens', async () => {
    await page.reload();
    await expect(picker()).toHaveText(q.last7d);
    expect(addressOf(page)).toEqual({ from: 'now-7d', to: 'now' });
    const ticks = await drawnTicks(chart('daya_fasa'));
    for (const tick of ticks) expect(tick).toMatch(/^\d{2} [A-Z][a-z]{2}/);
    // the address opened afresh (a link someone shared with this user)
    const shared = page.url();
    await page.goto('about:blank');
    await page.goto(shared);
    await expect(picker()).toHaveText(q.last7d);
  });

  test("a dashboard's own filter is chosen in the same control and kept in the address", async () => {
    await choose('1 jam terakhir');
    // the dashboard's filter variable "1 jam terakhir" (satu_jam), not the quick range of the same words
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-filter', 'satu_jam');
    expect(addressOf(page)).toEqual({ filter: 'satu_jam' });
    await page.reload();
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-filter', 'satu_jam');
    await expect(picker()).toHaveText('1 jam terakhir');
    // back to the week
    await page.goBack();
    await expect(picker()).toHaveText(q.last7d);
  });

  test('an absolute range typed in Mulai / Selesai: checked, applied, named by its dates', async () => {
    await picker().click();
    const from = page.getByTestId('range-from');
    const to = page.getByTestId('range-to');
    await expect(from).toHaveValue('now-7d');
    await from.fill('2026-01-02 08:00');
    await to.fill('2026-01-01 08:00');
    await page.getByRole('button', { name: tr.apply }).click();
    await expect(page.getByTestId('range-message')).toHaveText(T.cards.rangeOrder);
    await to.fill('kemarin');
    await page.getByRole('button', { name: tr.apply }).click();
    await expect(page.getByTestId('range-message')).toHaveText(tr.toUnknown);
    // three days ago, 06:00 in the browser's zone (Asia/Jakarta, UTC+7)
    const jakarta = new Date(Date.now() + 7 * 3_600_000 - 3 * 86_400_000);
    const day = jakarta.toISOString().slice(0, 10);
    await from.fill(`${day} 06:00`);
    await to.fill('now');
    await page.getByRole('button', { name: tr.apply }).click();
    await expect(page.getByRole('dialog', { name: T.dashboards.screens.quickRange })).toBeHidden();
    const address = addressOf(page);
    expect(address.to).toBe('now');
    expect(Number(address.from)).toBe(Date.parse(`${day}T06:00:00+07:00`));
    await expect(picker()).toContainText(' – now');
    await page.screenshot({ path: `${SHOTS}/energi-absolute-1366.png` });
  });

  test('dragging across a chart zooms the dashboard to that time; back returns; zoom out doubles the range', async () => {
    await choose(q.last7d);
    await expect(picker()).toHaveText(q.last7d);
    const target = chart('daya_fasa');
    // the week is drawn (not the range before it): a drag on a chart being redrawn would be lost
    await expect(target).toHaveAttribute('data-drawn-span', String(7 * 86_400_000), { timeout: 20_000 });
    const box = (await target.boundingBox())!;
    const y = box.y + box.height * 0.55;
    await page.mouse.move(box.x + box.width * 0.45, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 6 });
    await page.mouse.move(box.x + box.width * 0.75, y, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => addressOf(page).from).toMatch(/^\d{13}$/);
    const zoomed = addressOf(page);
    const span = Number(zoomed.to) - Number(zoomed.from);
    // about 30 % of the week was selected
    expect(span).toBeGreaterThan(1 * 86_400_000);
    expect(span).toBeLessThan(3 * 86_400_000);
    await expect(picker()).toHaveText(/ – /);
    await page.screenshot({ path: `${SHOTS}/energi-zoomed-1366.png` });
    // zoom out: twice as long around the same middle
    await page.getByTestId('zoom-out').click();
    await expect.poll(() => addressOf(page).from).not.toBe(zoomed.from);
    const out = addressOf(page);
    expect(Number(out.to) - Number(out.from)).toBeGreaterThan(span * 1.9);
    // the browser's back: the zoomed range, then the week
    await page.goBack();
    await expect.poll(() => addressOf(page)).toEqual(zoomed);
    await page.goBack();
    await expect.poll(() => addressOf(page)).toEqual({ from: 'now-7d', to: 'now' });
    await expect(picker()).toHaveText(q.last7d);
  });

  test('the time control at 400 px', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    await picker().click();
    const panel = page.getByRole('dialog', { name: T.dashboards.screens.quickRange });
    await expect(panel).toBeVisible();
    const b = (await panel.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(400);
    await page.screenshot({ path: `${SHOTS}/time-control-400.png` });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('a tank chart heads with the tank now: the same litres as the list of stations beside it', async () => {
    await open('spbu');
    const station = fleet.devices.find((d) => d.plan.profile === 'fuel')!.plan.name;
    const tank = page.getByTestId('dashboard-card').filter({ hasText: 'Tangki Pertalite' });
    const header = tank.getByTestId('chart-last').first();
    const row = page
      .locator('[data-testid="dashboard-card"][data-key="semua_spbu"]')
      .locator('tbody tr')
      .filter({ hasText: station });
    // both follow the live station (a reading every second): read together until they agree
    await expect(async () => {
      const list = (await row.locator('td').allTextContents()).find((t) => t.endsWith(' L'));
      expect(list).toBeDefined();
      expect(await header.textContent()).toBe(list);
    }).toPass({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/spbu-1366.png`, fullPage: true });
  });

  test('Visualisasi: title, unit and icon first, beside a preview that follows every keystroke', async ({
    request,
  }) => {
    const got = await (
      await request.get(fillPath(contracts.dashboards.get.path, { id: ids.energi }).path, { headers: tenantHeaders(t) })
    ).json();
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${got.data.path}/edit/daya`);
    await expect(page.getByRole('heading', { name: T.dashboards.editor.editTitle })).toBeVisible();
    await page.getByRole('button', { name: T.dashboards.variables.visualization }).click();
    const vis = page.getByRole('dialog');
    const preview = vis.getByTestId('visualisasi-preview');
    await expect(preview.getByTestId('card-title')).toHaveText('Daya total');
    await expect(preview.getByTestId('card-value')).toHaveText(/\d.* kW$/, { timeout: 15_000 });
    // beside the fields, not over them: the preview starts right of the title field and both are in view
    const title = vis.getByRole('textbox', { name: T.dashboards.view.title });
    const [fieldBox, previewBox] = [(await title.boundingBox())!, (await preview.boundingBox())!];
    expect(previewBox.x).toBeGreaterThan(fieldBox.x + fieldBox.width);
    // the title, the unit and the icon lead the form
    const labels = await vis.locator('label').allTextContents();
    expect(labels.slice(0, 2)).toEqual([T.dashboards.view.title, T.dashboards.view.unit]);
    // typing shows at once on the card
    await title.fill('Daya panel utama');
    await expect(preview.getByTestId('card-title')).toHaveText('Daya panel utama');
    await vis.getByRole('textbox', { name: T.dashboards.view.unit, exact: true }).fill('kVA');
    await expect(preview.getByTestId('card-value')).toHaveText(/ kVA$/);
    // an icon picked from the grid is the card's icon
    await vis.getByRole('button', { name: T.dashboards.view.iconNames.bolt, exact: true }).click();
    await expect(preview.locator('[data-icon="bolt"]')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/editor-visualisasi-1366.png` });
    await page.setViewportSize({ width: 400, height: 800 });
    await page.screenshot({ path: `${SHOTS}/editor-visualisasi-400.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
    await vis.getByRole('button', { name: T.common.save }).click();
    // the editor's own preview took the view
    const saved = page.getByTestId('component-preview');
    await expect(saved.getByTestId('card-title')).toHaveText('Daya panel utama');
    await expect(saved.locator('[data-icon="bolt"]')).toBeVisible();
  });

  const mapCard = () => page.locator('[data-testid="dashboard-card"][data-key="peta"]');
  const map = () => mapCard().getByTestId('map');

  test('the fleet map fits its vans: the depot is one cluster saying 12, the truck on its own', async () => {
    await open('peta_armada');
    await expect.poll(async () => Number(await map().getAttribute('data-markers')), { timeout: 20_000 }).toBe(VANS + 1);
    // fitted (the first draw is at the country's zoom, where all 13 are one cluster): a city's zoom, not the
    // country's, with both the depot and the truck inside the map
    await expect.poll(async () => Number(await map().getAttribute('data-zoom'))).toBeGreaterThanOrEqual(10);
    const cluster = map().getByTestId('map-cluster');
    await expect(cluster).toHaveCount(1);
    await expect(cluster).toHaveText(String(VANS));
    const m = (await map().boundingBox())!;
    const inside = async (l: Locator) => {
      const b = (await l.boundingBox())!;
      return b.x >= m.x && b.y >= m.y && b.x + b.width <= m.x + m.width && b.y + b.height <= m.y + m.height;
    };
    expect(await inside(cluster)).toBe(true);
    expect(await inside(map().locator('path.leaflet-interactive'))).toBe(true);
    await cluster.hover();
    // a live frame redraws the clusters: the one hovered before it may still be fading out beside the new one's
    await expect(page.locator('.leaflet-tooltip').last()).toHaveText(T.cardViews.mapCluster(VANS, 0));
    await page.screenshot({ path: `${SHOTS}/peta-armada-1366.png`, fullPage: true });
    // a click on a cluster zooms in to where it splits; clicked on until every van stands alone
    const clusters = map().getByTestId('map-cluster');
    for (let i = 0; i < 6 && (await clusters.count()) > 0; i++) {
      const before = Number(await map().getAttribute('data-zoom'));
      await clusters.first().click();
      await expect.poll(async () => Number(await map().getAttribute('data-zoom'))).toBeGreaterThan(before);
    }
    await expect(clusters).toHaveCount(0);
    // every van a circle of its own (the truck's too, wherever the map now looks)
    await expect(map().locator('path.leaflet-interactive')).toHaveCount(VANS + 1);
  });

  test("a van's popup: its value with the unit, position, last update and a link to the device's screen", async () => {
    await open('peta_armada');
    const truck = map().locator('path.leaflet-interactive');
    await expect(truck).toHaveCount(1, { timeout: 20_000 });
    const popup = page.getByTestId('map-popup');
    // the map draws its markers with the first frame and again when the live frames follow: a click in between may
    // land on a marker that is redrawn (its popup with it); a user's second click opens it, so does this one
    await expect(async () => {
      await truck.click({ force: true });
      await expect(popup).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    const name = fleet.devices.find((d) => d.id === truckId)!.plan.name;
    await expect(popup.getByTestId('map-popup-label')).toHaveText(name);
    await expect(popup.getByTestId('map-popup-value')).toHaveText(/^Nilai: \d+ km\/j$/);
    await expect(popup.getByTestId('map-popup-location')).toHaveText(/^Lokasi: -6,\d{5}, 106,\d{5}$/);
    await expect(popup.getByTestId('map-popup-time')).toHaveText(
      /^Diperbarui \d{2}:\d{2}:\d{2}, \d{2} [A-Z][a-z]{2} \d{2}$/,
    );
    await page.screenshot({ path: `${SHOTS}/peta-armada-popup-1366.png` });
    await popup.getByRole('link', { name: T.cardViews.mapOpenDevice }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${t.domain}/_device_data_detail_/${truckId}$`));
  });

  test('without internet the tiles fail and the bundled land and sea is the ground, with no attribution', async () => {
    await open('peta_armada');
    await expect(map()).toHaveAttribute('data-base-layer', 'coastlines', { timeout: 15_000 });
    await expect(mapCard().getByText(T.cardViews.mapOfflineTiles)).toBeVisible();
    await expect.poll(() => map().locator('.leaflet-sentra-coastlines-pane path').count()).toBeGreaterThan(10);
    // the tiles are taken off, their attribution with them
    await expect(map().locator('img.leaflet-tile')).toHaveCount(0);
    await expect(map().locator('.leaflet-control-attribution')).not.toContainText('OpenStreetMap');
    // a phone opening the same dashboard
    await page.setViewportSize({ width: 400, height: 800 });
    await open('peta_armada');
    await expect(page.getByTestId('dashboard-grid')).toHaveAttribute('data-breakpoint', 'xxs');
    await expect(map()).toHaveAttribute('data-base-layer', 'coastlines', { timeout: 15_000 });
    await expect(mapCard().getByTestId('map-cluster')).toHaveText(String(VANS));
    // no sideways scrolling once the grid has laid out its one column
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await page.screenshot({ path: `${SHOTS}/peta-armada-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("OpenStreetMap's tiles when they load, credited and linked, asked for with the site's origin only", async () => {
    // a tile server standing in for tile.openstreetmap.org (no internet here): a small grey picture for every tile
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
      'base64',
    );
    const referers = new Set<string>();
    await page.route('https://tile.openstreetmap.org/**', (route) => {
      referers.add(route.request().headers()['referer'] ?? '');
      return route.fulfill({ status: 200, contentType: 'image/png', body: png });
    });
    try {
      await open('peta_armada');
      await expect(map()).toHaveAttribute('data-base-layer', 'tiles', { timeout: 15_000 });
      const credit = map().locator('.leaflet-control-attribution');
      await expect(credit).toContainText('© OpenStreetMap contributors');
      await expect(credit.getByRole('link', { name: 'OpenStreetMap' })).toHaveAttribute(
        'href',
        'https://www.openstreetmap.org/copyright',
      );
      await expect(mapCard().getByText(T.cardViews.mapOfflineTiles)).toHaveCount(0);
      expect([...referers]).toEqual([new URL(page.url()).origin + '/']);
      await page.screenshot({ path: `${SHOTS}/peta-armada-tiles-1366.png` });
    } finally {
      await page.unroute('https://tile.openstreetmap.org/**');
    }
  });
});
