// Tugas as an alarm console (issue 38, point 7), clicked as an operator would: created and last-seen times beside the
// spec's columns, the status filter, take (→ In progress) and solve (→ Solved) from the list through the status call
// and its rights, links to the device and the rule, Manage Task's timeline (created, occurrence, the status change by
// the tenant, the e-mail "belum diatur" with what configures it), and the list at 400 px with every row's actions on
// screen and no title broken letter by letter. Screenshots at 1366 and 400 px under test-results/task-console/.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import mqtt from 'mqtt';
import { contracts, deviceFamilyCalls } from '@sentra/contracts';
import { notice, T, unique } from './helpers.js';
import { addUser, confirmYes, openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

const SHOTS = 'test-results/task-console';
const S = T.taskScreens;
const RULE = 'Suhu panel tinggi';
const DEVICES = ['Panel Utara', 'Panel Selatan', 'Panel Gudang Belakang'];

const entry = (query: string, op: string, value: unknown) => ({
  node_type: 'INCOMING_DEVICE_DATA',
  field: { query },
  op,
  value,
});

test.describe.serial('Tugas as an alarm console', () => {
  let t: TenantApp;
  let page: Page;
  const deviceIds: number[] = [];
  let ruleId = 0;

  test.beforeAll(async ({ baseURL, request, browser }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    t = await tenantWithApp(request);
    const headers = tenantHeaders(t);
    const rule = await (
      await request.post(contracts.rules.add.path, {
        data: {
          name: RULE,
          category: 11,
          description: 'Suhu ruang panel di atas 40 °C, periksa kipas dan beban',
          trigger: [
            entry('SENSOR', '==', 'env'),
            entry('CONFIG', '==', 'data'),
            entry('PARAM', '==', 'temp'),
            entry('VALUE', '>', 40),
          ],
          action: {
            title: 'Suhu {{device.name}} {{value}} °C',
            // this gateway has no SMTP: the e-mail is stored "Belum diatur"
            new: [{ type: 'EMAIL', email: 'teknisi@contoh.id', subject: 'Panas', content: 'Suhu {{value}}' }],
            response: [],
          },
        },
        headers,
      })
    ).json();
    expect(rule.response_result).toBe(0);
    ruleId = rule.data.id;
    for (const name of DEVICES) {
      const added = await (
        await request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
          data: { serial_number: `PN-${unique('s')}`, name },
          headers,
        })
      ).json();
      expect(added.response_result).toBe(0);
      const d = added.data;
      deviceIds.push(d.id);
      const client = await mqtt.connectAsync(`${baseURL!.replace(/^http/, 'ws')}/mqtt`, {
        username: d.store_mqtt_username,
        password: d.store_mqtt_password,
        clientId: unique('e2e'),
        reconnectPeriod: 0,
      });
      for (const v of [30, 45, 20, 47])
        await client.publishAsync(`d/${d.id}/data`, JSON.stringify({ env: { data: { temp: v } } }), { qos: 1 });
      client.end(true);
    }
    await expect
      .poll(
        async () =>
          ((await (await request.get(contracts.tasks.list.path, { headers })).json()).tasks ?? []).filter(
            (x: { occurrences: number }) => x.occurrences === 2,
          ).length,
        { timeout: 15_000 },
      )
      .toBe(DEVICES.length);
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
    await openAsTenant(page, t, '_task_list_');
  });
  test.afterAll(async () => {
    await page?.close();
  });

  const title = (device: string) => `Suhu ${device} 45 °C`;
  const row = (device: string) => page.getByTestId('task-row').filter({ hasText: title(device) });

  test('lists each task with the spec columns, when it was created and last occurred, and links', async () => {
    const head = page.getByRole('columnheader');
    await expect(head).toHaveText([
      S.colName,
      S.colDescription,
      S.colStatus,
      S.colCreated,
      S.colLastSeen,
      S.colNotification,
      S.colActions,
    ]);
    await expect(page.getByTestId('task-row')).toHaveCount(DEVICES.length);
    const r = row(DEVICES[0]!);
    await expect(r.getByTestId('task-status')).toHaveText('New');
    await expect(r.getByTestId('task-created')).toHaveText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/);
    await expect(r).toContainText('2×');
    await expect(r.getByRole('link', { name: S.ruleLink(RULE) })).toHaveAttribute(
      'href',
      `/admin/${t.domain}/_rule_editor_/info/${ruleId}`,
    );
    await r.getByRole('link', { name: S.deviceLink(DEVICES[0]!) }).click();
    await expect(page).toHaveURL(new RegExp(`/_device_data_all_/${deviceIds[0]}$`));
    await page.goBack();
    await expect(page.getByTestId('task-row')).toHaveCount(DEVICES.length);
    await page.screenshot({ path: `${SHOTS}/list-1366.png`, fullPage: true });
  });

  test('takes a task (→ In progress) and solves another (→ Solved) from the list, after a confirmation', async () => {
    await row(DEVICES[0]!)
      .getByRole('button', { name: S.takeOf(title(DEVICES[0]!)) })
      .click();
    await confirmYes(page, S.confirmTake(title(DEVICES[0]!)), T.common.yes);
    await expect(notice(page, T.tasks.manageSuccess)).toBeVisible();
    await expect(row(DEVICES[0]!).getByTestId('task-status')).toHaveText('In progress');
    // an In progress task can only be solved now
    await expect(row(DEVICES[0]!).getByRole('button', { name: S.takeOf(title(DEVICES[0]!)) })).toHaveCount(0);

    await row(DEVICES[1]!)
      .getByRole('button', { name: S.solveOf(title(DEVICES[1]!)) })
      .click();
    await confirmYes(page, S.confirmSolve(title(DEVICES[1]!)), T.common.yes);
    await expect(row(DEVICES[1]!).getByTestId('task-status')).toHaveText('Solved');
    await expect(row(DEVICES[1]!).getByRole('button', { name: S.solveOf(title(DEVICES[1]!)) })).toHaveCount(0);
  });

  test('filters by status, and says so when no task has it', async () => {
    const filter = page.getByTestId('task-status-filter');
    await filter.click();
    await page.getByRole('option', { name: 'In progress', exact: true }).click();
    await expect(page.getByTestId('task-row')).toHaveCount(1);
    await expect(row(DEVICES[0]!)).toBeVisible();
    await filter.click();
    await page.getByRole('option', { name: 'Closed', exact: true }).click();
    await expect(page.getByText(T.tasks.notFoundSearch)).toBeVisible();
    await filter.click();
    await page.getByRole('option', { name: S.statusAll }).click();
    await expect(page.getByTestId('task-row')).toHaveCount(DEVICES.length);
  });

  test('Manage Task shows the timeline and says the e-mail channel is not configured, and what configures it', async () => {
    await row(DEVICES[0]!)
      .getByRole('button', { name: S.manageOf(title(DEVICES[0]!)) })
      .click();
    await expect(page).toHaveURL(/\/_task_action_\/\d+$/);
    const entries = page.getByTestId('task-timeline-entry');
    await expect(entries.filter({ hasText: S.timelineCreated('45') })).toHaveCount(1);
    await expect(entries.filter({ hasText: S.timelineOccurrence('47') })).toHaveCount(1);
    await expect(entries.filter({ hasText: S.timelineStatus('New', 'In progress', t.username) })).toHaveCount(1);
    await expect(
      entries.filter({ hasText: S.timelineNotification('Email', 'teknisi@contoh.id', S.outcome.not_configured!) }),
    ).toHaveCount(1);
    const warning = page.getByTestId('channel-notice');
    await expect(warning).toContainText(T.notifications.notConfiguredTitle('Email'));
    await expect(warning).toContainText('SMTP_URL dan SMTP_FROM');
    await expect(page.getByRole('link', { name: S.ruleLink(RULE) })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/manage-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 400, height: 860 });
    await expect(page.getByTestId('task-timeline')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/manage-400.png`, fullPage: true });
  });

  test('at 400 px each task is a readable block with its actions on screen', async () => {
    await page.goto(`/admin/${t.domain}/_task_list_`);
    await expect(page.getByTestId('task-row')).toHaveCount(DEVICES.length);
    for (const device of DEVICES) {
      const r = row(device);
      // the title keeps whole words: a line of it holds more than a few letters
      const name = r.getByText(title(device), { exact: true });
      const box = (await name.boundingBox())!;
      expect(box.width).toBeGreaterThan(120);
      expect(box.height).toBeLessThan(80);
      for (const button of [S.manageOf(title(device)), S.removeOf(title(device))]) {
        const b = (await r.getByRole('button', { name: button }).boundingBox())!;
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(400);
      }
    }
    await page.screenshot({ path: `${SHOTS}/list-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("a role without task_manage is refused a quick take with the spec's message", async ({
    browser,
    baseURL,
    request,
  }) => {
    const role = await (
      await request.post(contracts.roles.add.path, {
        data: { name: unique('piket'), sys_navs: ['_task_list_'], permissions: {}, navs: [] },
        headers: tenantHeaders(t),
      })
    ).json();
    expect(role.response_result).toBe(0);
    const user = await addUser(request, t, role.data.id);
    const member = await browser.newPage({ baseURL });
    await member.goto(`/${t.domain}/login`);
    await member.getByLabel(T.login.username).fill(user.username);
    await member.getByLabel(T.login.password, { exact: true }).fill(user.pass);
    await member.getByRole('button', { name: T.login.signIn }).click();
    await expect(member).toHaveURL(new RegExp(`/${t.domain}/_task_list_$`));
    const r = member.getByTestId('task-row').filter({ hasText: title(DEVICES[2]!) });
    // no device or rule screens in this role: the names show without links
    await expect(r.getByRole('link')).toHaveCount(0);
    await r.getByRole('button', { name: S.takeOf(title(DEVICES[2]!)) }).click();
    await confirmYes(member, S.confirmTake(title(DEVICES[2]!)), T.common.yes);
    await expect(notice(member, T.tasks.forbidden)).toBeVisible();
    await expect(r.getByTestId('task-status')).toHaveText('New');
    await member.close();
  });
});
