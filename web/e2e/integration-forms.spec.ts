// Issue 27's two form fields end to end: a Tasmota is registered through the wizard with the Topic it already has
// (and the Topic field refuses what Tasmota would not take, in Indonesian); a LoRa server is saved with its ChirpStack
// application UUID (refused when it is not a UUID), which the edit form shows again.
import { expect, test } from '@playwright/test';
import { contracts, deviceFamilyCalls, fillPath } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import { openAsTenant, tenantHeaders, tenantWithApp } from './access-fixtures.js';

test('the Tasmota wizard registers a device with the Topic it already has', async ({ page, request }) => {
  const t = await tenantWithApp(request);
  const serial = unique('TAS-');
  // topics are unique on the broker (across tenants): one of this run's own
  const topic = `tasmota_${unique('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-10)}`;
  await openAsTenant(page, t, '_device_list_');
  await page.getByRole('button', { name: T.devices.newDevice }).click();
  await page.getByRole('button', { name: `${T.devices.choose} Tasmota`, exact: true }).click();
  await expect(page).toHaveURL(/\/_device_add_\/info$/);
  await page.getByLabel(T.devices.serialNumber).fill(serial);
  await page.getByLabel(T.devices.name).fill('Lampu Teras');
  const field = page.getByTestId('tasmota-topic');
  await expect(page.getByText(T.devices.tasmotaTopicHelp)).toBeVisible();
  await field.fill('lampu/teras');
  await page.getByRole('button', { name: T.common.save, exact: true }).click();
  await expect(page.getByText(T.devices.tasmotaTopicInvalid)).toBeVisible();
  await field.fill(topic);
  await page.getByRole('button', { name: T.common.save, exact: true }).click();
  await expect(notice(page, T.devices.addSuccess)).toBeVisible();

  const listed = await (
    await request.get(contracts.devices.filter.path, { params: { search: serial }, headers: tenantHeaders(t) })
  ).json();
  const id = listed.devices[0].id as number;
  const got = await (
    await request.get(fillPath(deviceFamilyCalls.tasmota.get.path, { id }).path, { headers: tenantHeaders(t) })
  ).json();
  expect(got.response_result).toBe(0);
  expect(JSON.stringify(got)).toContain(`"topic":"${topic}"`);
});

test('the LoRa server form saves the ChirpStack application UUID', async ({ page, request }) => {
  const t = await tenantWithApp(request);
  const uuid = '0f3c9a52-7b1d-4e2a-9c55-1a2b3c4d5e6f';
  await openAsTenant(page, t, '_lora_add_');
  await expect(page.getByRole('heading', { name: T.lora.addTitle })).toBeVisible();
  await page.getByLabel(T.lora.mac, { exact: false }).fill('AA:BB:CC:DD:EE:0F');
  await page.getByLabel(T.lora.name, { exact: false }).fill('ChirpStack Gedung');
  await page.getByLabel(T.lora.server, { exact: false }).first().fill('chirpstack.contoh.id:1883');
  const field = page.getByTestId('lora-application-uuid');
  await field.fill('bukan-uuid');
  await page.getByRole('button', { name: T.common.save, exact: true }).click();
  await expect(page.getByText(T.lora.applicationUuidInvalid)).toBeVisible();
  await field.fill(uuid.toUpperCase());
  await page.getByRole('button', { name: T.common.save, exact: true }).click();
  await expect(notice(page, T.lora.addSuccess)).toBeVisible();

  const list = await (await request.get(contracts.lora.list.path, { headers: tenantHeaders(t) })).json();
  const saved = list.data.find((s: { name: string }) => s.name === 'ChirpStack Gedung');
  expect(saved.application_uuid).toBe(uuid);
  await page.goto(`/admin/${t.domain}/_lora_edit_/${saved.id}`);
  await expect(page.getByTestId('lora-application-uuid')).toHaveValue(uuid);
});
