// Card views end to end against the built gateway and the simulator's demo: a small demo fleet (runFleet: a meter, a
// fuel station, a laundry, two Tasmota plugs ... the first nine of the mix) registered through the REST API, and the
// ready-made demo dashboards (demoDashboards). Simulated time runs 120× from a busy evening hour so sales, laundry
// cycles and deliveries happen within seconds. The energy, SPBU and laundry dashboards move without reloads; a toggle
// switches a simulated Tasmota plug and its POWER comes back; a command to a device that never answers shows
// 'Kirim perintah gagal (timeout)' (the gateway waits COMMAND_TIMEOUT_MS = 3 s here, global-setup.ts).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { FUEL_PRODUCTS } from '@sentra/contracts';
import { notice, T } from './helpers.js';
import { openAsTenant, tenantWithApp, type TenantApp } from './access-fixtures.js';
import { demoDashboards, installDemoDashboards, type FleetHandle } from '../../simulator/src/index.js';
import { runSmallDemoFleet } from './demo-fleet.kit.js';

const SEED = 'e2e-cards';
const c = T.dashboards.commands;

const card = (page: Page, key: string) => page.locator(`[data-testid="dashboard-card"][data-key="${key}"]`);
const valueOf = (page: Page, key: string) => card(page, key).getByTestId('card-value');

/** Waits until one of the cards shows another value than it showed first. */
async function expectSomeValueMoves(page: Page, keys: string[], timeout: number) {
  const first = await Promise.all(keys.map(async (k) => (await valueOf(page, k).textContent()) ?? ''));
  await expect
    .poll(
      async () => {
        const now = await Promise.all(keys.map(async (k) => (await valueOf(page, k).textContent()) ?? ''));
        return now.some((v, i) => v !== first[i]);
      },
      { timeout, intervals: [250] },
    )
    .toBe(true);
}

/** Records navigations of the page: a live dashboard never reloads. */
function navigations(page: Page): string[] {
  const seen: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) seen.push(f.url());
  });
  return seen;
}

/**
 * Hovers the newest drawn point of a chart (its markers: `has_dot`) and answers the card's tooltip. The chart is live:
 * a push that redraws it may replace the point between finding and hovering it, so the whole gesture is tried again.
 */
async function hoverNewestPoint(chartCard: Locator): Promise<Locator> {
  const tip = chartCard.getByTestId('chart-tooltip');
  await expect(async () => {
    const point = chartCard.getByTestId('chart').locator('.scatterlayer path.point').last();
    await point.scrollIntoViewIfNeeded({ timeout: 2_000 });
    await point.hover({ force: true, timeout: 2_000 });
    await expect(tip).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return tip;
}

test.describe.serial('card views on the demo fleet', () => {
  let page: Page;
  let t: TenantApp;
  let fleet: FleetHandle;
  let ids: Record<string, number>;

  const open = async (path: string) => {
    await page.goto(`/admin/${t.domain}/_dashboard_view_/${ids[path]}`);
    await expect(page.getByTestId('dashboard-card').first()).toBeVisible();
  };

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(90_000);
    t = await tenantWithApp(request);
    fleet = await runSmallDemoFleet(baseURL!, t, SEED);
    const kinds = fleet.devices.map((d) => `${d.plan.family}/${d.plan.profile}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['mqtt/meter', 'mqtt/fuel', 'mqtt/laundry', 'tasmota/plug', 'tasmota/environment']),
    );
    const installed = await installDemoDashboards(
      { url: baseURL!, username: t.username, password: t.pass, domain: t.domain },
      demoDashboards(fleet.devices, SEED),
    );
    ids = installed.ids;
    expect(Object.keys(ids)).toEqual(expect.arrayContaining(['energi', 'spbu', 'laundry', 'lingkungan']));
    page = await browser.newPage({ baseURL });
    await openAsTenant(page, t, `_dashboard_view_/${ids.energi}`);
  });

  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  test('the energy dashboard shows moving values without reloads', async () => {
    await expect(valueOf(page, 'daya')).toHaveText(/\d.* kW$/, { timeout: 15_000 });
    await expect(card(page, 'tegangan').getByTestId('phase-1')).toContainText('V');
    const seen = navigations(page);
    await expectSomeValueMoves(page, ['daya', 'frekuensi', 'cos_phi'], 15_000);
    expect(seen).toEqual([]);
  });

  test("the SPBU dashboard's tank levels move, and a tank chart's tooltip shows remaining fuel and fill in L", async () => {
    await open('spbu');
    await expect(valueOf(page, 'level_1')).toHaveText(/%$/, { timeout: 15_000 });
    const seen = navigations(page);
    await expectSomeValueMoves(page, ['level_1', 'level_2', 'level_3'], 20_000);
    expect(seen).toEqual([]);
    const tank = card(page, 'tangki_1');
    // the product's remaining fuel and its fill (largest delivery) of the hour, both in L
    const tip = await hoverNewestPoint(tank);
    await expect(tip.getByTestId('tooltip-row').nth(0)).toHaveText(new RegExp(`^${T.cardViews.tank}[\\d.]+,\\d+ L$`));
    await expect(tip.getByTestId('tooltip-row').nth(1)).toHaveText(new RegExp(`^${T.cardViews.fill}[\\d.]+,\\d+ L$`));
    // the time and the tank's product, by the spec's name
    await expect(tip.getByTestId('tooltip-title')).toHaveText(new RegExp(` · (${FUEL_PRODUCTS.join('|')})$`));
  });

  test('the laundry dashboard shows moving values without reloads', async () => {
    await open('laundry');
    await expect(valueOf(page, 'penjualan')).toHaveText(/^Rp/, { timeout: 15_000 });
    const seen = navigations(page);
    await expectSomeValueMoves(page, ['transaksi', 'penjualan', 'mesin_jalan', 'daya_mesin'], 30_000);
    expect(seen).toEqual([]);
  });

  test("a command to a device that never answers shows 'Kirim perintah gagal (timeout)'", async () => {
    const laundry = fleet.devices.find((d) => d.plan.family === 'mqtt' && d.plan.profile === 'laundry')!;
    expect(fleet.fault(laundry.plan.serial, 'silent')).toBe(true);
    const button = card(page, 'mulai_cuci');
    await expect(button.getByTestId('command-send')).toHaveText(c.send);
    await button.getByTestId('command-send').click();
    await expect(button.getByTestId('command-status')).toHaveText(T.cardViews.sending);
    await expect(notice(page, 'Kirim perintah gagal (timeout)')).toBeVisible({ timeout: 15_000 });
    await expect(button.getByTestId('command-status')).toHaveText(`${c.failed} ${c.timeout}`);
    fleet.fault(laundry.plan.serial, 'none');
  });

  test("a toggle card switches a simulated Tasmota plug, and the plug's POWER comes back", async () => {
    await open('lingkungan');
    const kipas = card(page, 'kipas');
    const toggle = kipas.getByTestId('command-toggle');
    const status = kipas.getByTestId('command-status');
    // the plug's reported POWER: the status line and the switch
    await expect(status).toHaveText(/^(ON|OFF)$/, { timeout: 15_000 });
    for (const step of [0, 1]) {
      const before = (await status.textContent()) as 'ON' | 'OFF';
      const wanted = before === 'ON' ? 'OFF' : 'ON';
      await expect(toggle).toHaveAttribute('data-checked', before === 'ON' ? 'true' : 'false');
      await toggle.locator('input').click();
      await expect(status).toHaveText(c.success);
      await expect(notice(page, c.success).first()).toBeVisible();
      await expect(kipas.getByTestId('toggle-state')).toHaveText(wanted === 'ON' ? T.cardViews.on : T.cardViews.off);
      // once the success has been shown, the status line is the state the plug reported through the live push
      await expect(status).toHaveText(wanted, { timeout: 10_000 });
      await expect(toggle).toHaveAttribute('data-checked', wanted === 'ON' ? 'true' : 'false');
      test.info().annotations.push({ type: 'toggle', description: `${step}: ${before} → ${wanted}` });
    }
  });
});
