// Issue 38 item 1, as a user meets it: an application with more than 300 devices (the demo's count), and every device
// picker finds a device from the middle of the list by typing part of its name, chosen with the keyboard: the rule
// wizard's Perangkat and the component editor's query editor. A device without data yet offers its family's known
// sensors (a Tasmota plug: ENERGY ...) and says what to type.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { contracts, deviceFamilyCalls, fillPath, FAMILY_POINTS } from '@sentra/contracts';
import { pick, T, unique } from './helpers.js';
import {
  addDashboard,
  confirmYes,
  openAsTenant,
  tenantHeaders,
  tenantWithApp,
  type TenantApp,
} from './access-fixtures.js';

const SHOTS = '.tmp/screens';
const S = T.ruleScreens;
const q = T.dashboards.query;
const FLEET = 301;
/** the devices the demo's dashboards use, and one from the middle of the list with declared sensors */
const NAMED: Record<number, string> = {
  1: 'Panel Listrik 00001',
  2: 'SPBU 00002',
  8: 'Mesin Laundry 00008',
  150: 'Pompa Air 00150',
};

async function addFleet(request: APIRequestContext, t: TenantApp): Promise<void> {
  const add = async (i: number) => {
    const name = NAMED[i] ?? `Meter Gedung ${String(i).padStart(5, '0')}`;
    const res = await request.post(deviceFamilyCalls.dummy.adds.dummy!.path, {
      data: {
        serial_number: `SN-${String(i).padStart(5, '0')}-${unique('p')}`,
        name,
        ...(i === 150 ? { sensors: { pompa: { data: { debit: 'float', tekanan: 'float' } } } } : {}),
      },
      headers: tenantHeaders(t),
    });
    expect((await res.json()).response_result).toBe(0);
  };
  // in the order the demo registers them: its dashboards' devices are the oldest, last of a newest-first list
  for (let i = 1; i <= FLEET; i += 25)
    await Promise.all(Array.from({ length: Math.min(25, FLEET - i + 1) }, (_, k) => add(i + k)));
}

test.describe.serial('device pickers over a 301-device application', () => {
  let page: Page;
  let t: TenantApp;
  let path: string;

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(180_000);
    t = await tenantWithApp(request);
    await addFleet(request, t);
    // a Tasmota plug that has sent nothing yet
    const plug = await request.post(deviceFamilyCalls.tasmota.adds.tasmota!.path, {
      data: { serial_number: unique('TS-'), name: 'Stopkontak Kantor' },
      headers: tenantHeaders(t),
    });
    expect((await plug.json()).response_result).toBe(0);
    const id = await addDashboard(request, t, 'Pemantauan Pompa');
    const got = await (
      await request.get(fillPath(contracts.dashboards.get.path, { id }).path, { headers: tenantHeaders(t) })
    ).json();
    path = got.data.path;
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
  });
  test.afterAll(async () => {
    await page.close();
  });

  test("the rule wizard's Perangkat finds Mesin Laundry 00008 by typing and takes it with the keyboard", async () => {
    await openAsTenant(page, t, '_rule_list_');
    await page.getByRole('button', { name: T.rules.newRule }).click();
    await page.getByRole('dialog').getByRole('button', { name: T.rules.editor }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/info$/);
    await page.getByRole('textbox', { name: S.name }).fill('Laundry berhenti');
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/trigger$/);

    const rows = page.getByTestId('trigger-row');
    const device = rows.nth(0).getByRole('combobox', { name: S.device });
    await device.click();
    // one page of the whole application, and how many more typing reaches
    await expect(page.getByTestId('device-option')).toHaveCount(20);
    await expect(page.getByTestId('device-picker-more')).toHaveText(T.common.moreDevices(20, FLEET + 1));
    await device.pressSequentially('laundry 0000');
    await expect(page.getByTestId('device-option')).toHaveCount(1);
    await expect(page.getByTestId('device-option')).toContainText('Mesin Laundry 00008');
    await page.screenshot({ path: `${SHOTS}/picker-rule-wizard.png` });
    await device.press('ArrowDown');
    await device.press('Enter');
    await expect(device).toHaveValue('Mesin Laundry 00008');

    // a Dummy without data: the pickers say what to type
    await expect(page.getByTestId('trigger-no-data')).toContainText(FAMILY_POINTS.dummy.hint);

    // a Tasmota plug without data: its family's known sensors are offered
    await device.fill('stopkontak');
    await expect(page.getByTestId('device-option')).toHaveCount(1);
    await device.press('ArrowDown');
    await device.press('Enter');
    await expect(device).toHaveValue('Stopkontak Kantor');
    await expect(page.getByTestId('trigger-no-data')).toContainText(FAMILY_POINTS.tasmota.hint);
    const sensor = rows.nth(1).getByRole('combobox', { name: S.sensor });
    await sensor.click();
    await expect(page.getByRole('option', { name: 'ENERGY', exact: true })).toBeVisible();
    await page.getByRole('option', { name: 'ENERGY', exact: true }).click();
    await rows.nth(2).getByRole('combobox', { name: S.config }).click();
    await page.getByRole('option', { name: 'data', exact: true }).click();
    await rows.nth(3).getByRole('combobox', { name: S.param }).click();
    await page.getByRole('option', { name: 'Power', exact: true }).click();
    await expect(rows.nth(3).getByRole('combobox', { name: S.param })).toHaveValue('Power');
    await page.screenshot({ path: `${SHOTS}/picker-rule-family-points.png`, fullPage: true });
    await page.setViewportSize({ width: 400, height: 860 });
    await device.click();
    await page.screenshot({ path: `${SHOTS}/picker-rule-wizard-400.png`, fullPage: true });
    await device.press('Escape');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("the query editor's Perangkat finds Pompa Air 00150 from the middle of the list with the keyboard", async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${path}`);
    await page.getByRole('button', { name: T.dashboards.screens.addComponent }).click();
    await confirmYes(page, T.dashboards.confirm.addComponentQuestion, T.dashboards.layout.editor);
    await page.getByRole('textbox', { name: T.dashboards.editor.key }).fill('debit');
    await pick(page, T.dashboards.editor.category, 'Single Value');
    await page
      .getByRole('button', { name: `${T.dashboards.editor.setQuery} ${T.dashboards.editor.roles.value}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox').first().click();
    await page.getByRole('option', { name: 'LATEST', exact: true }).click();

    const device = dialog.getByRole('combobox', { name: q.device });
    await device.click();
    await expect(page.getByTestId('device-option')).toHaveCount(20);
    await device.pressSequentially('pompa air 00150');
    await expect(page.getByTestId('device-option')).toHaveCount(1);
    await device.press('ArrowDown');
    await device.press('Enter');
    await expect(device).toHaveValue('Pompa Air 00150');
    await page.screenshot({ path: `${SHOTS}/picker-query-editor.png` });
    // its declared sensors follow in the next selector
    await pick(page, q.sensor, 'pompa', dialog);

    // the demo dashboards' devices, the oldest of the application, are found the same way
    for (const name of ['Panel Listrik 00001', 'SPBU 00002', 'Mesin Laundry 00008']) {
      await device.fill(name.toLowerCase());
      await expect(page.getByTestId('device-option')).toHaveCount(1);
      await expect(page.getByTestId('device-option')).toContainText(name);
    }
    await device.press('Escape');
  });

  for (const width of [1366, 400])
    test(`at ${width} px "Alat Baru" never covers a row's menu: each row, as the last one seen, opens its menu`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/admin/${t.domain}/_device_list_`);
      const rows = page.getByTestId('device-row');
      await expect(rows).toHaveCount(25);
      // the list's loading overlay has faded out
      await expect(page.locator('.MuiBackdrop-root:visible')).toHaveCount(0);
      const fab = page.getByRole('button', { name: T.devices.newDevice });
      for (let i = 0; i < 25; i++) {
        // scroll so this row's menu button is the lowest thing above the bar (or the window's bottom)
        const hit = await page.evaluate((i) => {
          const button = document
            .querySelectorAll('[data-testid="device-row"]')
            [i]!.querySelector<HTMLElement>('button[aria-haspopup="menu"]')!;
          button.scrollIntoView({ block: 'nearest', inline: 'nearest' });
          const bar = document.querySelector('[data-testid="device-add-bar"]');
          const limit = bar ? bar.getBoundingClientRect().top : window.innerHeight;
          window.scrollBy(0, button.getBoundingClientRect().bottom - limit);
          const r = button.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return top !== null && button.contains(top) ? true : `${top?.tagName}.${top?.className} at y ${r.top}`;
        }, i);
        const b = await rows
          .nth(i)
          .getByRole('button', { name: /^Aksi untuk / })
          .boundingBox();
        const f = await fab.boundingBox();
        const overlaps =
          b && f && b.x < f.x + f.width && f.x < b.x + b.width && b.y < f.y + f.height && f.y < b.y + b.height;
        expect(overlaps, `row ${i + 1}'s menu under Alat Baru`).toBeFalsy();
        expect(hit, `row ${i + 1}'s menu receives the click`).toBe(true);
      }
      // the last row, clicked as a user would
      await rows
        .nth(24)
        .getByRole('button', { name: /^Aksi untuk / })
        .click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expect(page.getByRole('menu')).toHaveCSS('opacity', '1');
      await page.screenshot({ path: `${SHOTS}/device-list-fab-${width}.png` });
      await page.keyboard.press('Escape');
    });
});
