// Issue 26 end to end, as a tenant would: a rule made with the editor on an MQTT fuel tank (level < 20) and tried with
// "Uji rule"; a crossing value published over MQTT makes its task appear in Tugas without reloading (the Tugas entry
// counts it while elsewhere); its status is changed (unchanged first: 'Tidak ada perubahan') and it is muted; a rule
// made and edited manually, a bad JSON first; the status switch; both rules deleted with their confirmations.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceFamilyCalls } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import {
  confirmYes,
  openAsTenant,
  openSideMenu,
  tenantHeaders,
  tenantWithApp,
  type TenantApp,
} from './access-fixtures.js';

const SHOTS = 'test-results/rules-screens';
const S = T.ruleScreens;
const RULE = 'Tangki solar rendah';
const MANUAL = 'Meter manual';
/** the task title the engine fills from the rule's title template */
const TASK = 'Solar Tangki Genset rendah';

test.describe.serial('rules and tasks', () => {
  let page: Page;
  let t: TenantApp;
  let device: { id: number; name: string; store_mqtt_username: string; store_mqtt_password: string };
  let client: MqttClient;
  const level = (value: number) =>
    client.publishAsync(`d/${device.id}/data`, JSON.stringify({ tank: { data: { level: value } } }), { qos: 1 });
  const ruleRow = (name: string) => page.getByTestId('rule-row').filter({ hasText: name });
  const taskRow = () => page.getByTestId('task-row').filter({ hasText: TASK });

  test.beforeAll(async ({ browser, baseURL, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    t = await tenantWithApp(request);
    const added = await request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
      data: { serial_number: `TK-${unique('s')}`, name: 'Tangki Genset' },
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
    // the last 24 hours the test panel looks at: full, then low once
    await level(55);
    await level(12);
    await level(60);
    page = await browser.newPage({ baseURL });
    await openAsTenant(page, t, '_rule_list_');
  });
  test.afterAll(async () => {
    client?.end(true);
    await page?.close();
  });

  test('shows the empty rule list and asks "Tambah manual atau dengan editor?" for a new rule', async () => {
    await expect(page.getByText(S.emptyTitle)).toBeVisible();
    await page.getByRole('button', { name: T.rules.newRule }).click();
    const ask = page.getByRole('dialog').filter({ hasText: T.rules.askAdd });
    await expect(ask.getByRole('button', { name: T.rules.editor })).toBeVisible();
    await expect(ask.getByRole('button', { name: T.rules.manual })).toBeVisible();
    await page.waitForTimeout(300); // the dialog's fade-in, for the screenshot
    await page.screenshot({ path: `${SHOTS}/ask-add.png` });
    await ask.getByRole('button', { name: T.rules.editor }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/info$/);
  });

  test('creates a rule with the editor: Info → Trigger (device, sensor, config, param pickers) → Action', async () => {
    // Info: the name is required, the wizard offers category 11 only
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page.getByText(T.common.required).first()).toBeVisible();
    // a 35-character name is not cut at 30: the field says so, and the step does not move on (issue 38)
    await page.getByRole('textbox', { name: S.name }).fill('Tangki solar rendah di gudang utara');
    await expect(page.getByText(S.nameMax)).toBeVisible();
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/info$/);
    await page.getByRole('textbox', { name: S.name }).fill(RULE);
    await expect(page.getByText(S.nameMax)).toHaveCount(0);
    await page.getByRole('textbox', { name: S.description }).fill('Level solar di bawah 20%');
    await page.getByRole('combobox', { name: S.category }).click();
    await expect(page.getByRole('option')).toHaveText(['11 · Incoming Device Data']);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${SHOTS}/wizard-info.png` });
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/trigger$/);

    // Trigger: the pickers offer the application's device and the points it reported
    const rows = page.getByTestId('trigger-row');
    await expect(rows).toHaveCount(5);
    await rows.nth(0).getByRole('combobox', { name: S.device }).click();
    await page.getByRole('option', { name: new RegExp(`^${device.name}`) }).click();
    await rows.nth(1).getByRole('combobox', { name: S.sensor }).click();
    await page.getByRole('option', { name: 'tank', exact: true }).click();
    await rows.nth(2).getByRole('combobox', { name: S.config }).click();
    await page.getByRole('option', { name: 'data', exact: true }).click();
    await rows.nth(3).getByRole('combobox', { name: S.param }).click();
    await page.getByRole('option', { name: 'level', exact: true }).click();
    await rows.nth(4).getByRole('combobox', { name: S.operator }).click();
    await page.getByRole('option', { name: '<', exact: true }).click();
    // a 23-digit threshold would be compared rounded: refused on its row
    await rows.nth(4).getByRole('textbox', { name: S.value }).fill('12345678901234567890123');
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(rows.nth(4).getByText(T.rules.valueTooLong(15))).toBeVisible();
    await expect(page).toHaveURL(/\/_rule_editor_\/trigger$/);
    await rows.nth(4).getByRole('textbox', { name: S.value }).fill('20');
    await page.getByRole('spinbutton', { name: S.durationLabel }).fill('0');

    // Uji rule: the last 24 hours held one value under 20
    const panel = page.getByTestId('rule-test-panel');
    await panel.getByRole('button', { name: S.testRun }).click();
    await expect(panel.getByTestId('rule-test-summary')).toHaveText(S.testFired(1));
    await expect(panel.locator('.main-svg').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/wizard-trigger.png`, fullPage: true });
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/action$/);

    // Action: the task title template, one e-mail in the `new` group, edited on its own route
    await page.getByRole('textbox', { name: S.actionTitle }).fill('Solar {{device.name}} rendah');
    await page.getByTestId('task-group-new').getByRole('button', { name: S.addTask }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/action\/task\?group=new$/);
    await page.getByRole('textbox', { name: S.email }).fill('ops@contoh.id');
    await page.getByRole('textbox', { name: S.subject }).fill('Solar {{device.name}} rendah');
    await page.getByRole('textbox', { name: S.content }).fill('Level {{value}} pada {{time}}');
    await page.screenshot({ path: `${SHOTS}/wizard-task.png` });
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/action$/);
    await expect(page.getByTestId('task-group-new')).toContainText('ops@contoh.id');
    await page.screenshot({ path: `${SHOTS}/wizard-action.png`, fullPage: true });
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.rules.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/_rule_list_$/);
    await expect(ruleRow(RULE)).toContainText('Level solar di bawah 20%');
    await expect(ruleRow(RULE).getByRole('switch')).toBeChecked();
  });

  test('a crossing value over MQTT: the Tugas entry counts it, and the task appears in Tugas without reloading', async () => {
    await openSideMenu(page);
    await level(8);
    await expect(page.getByTestId('task-unread')).toHaveText('1');
    await page.screenshot({ path: `${SHOTS}/menu-unread.png` });
    await page.getByTestId('menu-entry').filter({ hasText: T.nav.tasks }).click();
    await expect(taskRow()).toBeVisible();
    await expect(page.getByTestId('task-unread')).toHaveCount(0);
    await expect(taskRow().getByTestId('task-status')).toHaveText('New');
    await expect(taskRow().getByTestId('task-occurrences')).toHaveText('1×');
    await expect(taskRow().getByRole('link', { name: T.taskScreens.deviceLink(device.name) })).toBeVisible();
    // the list stays open: the next crossing (after a recovery) is one more occurrence of the open task, live
    await level(70);
    await level(5);
    await expect(taskRow().getByTestId('task-occurrences')).toHaveText('2×');
    await expect(taskRow()).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/tasks.png`, fullPage: true });
  });

  test("Manage Task: unchanged warns 'Tidak ada perubahan', a new status saves", async () => {
    await taskRow()
      .getByRole('button', { name: new RegExp(`^${T.taskScreens.manageOf(TASK)}`) })
      .click();
    await expect(page).toHaveURL(/\/_task_action_\/\d+$/);
    await expect(page.getByTestId('task-occurrences')).toContainText(device.name);
    await expect(page.getByRole('radio')).toHaveCount(5);
    await expect(page.getByRole('radio', { name: 'New' })).toBeChecked();
    await expect(page.getByRole('button', { name: T.common.save })).toBeEnabled();
    await page.screenshot({ path: `${SHOTS}/manage-task.png`, fullPage: true });
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.tasks.noChange)).toBeVisible();
    await page.getByRole('radio', { name: 'In progress' }).check();
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.tasks.manageSuccess)).toBeVisible();
    // the success replaces the earlier "Tidak ada perubahan" (issue 38)
    await expect(notice(page, T.tasks.noChange)).toHaveCount(0);
    await expect(page).toHaveURL(/\/_task_list_$/);
    await expect(page.getByTestId('task-status').filter({ hasText: 'In progress' })).toHaveCount(1);
  });

  test('mutes a task after the confirmation', async () => {
    const row = taskRow();
    await row.getByRole('switch').click();
    await confirmYes(page, T.taskScreens.confirmMute(TASK), T.common.yes);
    await expect(notice(page, T.tasks.notificationSuccess)).toBeVisible();
    await expect(row.getByRole('switch')).not.toBeChecked();
  });

  test('creates a rule manually: a bad JSON warns, a good one saves; then edits it manually', async () => {
    await page.goto(`/admin/${t.domain}/_rule_list_`);
    await page.getByRole('button', { name: T.rules.newRule }).click();
    await page.getByRole('dialog').getByRole('button', { name: T.rules.manual }).click();
    await expect(page).toHaveURL(/\/_rule_add_$/);
    await page.getByRole('textbox', { name: S.name }).fill(MANUAL);
    await page.getByRole('textbox', { name: S.key }).fill('meter_manual');
    await page.getByRole('textbox', { name: S.condition }).fill('{"triggers": [ {bukan json');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.rules.conditionJson)).toBeVisible();
    await expect(page.getByText(T.rules.conditionJson).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/manual-bad-json.png`, fullPage: true });
    const condition = {
      triggers: [
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: device.id },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'tank' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>', value: 95 },
      ],
    };
    await page.getByRole('textbox', { name: S.condition }).fill(JSON.stringify(condition));
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.rules.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/_rule_list_$/);
    await expect(ruleRow(MANUAL)).toContainText('meter_manual');

    await ruleRow(MANUAL)
      .getByRole('button', { name: S.editOf(MANUAL) })
      .click();
    const ask = page.getByRole('dialog').filter({ hasText: T.rules.askEdit });
    await ask.getByRole('button', { name: T.rules.manual }).click();
    await expect(page).toHaveURL(/\/_rule_edit_\/\d+$/);
    await expect(page.getByRole('textbox', { name: S.key })).toBeDisabled();
    await expect(page.getByRole('textbox', { name: S.condition })).toHaveValue(/"triggers"/);
    await page.getByRole('textbox', { name: S.description }).fill('Tangki terlalu penuh');
    // Uji rule on the typed condition: the tank never went over 95 in the last 24 hours
    const panel = page.getByTestId('rule-test-panel');
    await panel.getByRole('button', { name: S.testRun }).click();
    await expect(panel.getByTestId('rule-test-summary')).toHaveText(S.testNone);
    await page.screenshot({ path: `${SHOTS}/manual-edit.png`, fullPage: true });
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.rules.editSuccess)).toBeVisible();
    await expect(ruleRow(MANUAL)).toContainText('Tangki terlalu penuh');
  });

  test('the status switch asks first, then says "Ubah status rule berhasil"', async () => {
    await ruleRow(MANUAL).getByRole('switch').click();
    await confirmYes(page, S.confirmDisable(MANUAL), T.common.yes);
    await expect(notice(page, T.rules.activateSuccess)).toBeVisible();
    await expect(ruleRow(MANUAL).getByRole('switch')).not.toBeChecked();
    await page.screenshot({ path: `${SHOTS}/rules.png`, fullPage: true });
  });

  test('the editor opens a stored rule at info/{id} and search finds by name', async () => {
    await ruleRow(RULE)
      .getByRole('button', { name: S.editOf(RULE) })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: T.rules.editor }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/info\/\d+$/);
    await expect(page.getByRole('textbox', { name: S.name })).toHaveValue(RULE);
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/trigger\/\d+$/);
    await expect(page.getByTestId('trigger-row').nth(4).getByRole('textbox', { name: S.value })).toHaveValue('20');
    // a phone-sized screen: the rows stack, nothing scrolls sideways
    await page.setViewportSize({ width: 390, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/wizard-trigger-narrow.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goBack();
    await expect(page).toHaveURL(/\/_rule_editor_\/info\/\d+$/);
    await page.goto(`/admin/${t.domain}/_rule_list_`);
    await page.getByPlaceholder(S.search).fill('tidak ada');
    await page.getByPlaceholder(S.search).press('Enter');
    await expect(page.getByText(S.notFoundTitle)).toBeVisible();
    await page.getByPlaceholder(S.search).fill('');
    await page.getByPlaceholder(S.search).press('Backspace');
    await expect(page.getByTestId('rule-row')).toHaveCount(2);
  });

  test('a wizard step reached without the info draft goes back to info', async () => {
    await page.goto(`/admin/${t.domain}/_rule_editor_/action`);
    await expect(page).toHaveURL(/\/_rule_editor_\/info$/);
    await expect(page.getByRole('textbox', { name: S.name })).toHaveValue('');
    await page.goto(`/admin/${t.domain}/_rule_list_`);
  });

  test('deletes both rules with their confirmations', async () => {
    for (const name of [MANUAL, RULE]) {
      await ruleRow(name)
        .getByRole('button', { name: S.removeOf(name) })
        .click();
      await confirmYes(page, S.confirmRemove(name), T.common.yes);
      await expect(notice(page, T.rules.removeSuccess).first()).toBeVisible();
      await expect(ruleRow(name)).toHaveCount(0);
    }
    await expect(page.getByText(S.emptyTitle)).toBeVisible();
  });
});
