// Spec 03 device registry end to end: add a Dummy device through the wizard with tags, a Sentra end device through
// token activation while a real MQTT client connects with the token, a ZLAN gateway through the UID check (the
// gateway publishes on gw/<uid>/up), its secret and connection settings shown once, then the gateway signing in with
// them; search and filter the list; edit info and tags; regenerate the gateway secret; delete.
import { expect, test, type Page } from '@playwright/test';
import mqtt, { type MqttClient } from 'mqtt';
import { contracts } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import { confirmYes, openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

const MQTT_PORT = Number(process.env.SENTRA_E2E_MQTT_PORT);
const SHOTS = 'test-results/devices-screens';

function connectMqtt(opts: mqtt.IClientOptions): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${MQTT_PORT}`, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
    client.once('connect', () => resolve(client));
    client.once('error', (err) => {
      client.end(true);
      reject(err);
    });
  });
}

test.describe.serial('device registry', () => {
  let page: Page;
  let t: TenantApp;
  const clients: MqttClient[] = [];
  const dummy = { serial: `DUM-${unique('s')}`, name: 'Pompa Air Dummy' };
  const raspi = { serial: `RPI-${unique('s')}`, name: 'Raspi Gudang' };
  const zlan = { serial: `ZL-${unique('s')}`, name: 'ZLAN Pabrik', uid: `ZLAN${unique('u')}`, secret: '' };
  const row = (name: string) => page.getByTestId('device-row').filter({ hasText: name });
  const list = () => page.goto(`/admin/${t.domain}/_device_list_`);

  test.beforeAll(async ({ browser, baseURL, request }) => {
    expect(MQTT_PORT, 'global setup exports SENTRA_E2E_MQTT_PORT').toBeGreaterThan(0);
    t = await tenantWithApp(request);
    const headers = tenantHeaders(t);
    for (const data of [
      { name: 'Lokasi', prefix: 'lokasi', category: 1 },
      { name: 'Label Bebas', prefix: 'bebas', category: 4 },
    ]) {
      expect((await (await request.post(contracts.tags.add.path, { data, headers })).json()).response_result).toBe(0);
    }
    expect(
      (
        await (
          await request.post(contracts.tags.addDefinition.path, {
            data: { name: 'Gedung A', prefix: 'lokasi' },
            headers,
          })
        ).json()
      ).response_result,
    ).toBe(0);
    page = await browser.newPage({ baseURL });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await openAsTenant(page, t, '_device_list_');
  });
  test.afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await page.close();
  });

  test('shows the empty list with "Oopss... Perangkat Masih Kosong"', async () => {
    await expect(page.getByRole('heading', { name: T.devices.title, level: 2 })).toBeVisible();
    await expect(page.getByText(T.devices.empty)).toBeVisible();
    await expect(page.getByText(T.table.rowsPerPage)).toBeVisible();
  });

  test('adds a Dummy device through the wizard with tags', async () => {
    await page.getByRole('button', { name: T.devices.newDevice }).click();
    await expect(page).toHaveURL(/\/_device_add_$/);
    await expect(page.getByRole('heading', { name: T.devices.addTitle, level: 2 })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/wizard-category.png`, fullPage: true });
    await page.getByRole('button', { name: `${T.devices.choose} Dummy`, exact: true }).click();
    await expect(page).toHaveURL(/\/_device_add_\/info$/);
    // Penanda with empty info: the section 5 messages
    await page.getByRole('button', { name: T.devices.tagsButton }).click();
    await expect(page.getByText(T.devices.serialRequired)).toBeVisible();
    await expect(page.getByText(T.devices.nameRequired)).toBeVisible();
    await page.getByLabel(T.devices.serialNumber).fill(dummy.serial);
    await page.getByLabel(T.devices.name).fill(dummy.name);
    await expect(page.getByRole('button', { name: T.common.save, exact: true })).toBeVisible();
    await page.getByRole('button', { name: T.devices.tagsButton }).click();
    await expect(page).toHaveURL(/\/_device_add_\/tag_cat$/);
    await expect(page.getByText(T.devices.chooseTagCategories)).toBeVisible();
    await page.getByLabel('Lokasi').check();
    await page.getByLabel('Label Bebas').check();
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await expect(page).toHaveURL(/\/_device_add_\/tag$/);
    await expect(page.getByText(T.devices.chooseTags)).toBeVisible();
    await page.getByRole('combobox', { name: 'Lokasi' }).click();
    await page.getByRole('option', { name: 'Gedung A' }).click();
    const tagInput = page.getByTestId('tag-input-bebas');
    await tagInput.fill('Pompa');
    await tagInput.press('Enter');
    await expect(page.getByText(T.tags.noCapitals)).toBeVisible();
    await tagInput.fill('1pompa');
    await tagInput.press('Enter');
    await expect(page.getByText(T.tags.startsWithDigit)).toBeVisible();
    await tagInput.fill('pompa');
    await tagInput.press('Enter');
    await tagInput.fill('lantai_2');
    await tagInput.press(' ');
    await expect(page.getByTestId('tags-bebas').getByText('lantai_2')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/wizard-tags.png`, fullPage: true });
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(notice(page, T.devices.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/_device_list_$/);
    await expect(row(dummy.name)).toContainText(dummy.serial);
    await expect(row(dummy.name).getByTestId('device-tags')).toContainText('Lokasi: Gedung A');
    await expect(row(dummy.name).getByTestId('device-tags')).toContainText('pompa');
    await expect(row(dummy.name).getByTestId('device-tags')).toContainText('lantai_2');
  });

  test('adds a Sentra end device through token activation while an MQTT client connects with the token', async () => {
    await page.getByRole('button', { name: T.devices.newDevice }).click();
    await page.getByRole('combobox', { name: T.devices.categoryFilter }).click();
    await page.getByRole('option', { name: 'Sentra End Device' }).click();
    await expect(page.getByTestId('device-type-card')).toHaveCount(1);
    await page.getByRole('button', { name: `${T.devices.choose} Sentra End Device` }).click();
    await page.getByLabel(T.devices.serialNumber).fill(raspi.serial);
    await page.getByLabel(T.devices.name).fill(raspi.name);
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await expect(page).toHaveURL(/\/_device_add_\/sensors$/);
    const sensors = page.getByLabel(T.devices.sensors);
    await sensors.fill('{bukan json');
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await expect(notice(page, T.devices.sensorsJson)).toBeVisible();
    await sensors.fill('{"suhu":{"data":{"celsius":0}}}');
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await expect(page).toHaveURL(/\/_device_add_\/activation$/);
    await expect(page.getByText(T.devices.activationTitle)).toBeVisible();
    const tokenField = page.getByTestId('activation-token');
    await expect(tokenField).toHaveValue(/^[0-9a-f]{64}$/);
    const save = page.getByRole('button', { name: T.common.save, exact: true });
    await expect(save).toBeDisabled();
    // Refresh token issues another one
    const first = await tokenField.inputValue();
    await page.getByRole('button', { name: T.devices.refreshToken }).click();
    await expect(tokenField).not.toHaveValue(first);
    await expect(tokenField).toHaveValue(/^[0-9a-f]{64}$/);
    await expect(page.getByText(T.devices.tokenWaiting)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/activation-token.png`, fullPage: true });
    const token = await tokenField.inputValue();
    const device = await connectMqtt({ username: token, clientId: unique('raspi') });
    clients.push(device);
    await expect(page.getByText(T.devices.tokenConnected)).toBeVisible({ timeout: 15_000 });
    await expect(save).toBeEnabled();
    await save.click();
    await expect(notice(page, T.devices.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/_device_list_$/);
    await expect(row(raspi.name)).toContainText(raspi.serial);
    // the connection opened before the add now speaks for the device: a message makes it online
    const id = Number((await row(raspi.name).textContent())?.match(/#(\d+)/)?.[1]);
    await device.publishAsync(`d/${id}/data`, '{"suhu":{"data":{"celsius":21}}}', { qos: 1 });
    await expect
      .poll(
        async () => {
          await list();
          return row(raspi.name).textContent();
        },
        { timeout: 10_000 },
      )
      .toContain(T.devices.online);
  });

  test('adds a ZLAN gateway through the UID check', async () => {
    await page.getByRole('button', { name: T.devices.newDevice }).click();
    await page.getByRole('button', { name: `${T.devices.choose} ZLAN`, exact: true }).click();
    await page.getByLabel(T.devices.serialNumber).fill(zlan.serial);
    await page.getByLabel(T.devices.name).fill(zlan.name);
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await expect(page).toHaveURL(/\/_device_add_\/activation\/zlan$/);
    await page.getByRole('button', { name: T.devices.activate, exact: true }).click();
    await expect(page.getByText(T.devices.uidRequired)).toBeVisible();
    await page.getByLabel(T.devices.uid).fill(zlan.uid);
    await page.getByRole('button', { name: T.devices.activate, exact: true }).click();
    await expect(notice(page, T.devices.serverUidNotHeard)).toBeVisible();
    await expect(page.getByRole('button', { name: T.devices.activate, exact: true })).toBeVisible();

    const gateway = await connectMqtt({ username: zlan.uid, clientId: zlan.uid });
    clients.push(gateway);
    await gateway.publishAsync(`gw/${zlan.uid}/up`, 'hello');
    await expect(async () => {
      await page.getByRole('button', { name: T.devices.activate, exact: true }).click();
      await expect(page.getByText(T.devices.uidChecked)).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/activation-uid.png`, fullPage: true });
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(notice(page, T.devices.addSuccess)).toBeVisible();
    // the secret, shown once, with the broker address and the exact settings the gateway must use
    const panel = page.getByTestId('broker-secret');
    await expect(panel.getByText(T.devices.secretShownOnce)).toBeVisible();
    await expect(panel.getByLabel(T.devices.brokerHost, { exact: true })).toHaveValue('127.0.0.1');
    await expect(panel.getByLabel(T.devices.brokerPort, { exact: true })).toHaveValue(String(MQTT_PORT));
    await expect(panel.getByLabel(T.devices.brokerWsUrl, { exact: true })).toHaveValue(
      /^ws:\/\/127\.0\.0\.1:\d+\/mqtt$/,
    );
    await expect(panel.getByLabel(T.devices.clientId, { exact: true })).toHaveValue(zlan.uid);
    await expect(panel.getByLabel(T.devices.infoUsername, { exact: true })).toHaveValue(zlan.uid);
    await expect(panel.getByLabel(T.devices.upTopic, { exact: true })).toHaveValue(`gw/${zlan.uid}/up`);
    await expect(panel.getByLabel(T.devices.downTopic, { exact: true })).toHaveValue(`gw/${zlan.uid}/down`);
    zlan.secret = await panel.getByLabel(T.devices.gatewaySecret, { exact: true }).inputValue();
    expect(zlan.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await panel.getByRole('button', { name: T.devices.copyValue(T.devices.gatewaySecret) }).click();
    await expect(notice(page, T.devices.copied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(zlan.secret);
    await page.screenshot({ path: `${SHOTS}/activation-secret.png`, fullPage: true });
    // with them the gateway signs in; its UID alone no longer does
    await expect(connectMqtt({ username: zlan.uid, clientId: zlan.uid })).rejects.toThrow();
    // (then it goes: the status filter below expects only the Sentra end device online)
    (await connectMqtt({ username: zlan.uid, clientId: zlan.uid, password: zlan.secret })).end(true);
    await page.getByRole('button', { name: T.devices.secretDone, exact: true }).click();
    await expect(page).toHaveURL(/\/_device_list_$/);
    await expect(row(zlan.name)).toContainText(zlan.serial);
    await page.screenshot({ path: `${SHOTS}/device-list.png`, fullPage: true });
  });

  test('searches on Enter and the button, re-applies on Backspace in an empty box, filters by type and status', async () => {
    await list();
    await expect(page.getByTestId('device-row')).toHaveCount(3);
    const box = page.getByRole('textbox', { name: T.devices.search });
    await box.fill('ZLAN');
    await expect(page.getByTestId('device-row')).toHaveCount(3); // typing alone applies nothing
    await box.press('Enter');
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await box.fill(raspi.serial);
    await page.getByRole('button', { name: T.devices.searchButton }).click();
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await expect(row(raspi.name)).toBeVisible();
    await box.fill('tidak-ada-sama-sekali');
    await box.press('Enter');
    await expect(page.getByText(T.devices.notFound)).toBeVisible();
    await box.fill('');
    await box.press('Backspace');
    await expect(page.getByTestId('device-row')).toHaveCount(3);

    await page.getByRole('combobox').filter({ hasText: T.devices.allTypes }).click();
    await page.getByRole('option', { name: 'ZLAN', exact: true }).click();
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await expect(row(zlan.name)).toBeVisible();
    await page.getByRole('combobox').filter({ hasText: 'ZLAN' }).click();
    await page.getByRole('option', { name: T.devices.allTypes }).click();
    await expect(page.getByTestId('device-row')).toHaveCount(3);

    await page.getByRole('combobox').filter({ hasText: T.devices.allStatus }).click();
    await page.getByRole('option', { name: T.devices.online }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await expect(row(raspi.name)).toBeVisible();

    // the filters live in the address: a reload keeps them (issue 38)
    await box.fill(raspi.serial.slice(0, 6));
    await box.press('Enter');
    await expect(page).toHaveURL(/status=on/);
    await page.reload();
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await expect(row(raspi.name)).toBeVisible();
    await expect(page.getByRole('textbox', { name: T.devices.search })).toHaveValue(raspi.serial.slice(0, 6));
    await expect(page.getByRole('combobox').filter({ hasText: T.devices.online })).toBeVisible();
    await page.goto(page.url().split('?')[0]!);
    await expect(page.getByTestId('device-row')).toHaveCount(3);
  });

  test('bulk bar "Tindakan" opens "Kontrol device" with the chosen devices', async () => {
    await list();
    await page.getByRole('checkbox', { name: T.devices.selectRow(dummy.name) }).check();
    await page.getByRole('checkbox', { name: T.devices.selectRow(zlan.name) }).check();
    await expect(page.getByTestId('bulk-bar')).toContainText(T.devices.bulkSelected(2));
    await page.getByRole('button', { name: T.devices.bulkActions }).click();
    await page.getByRole('menuitem', { name: T.devices.bulkCommand }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: T.devices.controlTitle });
    await expect(dialog.getByTestId('control-devices')).toContainText(dummy.serial);
    await expect(dialog.getByTestId('control-devices')).toContainText(zlan.serial);
    await dialog.getByRole('button', { name: T.common.cancel }).click();
    await page.getByRole('checkbox', { name: T.devices.selectAll }).click();
    await page.getByRole('checkbox', { name: T.devices.selectAll }).click();
    await expect(page.getByTestId('bulk-bar')).toBeHidden();
  });

  test('edits the info and the tags of a device', async () => {
    await list();
    await row(dummy.name)
      .getByRole('button', { name: T.devices.rowMenu(dummy.name) })
      .click();
    await page.getByRole('menuitem', { name: T.devices.menuEditInfo }).click();
    await expect(page.getByRole('heading', { name: T.devices.editTitle, level: 2 })).toBeVisible();
    await expect(page.getByLabel(T.devices.serialNumber)).toHaveValue(dummy.serial);
    await page.getByLabel(T.devices.latitude).fill('95');
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByText(T.devices.serverLatitude)).toBeVisible();
    await page.getByLabel(T.devices.latitude).fill('-6.2');
    await page.getByLabel(T.devices.name).fill('Pompa Utama');
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(notice(page, T.devices.editSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/_device_list_$/);
    dummy.name = 'Pompa Utama';
    await expect(row(dummy.name)).toBeVisible();

    // an identical notice is not repeated while one is shown: let it close first
    await expect(notice(page, T.devices.editSuccess)).toBeHidden({ timeout: 10_000 });

    // tag values: keep the free tags, drop the location
    await row(dummy.name)
      .getByRole('button', { name: T.devices.rowMenu(dummy.name) })
      .click();
    await page.getByRole('menuitem', { name: T.devices.menuTags }).click();
    await expect(page.getByText(T.devices.chooseTagCategories)).toBeVisible();
    await expect(page.getByLabel('Lokasi')).toBeChecked();
    await page.getByLabel('Lokasi').uncheck();
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await expect(page.getByText(T.devices.chooseTags)).toBeVisible();
    await expect(page.getByTestId('tags-bebas')).toContainText('pompa');
    await page.getByTestId('tag-input-bebas').fill('air');
    await page.getByTestId('tag-input-bebas').press('Tab');
    await page.getByTestId('tag-input-bebas').fill('keempat');
    await page.getByTestId('tag-input-bebas').press('Enter');
    await expect(page.getByText(T.tags.serverMaxThree)).toBeVisible();
    await page.getByTestId('tag-input-bebas').fill('');
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(notice(page, T.devices.editSuccess)).toBeVisible();
    await expect(row(dummy.name).getByTestId('device-tags')).toContainText('air');
    await expect(row(dummy.name).getByTestId('device-tags')).not.toContainText('Lokasi');

    await expect(notice(page, T.devices.editSuccess)).toBeHidden({ timeout: 10_000 });

    // no category at all: the confirmation, then empty tags
    await row(dummy.name)
      .getByRole('button', { name: T.devices.rowMenu(dummy.name) })
      .click();
    await page.getByRole('menuitem', { name: T.devices.menuTags }).click();
    await page.getByLabel('Label Bebas').uncheck();
    await page.getByRole('button', { name: T.common.next, exact: true }).click();
    await confirmYes(page, T.devices.noTagsConfirm, T.common.yes);
    await expect(notice(page, T.devices.editSuccess)).toBeVisible();
    await expect(row(dummy.name).getByTestId('device-tags')).toBeEmpty();
  });

  test('shows the family info screens with "Kembali"', async () => {
    await row(zlan.name)
      .getByRole('button', { name: T.devices.rowMenu(zlan.name) })
      .click();
    await page.getByRole('menuitem', { name: T.devices.familyInfoTitle.zlan! }).click();
    await expect(page).toHaveURL(/\/_device_edit_info_\/zlan\/\d+$/);
    await expect(page.getByLabel(T.devices.infoDeviceUid)).toHaveValue(zlan.uid);
    await expect(page.getByLabel(T.devices.clientId, { exact: true })).toHaveValue(zlan.uid);
    // the secret is not shown again: a new one replaces it, shown once, and the old one stops working
    await expect(page.getByLabel(T.devices.gatewaySecret, { exact: true })).toHaveValue(T.devices.secretHidden);
    await page.getByRole('button', { name: T.devices.regenerateSecret }).click();
    await confirmYes(page, T.devices.regenerateConfirm, T.common.yes);
    const fresh = await page
      .getByTestId('broker-secret')
      .getByLabel(T.devices.gatewaySecret, { exact: true })
      .inputValue();
    expect(fresh).not.toBe(zlan.secret);
    await expect(connectMqtt({ username: zlan.uid, clientId: zlan.uid, password: zlan.secret })).rejects.toThrow();
    (await connectMqtt({ username: zlan.uid, clientId: zlan.uid, password: fresh })).end(true);
    await page.getByRole('button', { name: T.common.back }).click();
    await expect(page).toHaveURL(/\/_device_list_$/);
  });

  test('deletes a device after "Konfirmasi Hapus Perangkat"', async () => {
    await row(zlan.name)
      .getByRole('button', { name: T.devices.rowMenu(zlan.name) })
      .click();
    await page.getByRole('menuitem', { name: T.devices.menuRemove }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: T.devices.removeConfirmTitle });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: T.common.yes, exact: true }).click();
    await expect(notice(page, T.devices.removeSuccess)).toBeVisible();
    await expect(row(zlan.name)).toHaveCount(0);
    await expect(page.getByTestId('device-row')).toHaveCount(2);
  });
});
