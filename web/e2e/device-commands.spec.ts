// Issue 38 item 6: commands from a device's own screens, answered by the simulated fleet's wire (the small demo
// fleet: Tasmota plugs answering cmnd/<topic>/POWER on stat/<topic>/RESULT, a generic MQTT meter answering on
// d/<id>/cmd/res). A Tasmota POWER toggle from the plug's state list and its detail, a meter's breaker switched from
// its screen, and a plug that stops answering reads "(timeout)" as a control card's command does.
import { expect, test, type Page } from '@playwright/test';
import { T } from '@sentra/contracts';
import { notice } from './helpers.js';
import { openAsTenant, tenantWithApp, type TenantApp } from './access-fixtures.js';
import { runSmallDemoFleet } from './demo-fleet.kit.js';
import type { FleetHandle, RegisteredDevice } from '../../simulator/src/index.js';

const SHOTS = '.tmp/screens';
const C = T.deviceCommands;
const c = T.dashboards.commands;

test.describe.serial("commands from a device's screens", () => {
  let page: Page;
  let t: TenantApp;
  let fleet: FleetHandle;
  let plug: RegisteredDevice;
  let meter: RegisteredDevice;
  const panel = () => page.getByTestId('device-commands');
  const command = (label: string) => panel().locator(`[data-testid="device-command"][data-command="${label}"]`);
  const stateValue = (key: string) =>
    page
      .getByTestId('state-row')
      .filter({ has: page.getByRole('cell', { name: key, exact: true }) })
      .getByRole('cell')
      .nth(1);

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(90_000);
    t = await tenantWithApp(request);
    fleet = await runSmallDemoFleet(baseURL!, t, 'e2e-device-commands');
    // a plug whose relay just switches (a laundry plug's POWER starts or stops its machine)
    plug = fleet.devices.find((d) => d.plan.family === 'tasmota' && d.plan.profile === 'environment')!;
    meter = fleet.devices.find((d) => d.plan.family === 'mqtt' && d.plan.profile === 'meter')!;
    expect(plug && meter).toBeTruthy();
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
    await openAsTenant(page, t, `_device_state_/${plug.id}`);
  });
  test.afterAll(async () => {
    await fleet?.stop();
    await page?.close();
  });

  test("a Tasmota plug's POWER toggled from its state list is answered, and its POWER state follows", async () => {
    await expect(stateValue('POWER')).toHaveText(/^(ON|OFF)$/, { timeout: 20_000 });
    const before = (await stateValue('POWER').textContent()) as 'ON' | 'OFF';
    const after = before === 'ON' ? 'OFF' : 'ON';
    await expect(command(C.power).getByTestId('device-command-current')).toHaveText(before);
    await command(C.power).getByRole('button', { name: C.toggle }).click();
    await expect(page.getByTestId('device-command-status')).toHaveText(`POWER: TOGGLE · ${c.success}`);
    await expect(notice(page, c.success)).toBeVisible();
    // the plug's answer comes back as its state, live
    await expect(stateValue('POWER')).toHaveText(after);
    await expect(command(C.power).getByTestId('device-command-current')).toHaveText(after);
    await page.screenshot({ path: `${SHOTS}/device-commands-states.png`, fullPage: true });
    await page.setViewportSize({ width: 400, height: 860 });
    await page.screenshot({ path: `${SHOTS}/device-commands-states-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("the same from the plug's detail: POWER ON, and TelePeriod within its bounds", async () => {
    await page.goto(`/admin/${t.domain}/_device_data_detail_/${plug.id}`);
    await command(C.power).getByRole('button', { name: C.on }).click();
    await expect(page.getByTestId('device-command-status')).toHaveText(`POWER: ON · ${c.success}`);
    await expect(command(C.power).getByTestId('device-command-current')).toHaveText('ON');
    const period = command(C.telePeriod).getByRole('spinbutton', { name: C.telePeriod });
    await period.fill('5');
    await expect(command(C.telePeriod).getByRole('button', { name: C.send })).toBeDisabled();
    await period.fill('60');
    await command(C.telePeriod).getByRole('button', { name: C.send }).click();
    await expect(page.getByTestId('device-command-status')).toHaveText(`TelePeriod: 60 · ${c.success}`);
    await page.screenshot({ path: `${SHOTS}/device-commands-detail.png`, fullPage: true });
  });

  test("a meter's breaker is switched from its screen, and back through the state's Ubah nilai", async () => {
    await page.goto(`/admin/${t.domain}/_device_state_/${meter.id}`);
    await expect(stateValue('breaker')).toHaveText('closed', { timeout: 20_000 });
    await command(C.switchOf('breaker')).getByRole('button', { name: 'open', exact: true }).click();
    await expect(page.getByTestId('device-command-status')).toHaveText(`breaker: open · ${c.success}`);
    await expect(stateValue('breaker')).toHaveText('open', { timeout: 15_000 });

    await page.getByRole('button', { name: T.deviceData.rowMenu('breaker') }).click();
    await page.getByRole('menuitem', { name: C.changeState }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(C.switchOf('breaker'))).toBeVisible();
    await dialog.getByRole('textbox', { name: T.deviceData.value }).fill('closed');
    await dialog.getByRole('button', { name: T.deviceData.send }).click();
    await expect(notice(page, T.deviceData.configSuccess)).toBeVisible();
    await expect(stateValue('breaker')).toHaveText('closed', { timeout: 15_000 });
  });

  test("a plug that does not answer reads 'Kirim perintah gagal (timeout)'", async () => {
    expect(fleet.fault(plug.plan.serial, 'silent')).toBe(true);
    await page.goto(`/admin/${t.domain}/_device_state_/${plug.id}`);
    await command(C.power).getByRole('button', { name: C.toggle }).click();
    await expect(page.getByTestId('device-command-status')).toHaveText(`POWER: TOGGLE · ${c.failed} ${c.timeout}`, {
      timeout: 15_000,
    });
    await expect(notice(page, `${c.failed} ${c.timeout}`)).toBeVisible();
    fleet.fault(plug.plan.serial, 'none');
  });
});
