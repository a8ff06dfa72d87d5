// Spec 01 credentials and refresh token end to end: create a pair through the form (JSON validation messages),
// the card (category text, id, secret), copy id / secret, regenerate the secret from the card menu after its
// warning (the old secret answers 401, the new one works), update (category and id read-only), delete; the
// Refresh Token page from the top bar's API entry: regenerate after the confirmation, copied to the clipboard.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { contracts, Header } from '@sentra/contracts';
import { notice, T } from './helpers.js';
import { confirmYes, openAsTenant, openSideMenu, tenantWithApp, type TenantApp } from './access-fixtures.js';

/** An API call signed with a credentials pair (the role list: the pair's scopes grant every system key). */
async function callWithPair(request: APIRequestContext, domain: string, id: string, secret: string): Promise<number> {
  const res = await request.get(contracts.roles.list.path, {
    headers: { [Header.credentialsId]: id, [Header.credentialsSecret]: secret, [Header.appDomain]: domain },
  });
  return res.status();
}

test.describe.serial('credentials and refresh token of an application', () => {
  let page: Page;
  let owner: TenantApp;
  const pairId = 'integrasi-1';
  let firstSecret = '';
  const card = () => page.getByTestId('credentials-card').filter({ hasText: pairId });
  const revealedSecret = async () => {
    const secret = card().getByTestId('credentials-secret');
    if (!(await card().getByRole('button', { name: T.credentials.hideSecret }).isVisible())) {
      await card().getByRole('button', { name: T.credentials.showSecret }).click();
    }
    await expect(secret).toHaveText(/^[0-9a-f]{64}$/);
    return (await secret.textContent())!;
  };
  const cardMenu = async (item: string) => {
    await card().getByRole('button', { name: T.credentials.cardMenu }).click();
    await page.getByRole('menuitem', { name: item }).click();
  };

  test.beforeAll(async ({ browser, request, baseURL }) => {
    owner = await tenantWithApp(request);
    const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  test('creates a pair through the form, with the JSON validation messages', async () => {
    await openAsTenant(page, owner, '_role_list_');
    await openSideMenu(page);
    await page.getByTestId('side-menu').getByRole('link', { name: T.nav.credentials }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${owner.domain}/@credentials$`));
    await expect(page.getByText(T.credentials.empty)).toBeVisible();
    await page.getByRole('link', { name: T.credentials.createButton }).click();
    await expect(page).toHaveURL(/@credentials\/create$/);
    await expect(page.getByRole('heading', { name: T.credentials.createTitle })).toBeVisible();
    // default category 19 OPEN_V0
    await expect(page.getByRole('combobox', { name: T.credentials.category })).toHaveText('19 OPEN_V0');

    await page.getByLabel(T.credentials.credentialsId).fill(pairId);
    await page.getByLabel(T.credentials.scopes).fill('{"navs": ["*"]');
    await page.getByLabel(T.credentials.details).fill('');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.common.required)).toBeVisible();
    await page.getByLabel(T.credentials.details).fill('{"catatan": "ChirpStack"}');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.credentials.invalidScopes)).toBeVisible();
    await page.getByLabel(T.credentials.scopes).fill('{"navs": ["*"]}');
    await page.getByRole('button', { name: T.common.save }).click();

    await expect(notice(page, T.credentials.createSuccess)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/@credentials$`));
    await expect(card().getByTestId('credentials-category')).toHaveText('OPEN_V0');
    await expect(card().getByTestId('credentials-id')).toHaveText(pairId);
    firstSecret = await revealedSecret();
    await page.screenshot({ path: '.tmp/screens/credentials-list.png', fullPage: true });
  });

  test('the pair authenticates an API call', async ({ request }) => {
    expect(await callWithPair(request, owner.domain, pairId, firstSecret)).toBe(200);
    expect(await callWithPair(request, owner.domain, pairId, 'f'.repeat(64))).toBe(401);
  });

  test('copies the id and the secret from the card menu', async () => {
    await cardMenu(T.credentials.copyId);
    await expect(notice(page, T.credentials.idCopied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pairId);
    await cardMenu(T.credentials.copySecret);
    await expect(notice(page, T.credentials.secretCopied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstSecret);
  });

  test('regenerates the secret after its warning: the card shows the new one, the old one answers 401', async ({
    request,
  }) => {
    await cardMenu(T.credentials.regenerateSecret);
    await confirmYes(page, T.credentials.regenerateConfirm, T.common.yes);
    await expect(notice(page, T.credentials.generateSuccess)).toBeVisible();
    await expect(card().getByTestId('credentials-secret')).not.toHaveText(firstSecret);
    const newSecret = await revealedSecret();
    expect(newSecret).not.toBe(firstSecret);
    expect(await callWithPair(request, owner.domain, pairId, firstSecret)).toBe(401);
    expect(await callWithPair(request, owner.domain, pairId, newSecret)).toBe(200);
  });

  test('updates scopes and details; category and id are read-only', async () => {
    await cardMenu(T.credentials.edit);
    await expect(page).toHaveURL(/@credentials\/update\/\d+$/);
    await expect(page.getByRole('heading', { name: T.credentials.updateTitle })).toBeVisible();
    await expect(page.getByLabel(T.credentials.credentialsId)).toHaveValue(pairId);
    await expect(page.getByLabel(T.credentials.credentialsId)).toHaveAttribute('readonly', '');
    await expect(page.getByLabel(T.credentials.details)).toHaveValue(/ChirpStack/);
    await page.getByLabel(T.credentials.details).fill('[1, 2');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.credentials.invalidDetails)).toBeVisible();
    await page.getByLabel(T.credentials.details).fill('{"catatan": "LoRa"}');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.credentials.updateSuccess)).toBeVisible();
    await expect(page).toHaveURL(/@credentials$/);
  });

  test('deletes the pair after the confirmation', async () => {
    await cardMenu(T.credentials.delete);
    await confirmYes(page, T.credentials.deleteConfirm(pairId), T.common.yes);
    await expect(notice(page, T.credentials.deleteSuccess)).toBeVisible();
    await expect(card()).toHaveCount(0);
    await expect(page.getByText(T.credentials.empty)).toBeVisible();
  });

  test('the API entry opens the Refresh Token page; regenerating asks first and copies the new token', async ({
    request,
  }) => {
    await page.getByRole('button', { name: T.shell.account }).click();
    await page.getByRole('menuitem', { name: T.shell.api }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${owner.domain}/@token$`));
    await expect(page.getByTestId('page-title')).toHaveText(T.refreshToken.title);
    await expect(page.getByText(T.refreshToken.warningTenant)).toBeVisible();
    const field = page.getByLabel(T.refreshToken.title, { exact: true });
    await expect(field).toHaveValue(/^[0-9a-f]{64}$/);
    const oldToken = await field.inputValue();
    await page.screenshot({ path: '.tmp/screens/refresh-token.png', fullPage: true });

    // Batal keeps the token
    await page.getByRole('button', { name: T.refreshToken.regenerate }).click();
    await page.getByRole('dialog').getByRole('button', { name: T.common.cancel }).click();
    await expect(field).toHaveValue(oldToken);

    await page.getByRole('button', { name: T.refreshToken.regenerate }).click();
    await confirmYes(page, T.refreshToken.regenerateConfirm, T.common.yes);
    await expect(notice(page, T.refreshToken.copied)).toBeVisible();
    await expect(field).not.toHaveValue(oldToken);
    const newToken = await field.inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newToken);

    const exchange = (token: string) =>
      request.post(contracts.refreshToken.exchange.path, {
        data: { refresh_token: token },
        headers: { [Header.appDomain]: owner.domain },
      });
    expect((await exchange(oldToken)).status()).toBe(401);
    expect((await exchange(newToken)).status()).toBe(200);
  });
});
