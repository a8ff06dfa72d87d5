// Issue 28 "Everywhere" as a user meets it: a device's detail screen follows its MQTT connection live; two devices
// deleted at once from the bulk bar; a tag category and an option renamed and deleted on "Penanda"; the device list
// filtered by a tag. Screenshots of the changed screens go to test-results/console-screens.
import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import mqtt from 'mqtt';
import { contracts, deviceFamilyCalls } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import { confirmYes, openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

const SHOTS = 'test-results/console-screens';
fs.mkdirSync(SHOTS, { recursive: true });

async function post(request: APIRequestContext, t: TenantApp, path: string, data: unknown) {
  const body = await (await request.post(path, { data, headers: tenantHeaders(t) })).json();
  expect(body.response_result, JSON.stringify(body)).toBe(0);
  return body;
}
const addDummy = async (request: APIRequestContext, t: TenantApp, name: string, tags: Record<string, string[]> = {}) =>
  (
    await post(request, t, Object.values(deviceFamilyCalls.dummy.adds)[0]!.path, {
      serial_number: `SN-${unique('d')}`,
      name,
      tags,
    })
  ).data as { id: number; name: string; serial_number: string };

test.describe.serial('console screens', () => {
  let t: TenantApp;
  let page: Page;
  test.beforeAll(async ({ browser, baseURL, request }) => {
    t = await tenantWithApp(request);
    page = await browser.newPage({ baseURL });
  });
  test.afterAll(async () => page?.close());

  test('the device detail badge flips live when the device connects and disconnects over MQTT', async ({
    baseURL,
    request,
  }) => {
    const device = (
      await post(request, t, Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
        serial_number: `MQ-${unique('s')}`,
        name: 'Meter Lobi',
      })
    ).data;
    await openAsTenant(page, t, `_device_data_detail_/${device.id}`);
    const heading = page.getByText(` · ${device.serial_number}`);
    await expect(heading.getByText(T.deviceData.off, { exact: true })).toBeVisible();
    await page.waitForTimeout(300); // the live subscription is made on mount
    const client = await mqtt.connectAsync(`${baseURL!.replace(/^http/, 'ws')}/mqtt`, {
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
      clientId: unique('e2e'),
      reconnectPeriod: 0,
    });
    try {
      await expect(heading.getByText(T.deviceData.on, { exact: true })).toBeVisible({ timeout: 5000 });
      await page.screenshot({ path: `${SHOTS}/detail-live-on.png` });
    } finally {
      await client.endAsync(); // a clean DISCONNECT (a dropped WebSocket is noticed only at the keep-alive: see the report)
    }
    await expect(heading.getByText(T.deviceData.off, { exact: true })).toBeVisible({ timeout: 5000 });
  });

  test('deletes two devices at once from the bulk bar after one confirmation', async ({ request }) => {
    const a = await addDummy(request, t, 'Pompa Hapus A');
    const b = await addDummy(request, t, 'Pompa Hapus B');
    const kept = await addDummy(request, t, 'Pompa Tetap');
    await page.goto(`/admin/${t.domain}/_device_list_`);
    await page.getByRole('checkbox', { name: T.devices.selectRow(a.name) }).check();
    await page.getByRole('checkbox', { name: T.devices.selectRow(b.name) }).check();
    await page.getByRole('button', { name: T.devices.bulkActions }).click();
    await page.getByRole('menuitem', { name: T.devices.bulkRemove }).click();
    await confirmYes(page, T.devices.bulkRemoveConfirm(2), T.common.yes);
    await expect(notice(page, T.devices.bulkRemoveDone(2, 2))).toBeVisible();
    await expect(page.getByTestId('device-row').filter({ hasText: a.name })).toHaveCount(0);
    await expect(page.getByTestId('device-row').filter({ hasText: b.name })).toHaveCount(0);
    await expect(page.getByTestId('device-row').filter({ hasText: kept.name })).toHaveCount(1);
    await expect(page.getByTestId('bulk-bar')).toBeHidden();
    const left = await (await request.get(contracts.devices.filter.path, { headers: tenantHeaders(t) })).json();
    expect(left.devices.map((d: { id: number }) => d.id)).not.toContain(a.id);
  });

  test('filters the device list by a tag, then renames and deletes the tag on "Penanda"', async ({ request }) => {
    await post(request, t, contracts.tags.add.path, { name: 'Gedung', prefix: 'gedung', category: 1 });
    await post(request, t, contracts.tags.addDefinition.path, { name: 'Gedung A', prefix: 'gedung' });
    await post(request, t, contracts.tags.addDefinition.path, { name: 'Gedung B', prefix: 'gedung' });
    const inA = await addDummy(request, t, 'Panel Gedung A', { gedung: ['gedung_a'] });
    const inB = await addDummy(request, t, 'Panel Gedung B', { gedung: ['gedung_b'] });

    await page.goto(`/admin/${t.domain}/_device_list_`);
    await expect(page.getByTestId('device-row').filter({ hasText: inB.name })).toHaveCount(1);
    await page.getByRole('combobox', { name: T.devices.tagFilter }).fill('Gedung A');
    await page.getByRole('option', { name: 'Gedung: Gedung A' }).click();
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await expect(page.getByTestId('device-row')).toContainText(inA.name);
    await page.screenshot({ path: `${SHOTS}/device-list-tag-filter.png`, fullPage: true });

    await page.goto(`/admin/${t.domain}/_tag_list_`);
    const row = page.getByTestId('tag-row').filter({ hasText: 'gedung' });
    // rename the option "Gedung B"
    await row.getByRole('button', { name: T.tags.optionEditFor('Gedung B') }).click();
    const rename = page.getByRole('dialog').filter({ hasText: T.tags.optionEditTitle });
    await rename.getByLabel(T.tags.label).fill('Gedung Barat');
    await rename.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.tags.optionEditSuccess)).toBeVisible();
    await expect(row.getByTestId('tag-option').filter({ hasText: 'Gedung Barat' })).toBeVisible();
    // delete the option "Gedung A": the device carrying it loses it
    await row.getByTestId('tag-option').filter({ hasText: 'Gedung A' }).locator('.MuiChip-deleteIcon').click();
    await confirmYes(page, T.tags.optionRemoveConfirm('Gedung A'), T.common.yes);
    await expect(notice(page, T.tags.optionRemoveSuccess(1))).toBeVisible();
    await expect(row.getByTestId('tag-option')).toHaveCount(1);
    // rename the category, then delete it
    await row.getByRole('button', { name: T.tags.rowMenu('Gedung') }).click();
    await page.getByRole('menuitem', { name: T.tags.edit }).click();
    const edit = page.getByRole('dialog').filter({ hasText: T.tags.editTitle });
    await expect(edit.getByLabel(T.tags.keyLabel)).toHaveValue('gedung');
    await edit.getByLabel(T.tags.label).fill('Gedung Kantor');
    await edit.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.tags.editSuccess)).toBeVisible();
    await expect(row).toContainText('Gedung Kantor');
    await page.screenshot({ path: `${SHOTS}/tag-list.png`, fullPage: true });
    await row.getByRole('button', { name: T.tags.rowMenu('Gedung Kantor') }).click();
    await page.getByRole('menuitem', { name: T.tags.remove }).click();
    await confirmYes(page, T.tags.removeConfirm('Gedung Kantor'), T.common.yes);
    await expect(notice(page, T.tags.removeSuccess(1))).toBeVisible();
    await expect(page.getByTestId('tag-row')).toHaveCount(0);
    const device = await (
      await request.get(contracts.devices.get.path.replace('{id}', String(inB.id)), { headers: tenantHeaders(t) })
    ).json();
    expect(device.data.tags).toEqual({});
  });

  test('adds an application from a template, which creates its dashboard there', async () => {
    const domain = unique('tpl').toLowerCase();
    const name = T.templatePicker.templateName(T.templatePicker.types.energy);
    await page.goto('/admin/apps/add');
    await page.getByLabel(T.appForm.name).fill('Aplikasi Template');
    await page.getByLabel(T.appForm.domain).fill(domain);
    await page.getByRole('button', { name: T.appForm.template }).click();
    const picker = page.getByRole('dialog').filter({ hasText: T.templatePicker.title });
    await picker.getByRole('button', { name: new RegExp(name) }).click();
    await expect(page.getByText(T.appForm.templateChosen(name))).toBeVisible();
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.templatePicker.created(name))).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/apps$/);
    await page.goto(`/admin/${domain}/_dashboard_list_`);
    await expect(page.getByText(name).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/template-dashboard-list.png`, fullPage: true });
  });
});
