// Numbers a user can trust (issue 38, point 2 and the laundry's running machines of point 11), on the demo's own
// dashboards after a restart of the fleet: the first run replays the devices' week, runs live, stops; the second run
// replays the time it was away from each device's newest stored reading and goes live again — where the old demo put a
// whole meter reading into the hour it started. Then, as a user reads them:
//   - Energi: "Pemakaian hari ini" at most the panel's rated kW × the hours since local midnight, and the "kWh per jam"
//     bars each at most the rated kW × 1 h, adding up to the day's figure (no giant bar at the restart);
//   - the day's figure stays today's when the viewer picks "7 hari terakhir";
//   - Laundry: sales between Rp 10,000 and Rp 12,000 per transaction today; "Mesin berjalan" agrees with "Daya outlet";
//   - Peta Armada: "Jarak hari ini" at most 80 km/h × the hours since midnight.
// Screenshots at 1366 and 400 px under test-results/demo-counters/.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { T } from '@sentra/contracts';
import { openAsTenant, tenantWithApp, type TenantApp } from './access-fixtures.js';
import {
  DEMO_FLEET,
  PROFILES,
  Simulation,
  demoDashboards,
  installDemoDashboards,
  runFleet,
  tagDemoFleet,
  type FleetHandle,
  type FleetOptions,
} from '../../simulator/src/index.js';

const SHOTS = 'test-results/demo-counters';
const HOUR = 3_600_000;

/** Hours since local midnight in Asia/Jakarta (the application's zone). */
const hoursToday = () => (((Date.now() + 7 * HOUR) % (24 * HOUR)) + 0) / HOUR;

/** A card value as printed ("341,35 kWh", "Rp 694k", "1,23k kWh") as a number. */
function parseCardNumber(text: string): number {
  // k/M/B/T right after the number is the card's abbreviation; the k of a unit ("kWh") is not
  const m = /(-?[\d.]+(?:,\d+)?)([kMBT](?![A-Za-z]))?/.exec(text.replace(/\s+/g, ' '));
  if (!m) throw new Error(`no number in "${text}"`);
  const n = Number(m[1]!.replace(/\./g, '').replace(',', '.'));
  return n * ({ k: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[2] ?? ''] ?? 1);
}

/** Every y value one Plotly trace of the chart draws (empty buckets left out). */
const barValues = (page: Page, key: string) =>
  page
    .locator(`[data-testid="dashboard-card"][data-key="${key}"]`)
    .getByTestId('chart')
    .evaluate((el) =>
      ((el as HTMLElement & { data?: { y?: unknown[] }[] }).data ?? []).flatMap((t) =>
        (t.y ?? []).filter((v): v is number => typeof v === 'number'),
      ),
    );

test.describe.serial('the demo counters after a restart of the fleet', () => {
  let t: TenantApp;
  let page: Page;
  let fleet: FleetHandle;
  let ids: Record<string, number>;
  let ratedKw = 0;

  const value = (key: string) =>
    page.locator(`[data-testid="dashboard-card"][data-key="${key}"]`).getByTestId('card-value');
  const number = async (key: string) => {
    await expect(value(key)).not.toHaveText(T.cardViews.noValue);
    return parseCardNumber((await value(key).textContent()) ?? '');
  };

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(240_000);
    fs.mkdirSync(SHOTS, { recursive: true });
    t = await tenantWithApp(request);
    const gateway = { url: baseURL!, username: t.username, password: t.pass, domain: t.domain };
    const options: Partial<FleetOptions> & Pick<FleetOptions, 'url' | 'mqtt'> = {
      ...gateway,
      mqtt: `mqtt://127.0.0.1:${process.env.SENTRA_E2E_MQTT_PORT}`,
      // the mix's first eight: the generic meter, fuel station, laundry, tracker and climate sensor, a Sentra end
      // meter and bridge, a Tasmota laundry plug
      devices: 8,
      rate: 1,
      seed: DEMO_FLEET.seed,
      historyMs: DEMO_FLEET.historyMs,
      ramp: 100,
    };
    fleet = await runFleet(options);
    await tagDemoFleet(gateway, fleet.devices);
    ids = (await installDemoDashboards(gateway, demoDashboards(fleet.devices, DEMO_FLEET.seed))).ids;
    fleet.replayHistory();
    expect((await fleet.history).readings, 'a week replayed').toBeGreaterThan(3000);
    await new Promise((r) => setTimeout(r, 3000)); // live for a moment
    await fleet.stop();
    // the restart: a second run of the same fleet, which replays only the time it was away
    fleet = await runFleet(options);
    fleet.replayHistory();
    await fleet.history;
    const meter = fleet.devices.find((d) => d.plan.family === 'mqtt' && d.plan.profile === 'meter')!;
    ratedKw = (
      new Simulation(PROFILES.meter, DEMO_FLEET.seed, meter.plan.index, Date.now()).snapshot() as {
        peakKw: number;
      }
    ).peakKw;
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
    await openAsTenant(page, t, `_dashboard_view_/${ids.energi}`);
  });

  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  test('Energi: today is at most the rated power since midnight, and no hourly bar beats an hour at rated power', async () => {
    const today = await number('kwh_hari_ini');
    expect(today).toBeGreaterThanOrEqual(0);
    expect(today).toBeLessThanOrEqual(ratedKw * hoursToday() + 0.01);
    let bars: number[] = [];
    await expect
      .poll(async () => (bars = await barValues(page, 'pemakaian')).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    for (const b of bars) {
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThanOrEqual(ratedKw + 0.01);
    }
    // the bars are the day's usage hour by hour: they add up to the day's figure (a new reading may land between)
    const sum = bars.reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - today)).toBeLessThanOrEqual(Math.max(0.5, today * 0.02));
    await page.screenshot({ path: `${SHOTS}/energi-1366.png`, fullPage: true });
  });

  test('Energi: "Pemakaian hari ini" stays today\'s when the viewer picks the last 7 days', async () => {
    const today = await number('kwh_hari_ini');
    await page.getByTestId('quick-range').click();
    await page.getByRole('menuitem', { name: T.dashboards.screens.quickRanges.last7d }).click();
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-filter', 'range');
    // the 7-day bars hold the week: more than today's, while the day card keeps today's figure
    await expect
      .poll(async () => (await barValues(page, 'pemakaian')).reduce((a, b) => a + b, 0), { timeout: 20_000 })
      .toBeGreaterThan(today);
    const after = await number('kwh_hari_ini');
    // today's figure, grown at most by what the panel drew at rated power in the seconds since (a week would be days)
    expect(after).toBeGreaterThanOrEqual(today);
    expect(after).toBeLessThanOrEqual(today + ratedKw * 0.05 + 0.01);
    await page.setViewportSize({ width: 400, height: 860 });
    await expect(value('kwh_hari_ini')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/energi-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('Laundry: a day of sales is Rp 10,000 to 12,000 per transaction; the running machines agree with the power', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids.laundry}`);
    const transactions = await number('transaksi');
    const sales = await number('penjualan');
    // "Rp 694k" is printed to the thousand
    expect(sales).toBeGreaterThanOrEqual(10_000 * transactions - 500);
    expect(sales).toBeLessThanOrEqual(12_000 * transactions + 500);
    await expect(page.locator('[data-key="daya_outlet"]')).toContainText('Daya outlet');
    await expect
      .poll(async () => {
        const running = await number('mesin_jalan');
        const watts = await number('daya_outlet');
        // lights and the controller at most 150 W; each running machine at least 0.85 × 520 W
        return running === 0 ? watts <= 150 : watts >= running * 0.85 * 520;
      })
      .toBe(true);
    await page.screenshot({ path: `${SHOTS}/laundry-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 400, height: 860 });
    await page.screenshot({ path: `${SHOTS}/laundry-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('Peta Armada: the distance today is at most 80 km/h × the hours since midnight', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids.peta_armada}`);
    const km = await number('jarak_hari_ini');
    expect(km).toBeGreaterThanOrEqual(0);
    expect(km).toBeLessThanOrEqual(80 * hoursToday() + 0.1);
  });
});
