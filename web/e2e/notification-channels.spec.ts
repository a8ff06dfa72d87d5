// Notifications that will not be sent say so (issue 38, point 8): on a gateway without SMTP, SMS or WhatsApp settings
// (the e2e gateway has none), the rule editor warns the moment such a channel is chosen — in the notification form,
// naming the environment variables that configure it — and on the action step for the rule's stored e-mail; a webhook
// (always available) gets no warning. Screenshots at 1366 and 400 px under test-results/notification-channels/.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { contracts, deviceFamilyCalls } from '@sentra/contracts';
import { T, unique } from './helpers.js';
import { openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

const SHOTS = 'test-results/notification-channels';
const N = T.notifications;
const S = T.ruleScreens;

test.describe.serial('a notification channel the gateway has not configured', () => {
  let t: TenantApp;
  let page: Page;
  let ruleId = 0;

  test.beforeAll(async ({ request, browser, baseURL }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    t = await tenantWithApp(request);
    const headers = tenantHeaders(t);
    const device = (
      await (
        await request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
          data: { serial_number: `NC-${unique('s')}`, name: 'Genset Kantor' },
          headers,
        })
      ).json()
    ).data;
    const rule = await (
      await request.post(contracts.rules.add.path, {
        data: {
          name: 'Solar genset rendah',
          category: 11,
          description: '',
          trigger: [
            { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: device.id },
            { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'tank' },
            { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'data' },
            { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'level' },
            { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '<', value: 20 },
          ],
          action: {
            new: [{ type: 'EMAIL', email: 'ops@contoh.id', subject: 'Solar rendah', content: 'Level {{value}}' }],
            response: [],
          },
        },
        headers,
      })
    ).json();
    expect(rule.response_result).toBe(0);
    ruleId = rule.data.id;
    page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
    await openAsTenant(page, t, `_rule_editor_/info/${ruleId}`);
  });
  test.afterAll(async () => {
    await page?.close();
  });

  test("the action step warns about the rule's stored e-mail", async () => {
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/trigger\/\d+$/);
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/action\/\d+$/);
    const warning = page.getByTestId('channel-notice');
    await expect(warning).toHaveCount(1);
    await expect(warning).toContainText(N.notConfiguredTitle('Email'));
    await expect(warning).toContainText('SMTP_URL dan SMTP_FROM');
    await page.screenshot({ path: `${SHOTS}/action-1366.png`, fullPage: true });
  });

  test('the notification form warns the moment an unconfigured channel is chosen, naming what configures it', async () => {
    await page.getByTestId('task-group-response').getByRole('button', { name: S.addTask }).click();
    await expect(page).toHaveURL(/\/_rule_editor_\/action\/task\/\d+\/new\?group=response$/);
    const warning = page.getByTestId('channel-notice');
    const type = page.getByRole('combobox', { name: S.taskType });
    // the form opens on e-mail
    await expect(warning).toContainText(N.notConfiguredTitle('Email'));
    await expect(warning).toContainText(N.notConfiguredText);
    await type.click();
    await page.getByRole('option', { name: 'SMS', exact: true }).click();
    await expect(warning).toContainText(N.notConfiguredTitle('SMS'));
    await expect(warning).toContainText('SMS_ACCOUNT_SID, SMS_AUTH_TOKEN dan SMS_FROM');
    await expect(page.getByRole('listbox')).toBeHidden();
    await page.screenshot({ path: `${SHOTS}/task-sms-1366.png`, fullPage: true });
    await type.click();
    await page.getByRole('option', { name: 'WHATSAPP', exact: true }).click();
    await expect(warning).toContainText('WHATSAPP_PHONE_NUMBER_ID dan WHATSAPP_TOKEN');
    await expect(page.getByRole('listbox')).toBeHidden();
    await page.setViewportSize({ width: 400, height: 860 });
    await expect(warning).toBeVisible();
    const box = (await warning.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(400);
    await page.screenshot({ path: `${SHOTS}/task-whatsapp-400.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    // a webhook needs no provider: no warning
    await type.click();
    await page.getByRole('option', { name: 'WEBHOOK', exact: true }).click();
    await expect(warning).toHaveCount(0);
  });
});
