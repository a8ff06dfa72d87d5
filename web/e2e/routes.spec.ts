// Route rules of spec 01 section 2 end to end: guarded pages, redirectURL, unknown paths, old paths, demo pages.
import { expect, test } from '@playwright/test';
import { registerTenant, signIn, T } from './helpers.js';

test('a direct visit with no session lands on the sign-in with redirectURL, and returns there after signing in', async ({
  page,
  request,
}) => {
  const tenant = await registerTenant(request);
  await page.goto('/admin/apps/add');
  await expect(page).toHaveURL(/\/admin\/login\?redirectURL=%2Fadmin%2Fapps%2Fadd$/);
  await expect(page.getByRole('tab', { name: T.login.asTenant })).toBeVisible();
  await page.screenshot({ path: '.tmp/screens/signin.png' });
  await signIn(page, tenant);
  await expect(page).toHaveURL(/\/admin\/apps\/add$/);
});

test("an application user's page with no session lands on that application's sign-in", async ({ page }) => {
  await page.goto('/kebun/_device_list_');
  await expect(page).toHaveURL(/\/kebun\/login\?redirectURL=%2Fkebun%2F_device_list_$/);
  await expect(page.getByRole('button', { name: T.login.signIn })).toBeVisible();
});

test('the application sign-in of an unregistered domain goes to the admin sign-in with a warning', async ({ page }) => {
  await page.goto('/tidakterdaftar/login');
  await page.getByLabel(T.login.username).fill('operator');
  await page.getByLabel(T.login.password, { exact: true }).fill('rahasia');
  await page.getByRole('button', { name: T.login.signIn }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByTestId('notice').filter({ hasText: T.login.appNotRegistered })).toBeVisible();
});

test('an unknown path lands on the login', async ({ page }) => {
  await page.goto('/Halaman-Yang-Tidak-Ada/sama/sekali');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole('button', { name: T.login.login, exact: true })).toBeVisible();
});

test('old paths redirect to the root', async ({ page }) => {
  for (const old of ['/app', '/apps', '/lora_gates', '/application', '/applications']) {
    await page.goto(old);
    await expect(page).toHaveURL(/\/admin\/login$/);
  }
});

test("/pages/404 shows 'Page Not Found!!'", async ({ page }) => {
  await page.goto('/pages/404');
  await expect(page.getByText(T.notFoundPage)).toBeVisible();
});

test('the demo pages are placeholders', async ({ page }) => {
  for (const [path, title] of [
    ['/pages/signin', T.demoPages.signIn],
    ['/pages/register', T.demoPages.register],
    ['/pages/forget', T.demoPages.forget],
    ['/pages/invoice', T.demoPages.invoice],
    ['/pages/test', T.demoPages.test],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
});

test('the billing-expired page tells a tenant to pay and others to contact their tenant', async ({ page }) => {
  await page.goto('/expire?isTenant=true');
  await expect(page.getByTestId('billing-message')).toHaveText(T.billing.tenant);
  await page.goto('/expire?isTenant=false');
  await expect(page.getByTestId('billing-message')).toHaveText(T.billing.member);
});
