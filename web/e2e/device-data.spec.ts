// Spec 03 device data end to end: a real MQTT.js device (over the gateway's MQTT-over-WebSocket endpoint) publishes
// while the data detail page is open and the value appears without reloading; a configuration sent from
// 'Ubah Konfigurasi' reaches the device, which replies; a CSV is downloaded; the state list shows its states.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceFamilyCalls } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import { openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

const SHOTS = 'test-results/device-data-screens';

test.describe.serial('device data', () => {
  let page: Page;
  let t: TenantApp;
  let device: { id: number; store_mqtt_username: string; store_mqtt_password: string };
  let client: MqttClient;
  const commands: any[] = [];
  const row = (param: string) => page.locator(`[data-testid="sensor-row"][data-param="${param}"]`);

  test.beforeAll(async ({ browser, baseURL, request }) => {
    t = await tenantWithApp(request);
    const added = await request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, { data: { serial_number: `MQ-${unique('s')}`, name: 'Termostat Lobi' }, headers: tenantHeaders(t) });
    const body = await added.json();
    expect(body.response_result).toBe(0);
    device = body.data;
    client = await mqtt.connectAsync(`${baseURL!.replace(/^http/, 'ws')}/mqtt`, { username: device.store_mqtt_username, password: device.store_mqtt_password, clientId: unique('e2e'), reconnectPeriod: 0 });
    // a replying thermostat: every configuration is acknowledged and its new value reported
    await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
    client.on('message', (_topic, payload) => {
      const cmd = JSON.parse(payload.toString());
      commands.push(cmd);
      client.publish(`d/${device.id}/cmd/res`, JSON.stringify({ id: cmd.id, ok: true }));
      client.publish(`d/${device.id}/data`, JSON.stringify({ [cmd.sensor]: { [cmd.configtype]: { [cmd.param]: cmd.value } } }));
    });
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ hvac: { data: { temperature: 24.5, phase: { r: 220, s: 221 } }, config: { setpoint: 22 } } }), { qos: 1 });
    await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ mode: 'auto', alarm: null }), { qos: 1 });
    page = await browser.newPage({ baseURL, acceptDownloads: true });
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
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ hvac: { data: { temperature: 31.25 } } }), { qos: 1 });
    await expect(row('temperature').getByTestId('sensor-value')).toHaveText('31.25');
  });

  test("sends a configuration from 'Ubah Konfigurasi' to the replying device", async () => {
    await row('setpoint').getByRole('button', { name: T.deviceData.rowMenu('setpoint') }).click();
    await page.getByRole('menuitem', { name: T.deviceData.config }).click();
    const dialog = page.getByRole('dialog', { name: T.deviceData.configTitle });
    await dialog.getByLabel(T.deviceData.value).fill('');
    await dialog.getByRole('button', { name: T.deviceData.send }).click();
    await expect(dialog.getByText(T.deviceData.inputError)).toBeVisible();
    await dialog.getByLabel(T.deviceData.value).fill('23.5');
    await page.screenshot({ path: `${SHOTS}/config.png` });
    await dialog.getByRole('button', { name: T.deviceData.send }).click();
    await expect(notice(page, T.deviceData.configSuccess)).toBeVisible();
    expect(commands.at(-1)).toMatchObject({ sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 23.5 });
    await dialog.getByRole('button', { name: T.common.cancel }).click();
    // the device reported its new setpoint: it arrives live too
    await expect(row('setpoint').getByTestId('sensor-value')).toHaveText('23.5');
  });

  test('opens the Data dialog with the latest values', async () => {
    await row('temperature').getByRole('button', { name: T.deviceData.rowMenu('temperature') }).click();
    await page.getByRole('menuitem', { name: T.deviceData.viewData }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('tab', { name: T.deviceData.latestTab })).toBeVisible();
    await expect(dialog.getByRole('cell', { name: '31.25' })).toBeVisible();
    await expect(dialog.getByRole('cell', { name: '24.5' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/data-dialog.png` });
    await dialog.getByRole('tab', { name: T.deviceData.timeTab }).click();
    await expect(dialog.getByRole('cell', { name: '31.25' })).toBeVisible();
    await dialog.getByRole('button', { name: T.deviceData.close }).first().click();
  });

  test('downloads a CSV of the latest values with the file name rule', async () => {
    await row('temperature').getByRole('button', { name: T.deviceData.rowMenu('temperature') }).click();
    await page.getByRole('menuitem', { name: T.deviceData.download }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(T.deviceData.byCount).first().check();
    const count = dialog.getByRole('textbox', { name: T.deviceData.byCount });
    await count.fill('0');
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    await count.fill('10');
    await page.screenshot({ path: `${SHOTS}/download.png` });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: T.common.save }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^Termostat_Lobi_\\d{8}_\\d{6}_${device.id}_hvac_data_temperature\\.csv$`));
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('timestamp,time,sensor,configtype,param,subparam,datatype,value,quality');
    expect(lines.slice(1).map((l) => l.split(',')[7])).toEqual(['24.5', '31.25']);
  });

  test('lists the states with Active/Inactive', async () => {
    await page.goto(`/admin/${t.domain}/_device_state_/${device.id}`);
    await expect(page.getByRole('heading', { name: T.deviceStates.title, level: 2 })).toBeVisible();
    const mode = page.getByTestId('state-row').filter({ hasText: 'mode' });
    await expect(mode.getByText(T.deviceStates.active)).toBeVisible();
    await expect(page.getByTestId('state-row').filter({ hasText: 'alarm' }).getByText(T.deviceStates.inactive)).toBeVisible();
    await mode.getByRole('button', { name: T.deviceData.rowMenu('mode') }).hover();
    await expect(page.getByRole('menuitem', { name: T.deviceStates.view })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/states.png` });
    await page.getByRole('menuitem', { name: T.deviceStates.remove }).click();
    await expect(page.getByText(T.deviceStates.removeConfirmTitle)).toBeVisible();
    await page.getByRole('button', { name: T.common.yes }).click();
    await expect(page.getByTestId('state-row').filter({ hasText: 'mode' })).toHaveCount(0);
  });

  test('the Data page lists every latest value', async () => {
    await page.goto(`/admin/${t.domain}/_device_data_all_/${device.id}`);
    await expect(page.getByRole('heading', { name: T.deviceData.allTitle, level: 2 })).toBeVisible();
    await expect(page.getByTestId('data-row').filter({ hasText: 'setpoint' })).toContainText('23.5');
    await page.screenshot({ path: `${SHOTS}/all.png`, fullPage: true });
  });
});
