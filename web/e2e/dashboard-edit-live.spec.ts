// Editing you can see (issue 28) against the built gateway and a small demo fleet publishing over MQTT: the
// edit-layout view draws the real cards with their live values (they move while the user arranges them), a card is
// still dragged by its body, a command card is shown disabled and sends nothing; the component editor previews the
// card as configured (a value from the gateway's evaluation, a change seen before saving) and shows the spec's
// message while the query is incomplete.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { contracts, fillPath } from '@sentra/contracts';
import { T } from './helpers.js';
import { openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';
import { demoDashboards, installDemoDashboards, type FleetHandle } from '../../simulator/src/index.js';
import { runSmallDemoFleet } from './demo-fleet.kit.js';

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/e2e-screens');
const SEED = 'e2e-edit-live';
const WIDE = { width: 1440, height: 1000 };
const s = T.dashboards.screens;
const e = T.dashboards.editor;

const card = (page: Page, key: string) => page.locator(`[data-testid="dashboard-card"][data-key="${key}"]`);
const valueOf = (page: Page, key: string) => card(page, key).getByTestId('card-value');
const gridItem = (page: Page, key: string) => page.locator(`[data-grid-key="${key}"]`);

/** The box once the grid's 200 ms transitions are over (two equal readings 250 ms apart, at most 5 s). */
async function settledBox(page: Page, key: string) {
  let last = await gridItem(page, key).boundingBox();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(250);
    const now = await gridItem(page, key).boundingBox();
    if (now && last && JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  throw new Error(`${key} never settled`);
}

test.describe.serial('editing you can see', () => {
  let page: Page;
  let t: TenantApp;
  let fleet: FleetHandle;
  let paths: Record<string, string>;
  const commandCalls: string[] = [];

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(90_000);
    t = await tenantWithApp(request);
    fleet = await runSmallDemoFleet(baseURL!, t, SEED);
    const installed = await installDemoDashboards(
      { url: baseURL!, username: t.username, password: t.pass, domain: t.domain },
      demoDashboards(fleet.devices, SEED),
    );
    paths = {};
    for (const [name, id] of Object.entries(installed.ids)) {
      const got = await (
        await request.get(fillPath(contracts.dashboards.get.path, { id }).path, { headers: tenantHeaders(t) })
      ).json();
      paths[name] = got.data.path;
    }
    page = await browser.newPage({ baseURL, viewport: WIDE });
    page.on('request', (r) => {
      if (r.url().includes('/fetch/web/p/')) commandCalls.push(r.url());
    });
    await openAsTenant(page, t, `_dashboard_conf_/${paths.energi}`);
  });
  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  test('the edit-layout view shows the real cards, and their values move while arranging', async () => {
    await expect(page.getByRole('heading', { name: T.dashboards.layout.editTitle('Energi') })).toBeVisible();
    await expect(page.getByTestId('card-placeholder')).toHaveCount(0);
    // the cards' own titles, not type codes
    await expect(card(page, 'daya').getByTestId('card-title')).toHaveText('Daya total');
    await expect(page.getByText('SINGLE_VALUE_CARD')).toHaveCount(0);
    await expect(valueOf(page, 'daya')).toHaveText(/\d.* kW$/, { timeout: 15_000 });
    await expect(card(page, 'tegangan').getByTestId('phase-1')).toContainText('V');
    const keys = ['daya', 'frekuensi', 'cos_phi'];
    const first = await Promise.all(keys.map(async (k) => (await valueOf(page, k).textContent()) ?? ''));
    await expect
      .poll(
        async () =>
          (await Promise.all(keys.map(async (k) => (await valueOf(page, k).textContent()) ?? ''))).some(
            (v, i) => v !== first[i],
          ),
        { timeout: 20_000, intervals: [250] },
      )
      .toBe(true);
    await page.screenshot({ path: `${SHOTS}/edit-layout-live.png`, fullPage: true });
  });

  test('a card is dragged by its body (its view is inert while arranging), and its menu names its type in Indonesian', async () => {
    const grid = page.getByTestId('dashboard-grid-edit');
    await expect(grid).toHaveAttribute('data-arrange', 'on');
    const before = await settledBox(page, 'daya');
    const step = before.width + 36;
    const body = (await card(page, 'daya').getByTestId('card-body').boundingBox())!;
    const from = { x: body.x + body.width / 2, y: body.y + body.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + (step * i) / 10, from.y);
    await page.mouse.up();
    await expect
      .poll(async () => Math.abs((await gridItem(page, 'daya').boundingBox())!.x - before.x - step))
      .toBeLessThan(12);
    // still live after the drop
    await expect(valueOf(page, 'daya')).toHaveText(/\d.* kW$/);

    await page.getByRole('button', { name: s.componentMenu('daya'), exact: true }).click();
    await expect(page.getByTestId('card-type-name')).toHaveText('Single Value');
    await expect(page.getByRole('menuitem', { name: s.editWithEditor })).toBeVisible();
    await page.keyboard.press('Escape');
  });

  test('a command card is shown disabled in the edit layout and sends nothing', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${paths.laundry}`);
    const button = card(page, 'mulai_cuci');
    await expect(button.getByTestId('command-readonly')).toBeVisible({ timeout: 15_000 });
    await expect(button.getByTestId('command-send')).toBeDisabled();
    await button.getByTestId('command-send').click({ force: true });
    await page.waitForTimeout(500);
    expect(commandCalls).toEqual([]);
  });

  test('the component editor previews the card as configured, before it is saved', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${paths.energi}/edit/daya`);
    await expect(page.getByRole('heading', { name: e.editTitle })).toBeVisible();
    const preview = page.getByTestId('component-preview');
    await expect(preview.getByTestId('card-title')).toHaveText('Daya total');
    await expect(preview.getByTestId('card-value')).toHaveText(/\d.* kW$/, { timeout: 15_000 });
    // a change of the form is previewed without saving
    await page.getByRole('button', { name: T.dashboards.variables.visualization }).click();
    const vis = page.getByRole('dialog');
    await vis.getByRole('textbox', { name: T.dashboards.view.title }).fill('Daya panel utama');
    await vis.getByRole('button', { name: T.common.save }).click();
    await expect(preview.getByTestId('card-title')).toHaveText('Daya panel utama');
    await expect(preview.getByTestId('card-value')).toHaveText(/\d.* kW$/);
    await page.screenshot({ path: `${SHOTS}/editor-preview.png`, fullPage: true });
  });

  test("a card whose query is incomplete shows the spec's message instead of a preview", async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${paths.energi}/add`);
    await expect(page.getByRole('heading', { name: e.addTitle })).toBeVisible();
    await expect(page.getByTestId('component-preview-message')).toHaveText(e.previewChooseType);
    await page.getByRole('combobox', { name: new RegExp(`^${e.category}`) }).click();
    await page.getByRole('option', { name: 'Single Value', exact: true }).click();
    await expect(page.getByTestId('component-preview-message')).toHaveText(T.dashboards.component.incomplete);
    await expect(page.getByTestId('component-preview')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/editor-preview-incomplete.png`, fullPage: true });
  });
});
