// Issue 26, Tugas as an application user would see it: a role granting only the task list gets Tugas (and no Rule) in
// its menu, sees the tasks a rule made, is refused a status change with the spec's 403 message (no task_manage);
// the tenant searches ("Oopss... tugas tidak ditemukan") and deletes the task with a confirmation until the list is
// empty ("Oopss... Tugas Masih Kosong").
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import mqtt from 'mqtt';
import { contracts, deviceFamilyCalls } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import {
  addUser,
  confirmYes,
  openAsTenant,
  openSideMenu,
  tenantHeaders,
  tenantWithApp,
  type TenantApp,
} from './access-fixtures.js';

const SHOTS = 'test-results/rules-screens';
const RULE = 'Meter padam';

test.describe.serial('tasks of an application user', () => {
  let t: TenantApp;
  let user: { username: string; pass: string };
  let member: Page;

  test.beforeAll(async ({ baseURL, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    t = await tenantWithApp(request);
    const headers = tenantHeaders(t);
    const added = await (
      await request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
        data: { serial_number: `MT-${unique('s')}`, name: 'Meter Gedung A' },
        headers,
      })
    ).json();
    expect(added.response_result).toBe(0);
    const device = added.data;
    const entry = (query: string, op: string, value: unknown) => ({
      node_type: 'INCOMING_DEVICE_DATA',
      field: { query },
      op,
      value,
    });
    const rule = await (
      await request.post(contracts.rules.add.path, {
        data: {
          name: RULE,
          category: 11,
          description: 'Daya meter nol',
          trigger: [
            entry('DEVICE_ID', '==', device.id),
            entry('SENSOR', '==', 'meter'),
            entry('CONFIG', '==', 'data'),
            entry('PARAM', '==', 'power'),
            entry('VALUE', '<=', 0),
          ],
          action: { new: [], response: [] },
        },
        headers,
      })
    ).json();
    expect(rule.response_result).toBe(0);
    const client = await mqtt.connectAsync(`${baseURL!.replace(/^http/, 'ws')}/mqtt`, {
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
      clientId: unique('e2e'),
      reconnectPeriod: 0,
    });
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ meter: { data: { power: 0 } } }), { qos: 1 });
    client.end(true);
    await expect
      .poll(async () => (await (await request.get(contracts.tasks.list.path, { headers })).json()).tasks?.length ?? 0, {
        timeout: 10_000,
      })
      .toBe(1);
    const role = await (
      await request.post(contracts.roles.add.path, {
        data: { name: unique('piket'), sys_navs: ['_task_list_'], permissions: {}, navs: [] },
        headers,
      })
    ).json();
    expect(role.response_result).toBe(0);
    user = await addUser(request, t, role.data.id);
  });
  test.afterAll(async () => {
    await member?.close();
  });

  test('a role with only the task list gets Tugas and no Rule', async ({ browser, baseURL }) => {
    member = await browser.newPage({ baseURL });
    await member.goto(`/${t.domain}/login`);
    await member.getByLabel(T.login.username).fill(user.username);
    await member.getByLabel(T.login.password, { exact: true }).fill(user.pass);
    await member.getByRole('button', { name: T.login.signIn }).click();
    await expect(member).toHaveURL(new RegExp(`/${t.domain}/_task_list_$`));
    await expect(member.getByTestId('task-row').filter({ hasText: RULE })).toBeVisible();
    await openSideMenu(member);
    await expect(member.getByTestId('side-menu-system')).toContainText(T.nav.tasks);
    await expect(member.getByTestId('menu-entry').filter({ hasText: T.nav.rules })).toHaveCount(0);
    await member.screenshot({ path: `${SHOTS}/member-tasks.png`, fullPage: true });
    // the rule routes are not granted: access denied
    await member.goto(`/${t.domain}/_rule_list_`);
    await expect(member.getByRole('heading', { name: T.shell.accessDeniedTitle })).toBeVisible();
  });

  test("without task_manage a status change is refused with the spec's message", async () => {
    await member.goto(`/${t.domain}/_task_list_`);
    await member.getByRole('button', { name: T.taskScreens.manageOf(RULE) }).click();
    await member.getByRole('radio', { name: 'Solved' }).check();
    await member.getByRole('button', { name: T.common.save }).click();
    await expect(notice(member, T.tasks.forbidden)).toBeVisible();
    await expect(member).toHaveURL(/\/_task_action_\/\d+$/);
    await member.screenshot({ path: `${SHOTS}/member-403.png`, fullPage: true });
  });

  test('the tenant searches by title and deletes the task with a confirmation', async ({ browser, baseURL }) => {
    const page = await browser.newPage({ baseURL });
    await openAsTenant(page, t, '_task_list_');
    const search = page.getByPlaceholder(T.taskScreens.search);
    await search.fill('tidak ada');
    await search.press('Enter');
    await expect(page.getByText(T.tasks.notFoundSearch)).toBeVisible();
    await search.fill('padam');
    await search.press('Enter');
    const row = page.getByTestId('task-row').filter({ hasText: RULE });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('task-status')).toHaveText('New');
    await row.getByRole('button', { name: T.taskScreens.removeOf(RULE) }).click();
    await confirmYes(page, T.taskScreens.confirmRemove(RULE), T.common.yes);
    await expect(notice(page, T.tasks.removeSuccess)).toBeVisible();
    await search.fill('');
    await search.press('Backspace');
    await expect(page.getByText(T.tasks.empty)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/tasks-empty.png`, fullPage: true });
    await page.close();
  });
});
