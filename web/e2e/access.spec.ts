// Spec 01 end to end: register a tenant through the screen, sign in (and its -1/-2 messages), create an application
// (and -3 on a taken domain), open it, the tenant menu in order, About with the domain, logout.
import { expect, test, type Page } from '@playwright/test';
import { notice, signIn, T, unique } from './helpers.js';

test.describe.serial('a tenant from registration to logout', () => {
  let page: Page;
  const username = unique('e2e');
  const pass = 'rahasia123';
  const domain = unique('kebun');
  const appName = `Kebun Raya ${domain}`;

  test.beforeAll(async ({ browser, baseURL }) => {
    page = await browser.newPage({ baseURL });
  });
  test.afterAll(async () => {
    await page.close();
  });

  test('registers a tenant through the registration screen', async () => {
    await page.goto('/admin/login');
    await page.getByRole('link', { name: T.signInPage.register }).click();
    await expect(page).toHaveURL(/\/admin\/registration$/);
    await expect(page.getByRole('heading', { name: T.registrationPage.title })).toBeVisible();

    // client-side validation with the contract's schema: mismatching confirmation
    await page.getByLabel(T.registrationPage.username).fill(username);
    await page.getByLabel(T.registrationPage.first).fill('Dewi');
    await page.getByLabel(T.registrationPage.email).fill(`${username}@contoh.id`);
    await page.getByLabel(new RegExp(`^${T.registrationPage.pass}`)).fill(pass);
    await page.getByLabel(T.registrationPage.passv).fill('lain1234');
    await page.getByLabel(T.registrationPage.tenantName).fill('PT Kebun Raya');
    await page.getByRole('button', { name: T.registration.submit, exact: true }).click();
    await expect(page.getByText(T.registration.passwordMismatch)).toBeVisible();

    await page.getByLabel(T.registrationPage.passv).fill(pass);
    await page.getByRole('button', { name: T.registration.submit, exact: true }).click();
    await expect(notice(page, T.registration.success)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('refuses an unknown username with -1 "Username tidak terdaftar"', async () => {
    await signIn(page, { username: unique('nobody'), pass });
    await expect(notice(page, T.login.unknownUsername)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('refuses a wrong password with -2 "Username dan password tidak sesuai"', async () => {
    await signIn(page, { username, pass: 'salah-sekali' });
    await expect(notice(page, T.login.wrongPassword)).toBeVisible();
  });

  test('signs in, welcomes by name and shows the application list', async () => {
    await signIn(page, { username, pass });
    await expect(notice(page, T.login.welcome('Dewi'))).toBeVisible();
    // the welcome replaces the failed attempt's notice: no "Username dan password tidak sesuai" beside it (issue 38)
    await expect(notice(page, T.login.wrongPassword)).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/apps$/);
    await expect(page.getByRole('heading', { name: T.application.listTitle })).toBeVisible();
    await expect(page.getByText(T.application.listSubtitle)).toBeVisible();
  });

  test('creates an application', async () => {
    await page.getByRole('link', { name: T.appForm.add }).click();
    await expect(page).toHaveURL(/\/admin\/apps\/add$/);
    // the domain rule of the contract, in the browser
    await page.getByLabel(T.appForm.name).fill(appName);
    await page.getByLabel(T.appForm.domain).fill('1salah');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.application.domainStart)).toBeVisible();

    await page.getByLabel(T.appForm.domain).fill(domain);
    await page.getByLabel(T.appForm.description).fill('Pemantauan kebun');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.application.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/apps$/);
    await expect(page.getByTestId('app-card').filter({ hasText: appName })).toBeVisible();
    await page.screenshot({ path: '.tmp/screens/app-list.png', fullPage: true });
  });

  test('answers -3 "Domain sudah terpakai, silahkan gunakan domain lain" on a taken domain', async () => {
    await page.goto('/admin/apps/add');
    await page.getByLabel(T.appForm.name).fill('Aplikasi Kedua');
    await page.getByLabel(T.appForm.domain).fill(domain);
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.application.domainTaken)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/apps\/add$/);
    await page.getByRole('button', { name: T.common.cancel }).click();
    await expect(page).toHaveURL(/\/admin\/apps$/);
  });

  test('opens the application and shows the tenant menu in order', async () => {
    await page.getByTestId('app-card').filter({ hasText: appName }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${domain}/_dashboard_list_$`));
    await page.getByRole('button', { name: T.shell.toggleMenu }).click();
    const entries = page.getByTestId('side-menu').getByTestId('menu-entry');
    await expect(entries).toHaveText([
      T.nav.dashboard,
      T.nav.role,
      T.nav.users,
      T.nav.devices,
      T.nav.tags,
      T.nav.rules,
      T.nav.tasks,
      T.nav.credentials,
      T.nav.about,
    ]);
    await expect(page.getByRole('link', { name: T.application.tenantLogoTitle })).toHaveAttribute(
      'href',
      '/admin/apps',
    );
  });

  test('opens About and sees the domain', async () => {
    await page.getByTestId('side-menu').getByRole('link', { name: T.nav.about }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${domain}/@about$`));
    await expect(page.getByTestId('page-title')).toHaveText(T.about.title);
    await expect(page.getByLabel(T.about.domain)).toHaveValue(domain);
    await expect(page.getByLabel(T.about.name)).toHaveValue(appName);
  });

  test('the Rule entry opens the rule list (issue 26 replaced its "not built yet" page)', async () => {
    await page.getByRole('button', { name: T.shell.toggleMenu }).click();
    await page.getByTestId('side-menu').getByRole('link', { name: T.nav.rules }).click();
    await expect(page.getByText(T.ruleScreens.emptyTitle)).toBeVisible();
    await expect(page.getByTestId('page-title')).toHaveText(T.nav.rules);
  });

  test('logs out and lands on the sign-in; the session is gone', async () => {
    await page.getByRole('button', { name: T.shell.account }).click();
    await page.getByRole('menuitem', { name: T.shell.logout }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('sentra.tenant.token'))).toBeNull();
    await page.goto('/admin/apps');
    await expect(page).toHaveURL(/\/admin\/login\?redirectURL=%2Fadmin%2Fapps$/);
  });
});
