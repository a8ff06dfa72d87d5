// Spec 03 device data end to end: a real MQTT.js device (over the gateway's MQTT-over-WebSocket endpoint) publishes
// while the data detail page is open and the value appears without reloading; a configuration sent from
// 'Ubah Konfigurasi' reaches the device, which replies; a CSV is downloaded; the state list shows its states. The
// browser runs in another zone than the application's (Asia/Makassar against Asia/Jakarta): files carry the screen's
// times. A role that only lists devices is offered only what it may do.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import mqtt, { type MqttClient } from 'mqtt';
import { contracts, deviceFamilyCalls } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import { addUser, openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

const SHOTS = 'test-results/device-data-screens';
const ZONE = 'Asia/Makassar';
/** MM/DD/YYYY HH:mm:ss in the browser's zone (spec 03 section 9) */
const screenTime = (ts: number) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(ts)
      .map((x) => [x.type, x.value]),
  );
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
};
const DATE_TIME = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;

test.describe.serial('device data', () => {
  let page: Page;
  let t: TenantApp;
  let device: { id: number; store_mqtt_username: string; store_mqtt_password: string };
  let client: MqttClient;
  const commands: any[] = [];
  const row = (param: string) => page.locator(`[data-testid="sensor-row"][data-param="${param}"]`);

  test.beforeAll(async ({ browser, baseURL, request }) => {
    t = await tenantWithApp(request);
    const added = await request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
      data: { serial_number: `MQ-${unique('s')}`, name: 'Termostat Lobi' },
      headers: tenantHeaders(t),
    });
    const body = await added.json();
    expect(body.response_result).toBe(0);
    device = body.data;
    client = await mqtt.connectAsync(`${baseURL!.replace(/^http/, 'ws')}/mqtt`, {
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
      clientId: unique('e2e'),
      reconnectPeriod: 0,
    });
    // a replying thermostat: every configuration is acknowledged and its new value reported
    await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
    client.on('message', (_topic, payload) => {
      const cmd = JSON.parse(payload.toString());
      commands.push(cmd);
      client.publish(`d/${device.id}/cmd/res`, JSON.stringify({ id: cmd.id, ok: true }));
      client.publish(
        `d/${device.id}/data`,
        JSON.stringify({ [cmd.sensor]: { [cmd.configtype]: { [cmd.param]: cmd.value } } }),
      );
    });
    await client.publishAsync(
      `d/${device.id}/data`,
      JSON.stringify({ hvac: { data: { temperature: 24.5, phase: { r: 220, s: 221 } }, config: { setpoint: 22 } } }),
      { qos: 1 },
    );
    await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ mode: 'auto', alarm: null }), { qos: 1 });
    page = await browser.newPage({ baseURL, acceptDownloads: true, timezoneId: ZONE });
    await openAsTenant(page, t, `_device_data_detail_/${device.id}`);
  });
  test.afterAll(async () => {
    client?.end(true);
    await page?.close();
  });

  test('lists each sensor row with datatype, value and "{...}" for objects', async () => {
    await expect(page.getByRole('heading', { name: T.deviceData.detailTitle, level: 2 })).toBeVisible();
    await expect(row('temperature').getByTestId('sensor-value')).toHaveText('24.5');
    await expect(row('setpoint').getByTestId('sensor-value')).toHaveText('22');
    await row('phase').getByRole('button', { name: T.deviceData.objectValue }).click();
    const tree = page.getByRole('dialog');
    await expect(tree.getByText('"r": 220'.replace('"r": ', ': '))).toBeVisible();
    await tree.getByRole('button', { name: T.deviceData.close }).click();
    await expect(page.getByText(T.table.rowsPerPage)).toBeVisible();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/detail.png`, fullPage: true });
  });

  test('shows a value published over MQTT without reloading', async () => {
    await page.waitForTimeout(300); // the live subscription is made on mount
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ hvac: { data: { temperature: 31.25 } } }), {
      qos: 1,
    });
    await expect(row('temperature').getByTestId('sensor-value')).toHaveText('31.25');
  });

  test("sends a configuration from 'Ubah Konfigurasi' to the replying device", async () => {
    await row('setpoint')
      .getByRole('button', { name: T.deviceData.rowMenu('setpoint') })
      .click();
    await page.getByRole('menuitem', { name: T.deviceData.config }).click();
    const dialog = page.getByRole('dialog', { name: T.deviceData.configTitle });
    await dialog.getByLabel(T.deviceData.value).fill('');
    await dialog.getByRole('button', { name: T.deviceData.send }).click();
    await expect(dialog.getByText(T.deviceData.inputError)).toBeVisible();
    await dialog.getByLabel(T.deviceData.value).fill('23.5');
    await page.screenshot({ path: `${SHOTS}/config.png` });
    await dialog.getByRole('button', { name: T.deviceData.send }).click();
    await expect(notice(page, T.deviceData.configSuccess)).toBeVisible();
    // the result took the place of its pending notice
    await expect(notice(page, T.deviceData.configSending)).toHaveCount(0);
    expect(commands.at(-1)).toMatchObject({ sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 23.5 });
    // success closes the dialog and the row shows the new setpoint (the device's report confirms it live)
    await expect(dialog).toBeHidden();
    await expect(row('setpoint').getByTestId('sensor-value')).toHaveText('23.5');
  });

  test('opens the Data dialog with the latest values', async () => {
    await row('temperature')
      .getByRole('button', { name: T.deviceData.rowMenu('temperature') })
      .click();
    await page.getByRole('menuitem', { name: T.deviceData.viewData }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('tab', { name: T.deviceData.latestTab })).toBeVisible();
    await expect(dialog.getByRole('cell', { name: '31.25' })).toBeVisible();
    await expect(dialog.getByRole('cell', { name: '24.5' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/data-dialog.png` });
    await expect(dialog.getByText(T.table.rowsPerPage)).toBeVisible();
    await expect(dialog.getByText(T.table.displayedRows(1, 2, 2))).toBeVisible();
    await dialog.getByRole('tab', { name: T.deviceData.timeTab }).click();
    await expect(dialog.getByRole('cell', { name: '31.25' })).toBeVisible();
    // the window's series drawn above the table: one line through both points
    await expect(dialog.getByTestId('history-chart').locator('.scatterlayer .trace')).toHaveCount(1);
    await expect(dialog.getByTestId('history-chart').locator('.scatterlayer .point')).toHaveCount(2);
    // the range fields: 24-hour with seconds, whatever the browser's locale
    const [start, end] = [
      dialog.locator('input[aria-hidden="true"]').nth(0),
      dialog.locator('input[aria-hidden="true"]').nth(1),
    ];
    await expect(start).toHaveValue(DATE_TIME);
    await expect(end).toHaveValue(DATE_TIME);
    await expect(dialog.getByText(/\b(AM|PM)\b/)).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/data-dialog-time.png` });
    // an end before the start: a clear field error, the table is not told "empty"
    await end.evaluate((el: HTMLInputElement) => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(el, '01/01/2020 00:00:00');
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expect(dialog.getByText(T.deviceData.rangeOrder)).toBeVisible();
    await expect(dialog.getByText(T.deviceData.noData)).toHaveCount(0);
    await dialog.getByRole('button', { name: T.deviceData.close }).first().click();
  });

  test('downloads a CSV of the latest values with the file name rule', async () => {
    await row('temperature')
      .getByRole('button', { name: T.deviceData.rowMenu('temperature') })
      .click();
    await page.getByRole('menuitem', { name: T.deviceData.download }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(T.deviceData.byCount).first().check();
    const count = dialog.getByRole('textbox', { name: T.deviceData.byCount });
    await count.fill('0');
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    await count.fill('10');
    await page.screenshot({ path: `${SHOTS}/download.png` });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: T.common.save }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^Termostat_Lobi_\\d{8}_\\d{6}_${device.id}_hvac_data_temperature\\.csv$`),
    );
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('timestamp,time,sensor,configtype,param,subparam,datatype,value,quality');
    expect(lines.slice(1).map((l) => l.split(',')[7])).toEqual(['24.5', '31.25']);
    // the file's times are the screen's (the browser's zone), not the application's
    for (const l of lines.slice(1)) expect(l.split(',')[1]).toBe(screenTime(Number(l.split(',')[0])));
  });

  test('downloads by Waktu from one calendar month back, in the same zone', async () => {
    await row('temperature')
      .getByRole('button', { name: T.deviceData.rowMenu('temperature') })
      .click();
    await page.getByRole('menuitem', { name: T.deviceData.download }).click();
    const dialog = page.getByRole('dialog');
    const start = dialog.locator('input[aria-hidden="true"]').nth(0);
    await expect(start).toHaveValue(DATE_TIME);
    const shown = await start.inputValue();
    // one calendar month back: the month before this one (same day, or the month's last when shorter), not 30 days
    const month = Number(screenTime(Date.now()).slice(0, 2));
    expect(Number(shown.slice(0, 2))).toBe(month === 1 ? 12 : month - 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: T.common.save }).click(),
    ]);
    const lines = fs
      .readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[7])).toEqual(['24.5', '31.25']);
    for (const l of lines.slice(1)) expect(l.split(',')[1]).toBe(screenTime(Number(l.split(',')[0])));
  });

  test('lists the states with Aktif/Tidak Aktif', async () => {
    await page.goto(`/admin/${t.domain}/_device_state_/${device.id}`);
    await expect(page.getByRole('heading', { name: T.deviceStates.title, level: 2 })).toBeVisible();
    const mode = page.getByTestId('state-row').filter({ hasText: 'mode' });
    await expect(mode.getByText(T.deviceStates.active)).toBeVisible();
    await expect(
      page.getByTestId('state-row').filter({ hasText: 'alarm' }).getByText(T.deviceStates.inactive),
    ).toBeVisible();
    const modeMenu = mode.getByRole('button', { name: T.deviceData.rowMenu('mode') });
    await modeMenu.hover();
    await expect(page.getByRole('menuitem', { name: T.deviceStates.view })).toBeVisible();
    // leaving the button for elsewhere closes it
    await page.mouse.move(640, 700);
    await expect(page.getByRole('menu')).toBeHidden();
    // a click moves the pointer over the button first, which opens the menu: the click must not then close it (a
    // backdrop there took the click and closed the menu the hover had just opened)
    await modeMenu.click();
    await expect(page.getByRole('menuitem', { name: T.deviceStates.view })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/states.png` });
    await page.getByRole('menuitem', { name: T.deviceStates.remove }).click();
    await expect(page.getByText(T.deviceStates.removeConfirmTitle)).toBeVisible();
    await page.getByRole('button', { name: T.common.yes }).click();
    await expect(page.getByTestId('state-row').filter({ hasText: 'mode' })).toHaveCount(0);
  });

  test("downloads a state by Waktu with its times in the screen's zone", async () => {
    const alarm = page.getByTestId('state-row').filter({ hasText: 'alarm' });
    await alarm.getByRole('button', { name: T.deviceData.rowMenu('alarm') }).click();
    await page.getByRole('menuitem', { name: T.deviceStates.download }).click();
    const dialog = page.getByRole('dialog');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: T.common.save }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^Termostat_Lobi_\\d{8}_\\d{6}_${device.id}_state_alarm\\.csv$`),
    );
    const lines = fs
      .readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(2);
    const cells = lines[1]!.split(',');
    expect(cells[2]).toBe('Inactive'); // the file keeps the spec's words (its columns are field names); the screen says them in Indonesian
    expect(cells[4]).toBe(screenTime(Number(cells[3])));
  });

  test('the Data page lists every latest value', async () => {
    await page.goto(`/admin/${t.domain}/_device_data_all_/${device.id}`);
    await expect(page.getByRole('heading', { name: T.deviceData.allTitle, level: 2 })).toBeVisible();
    await expect(page.getByTestId('data-row').filter({ hasText: 'setpoint' })).toContainText('23.5');
    await page.screenshot({ path: `${SHOTS}/all.png`, fullPage: true });
  });

  test('a role that only lists devices is offered Lihat Data and Download, and no Hapus on states', async ({
    browser,
    baseURL,
    request,
  }) => {
    const role = await (
      await request.post(contracts.roles.add.path, {
        data: { name: unique('baca'), sys_navs: ['_device_list_'], permissions: {}, navs: [] },
        headers: tenantHeaders(t),
      })
    ).json();
    expect(role.response_result).toBe(0);
    const user = await addUser(request, t, role.data.id);
    const member = await browser.newPage({ baseURL, timezoneId: ZONE });
    await member.goto(`/${t.domain}/login`);
    await member.getByLabel(T.login.username).fill(user.username);
    await member.getByLabel(T.login.password, { exact: true }).fill(user.pass);
    await member.getByRole('button', { name: T.login.signIn }).click();
    await expect(member).toHaveURL(new RegExp(`/${t.domain}/_device_list_$`));
    await member.goto(`/${t.domain}/_device_data_detail_/${device.id}`);
    const setpoint = member.locator('[data-testid="sensor-row"][data-param="setpoint"]');
    await setpoint.getByRole('button', { name: T.deviceData.rowMenu('setpoint') }).click();
    await expect(member.getByRole('menuitem')).toHaveText([T.deviceData.viewData, T.deviceData.download]);
    await member.keyboard.press('Escape');
    await member.goto(`/${t.domain}/_device_state_/${device.id}`);
    const alarm = member.getByTestId('state-row').filter({ hasText: 'alarm' });
    await alarm.getByRole('button', { name: T.deviceData.rowMenu('alarm') }).hover();
    await expect(member.getByRole('menuitem')).toHaveText([T.deviceStates.view, T.deviceStates.download]);
    await member.close();
  });
});
