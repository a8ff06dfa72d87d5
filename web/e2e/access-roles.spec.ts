// Spec 01 roles and users end to end: a tenant creates a role with system navigation (Simpan on the info step: the
// application has no navigation items), searches it, sees the table's Hapus notice, creates a user with the role;
// the user signs in through the application sign-in and gets only the menu and routes the role grants; the role
// cannot be deleted while the user holds it; edit, password change, user delete, and finally the role delete.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { notice, T, unique } from './helpers.js';
import {
  confirmYes,
  openAsTenant,
  openSideMenu,
  tenantWithApp,
  roleNameField,
  type TenantApp,
} from './access-fixtures.js';

test.describe.serial('roles and users of an application', () => {
  let page: Page;
  let owner: TenantApp;
  let memberPage: Page;
  const roleName = `Teknisi_${unique('r')}`;
  const username = unique('usr').toLowerCase();
  const pass = 'sandi1234';

  const roleCard = () => page.getByTestId('role-card').filter({ hasText: roleName });
  const userCard = () => page.getByTestId('user-card').filter({ hasText: username });

  test.beforeAll(async ({ browser, request, baseURL }) => {
    owner = await tenantWithApp(request);
    page = await browser.newPage({ baseURL });
  });
  test.afterAll(async () => {
    await page.close();
    await memberPage?.context().close();
  });

  test('blocks adding a user while no role exists', async () => {
    await openAsTenant(page, owner, '_user_add_');
    await expect(page.getByRole('heading', { name: T.users.addTitle })).toBeVisible();
    await expect(page.getByTestId('no-role')).toHaveText(T.users.noRole);
    await expect(page.getByRole('button', { name: T.common.save })).toBeDisabled();
  });

  test('shows "Oopss... Role Masih Kosong" and creates a role from the info step with Simpan', async () => {
    await page.goto(`/admin/${owner.domain}/_role_list_`);
    await expect(page.getByTestId('page-title')).toHaveText(T.nav.role);
    await expect(page.getByText(T.roles.empty)).toBeVisible();
    await page.getByRole('button', { name: T.roles.newRole }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${owner.domain}/_role_add_info_$`));
    await expect(page.getByRole('heading', { name: T.roles.addTitle })).toBeVisible();
    // no navigation items: the info step saves, its button reads Simpan instead of Berikutnya
    await expect(page.getByRole('button', { name: T.common.save })).toBeVisible();
    await expect(page.getByRole('button', { name: T.common.next })).toHaveCount(0);

    // the contract's rules in the browser
    await page.getByLabel(T.roles.permissions).fill('{salah');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.common.required)).toBeVisible();
    await expect(page.getByText(T.roles.invalidPermissions)).toBeVisible();
    await roleNameField(page).fill('teknisi lapangan');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.roles.namePattern)).toBeVisible();

    await roleNameField(page).fill(roleName);
    await page.getByLabel(T.roles.description).fill('Teknisi lapangan');
    await page.getByLabel(T.roles.permissions).fill('{"task_manage": true}');
    await page.getByRole('combobox', { name: T.roles.sysNavs }).click();
    await page.getByRole('option', { name: T.roles.sysNavLabels._device_list_ }).click();
    await page.getByRole('option', { name: T.roles.sysNavLabels._task_list_ }).click();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: '.tmp/screens/role-wizard-info.png', fullPage: true });
    await page.getByRole('button', { name: T.common.save }).click();

    await expect(notice(page, T.roles.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/${owner.domain}/_role_list_$`));
    await expect(roleCard()).toBeVisible();
    await expect(roleCard()).toContainText(T.roles.sysNavLabels._device_list_);
    await expect(roleCard()).toContainText(T.roles.sysNavLabels._task_list_);
  });

  test('answers -12 "Nama role sudah terpakai" for the same name in another case', async () => {
    await page.getByRole('button', { name: T.roles.newRole }).click();
    await expect(page.getByRole('heading', { name: T.roles.addTitle })).toBeVisible();
    await roleNameField(page).fill(roleName.toUpperCase());
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.roles.addFailed)).toBeVisible();
    await expect(page.getByText(T.roles.nameTaken)).toBeVisible();
    await page.getByRole('button', { name: T.common.cancel }).click();
    await expect(page).toHaveURL(new RegExp(`/_role_list_$`));
  });

  test('searches case-insensitively on Enter and with the button; "Oopss... role tidak ditemukan"', async () => {
    const search = page.getByRole('textbox', { name: T.roles.search });
    await search.fill('tidak-ada-role');
    await search.press('Enter');
    await expect(page.getByText(T.roles.noneFound)).toBeVisible();
    await search.fill(roleName.slice(0, 10).toUpperCase());
    await page.getByRole('button', { name: T.roles.searchButton }).click();
    await expect(roleCard()).toBeVisible();
    await page.screenshot({ path: '.tmp/screens/role-list.png', fullPage: true });
  });

  test("the table's Hapus only says 'Maaf, fitur hapus role belum tersedia'", async () => {
    await page.getByRole('button', { name: T.roles.viewTable }).click();
    const table = page.getByTestId('role-table');
    for (const h of [T.roles.columnRole, T.roles.columnDescription, T.roles.columnAccess, T.roles.columnActions]) {
      await expect(table.getByRole('columnheader', { name: h, exact: true })).toBeVisible();
    }
    const row = table.getByRole('row').filter({ hasText: roleName });
    // no navigation items exist and the role shows none: neither Atur Akses nor Reorder
    await expect(row.getByRole('button', { name: T.roles.editInfo })).toBeVisible();
    await expect(row.getByRole('button', { name: T.roles.setAccess })).toHaveCount(0);
    await expect(row.getByRole('button', { name: T.roles.reorder })).toHaveCount(0);
    await page.screenshot({ path: '.tmp/screens/role-table.png', fullPage: true });
    await row.getByRole('button', { name: T.roles.delete }).click();
    await expect(notice(page, T.roles.deleteUnavailable)).toBeVisible();
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: T.roles.viewCards }).click();
  });

  test('creates a user with the role (Tambah Pengguna)', async () => {
    await openSideMenu(page);
    await page.getByTestId('side-menu').getByRole('link', { name: T.nav.users }).click();
    await expect(page.getByRole('heading', { name: T.users.listTitle })).toBeVisible();
    await expect(page.getByText(T.users.listSubtitle)).toBeVisible();
    await page.getByRole('link', { name: T.users.createButton }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${owner.domain}/_user_add_$`));

    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.common.required).first()).toBeVisible();
    await page.getByLabel(T.users.username).fill(username);
    await page.getByLabel(T.users.first).fill('Rina');
    await page.getByLabel(T.users.last).fill('Wati');
    await page.getByLabel(T.users.email).fill(`${username}@contoh.id`);
    await page.locator('input[name="pass"]').fill(pass);
    await page.locator('input[name="passv"]').fill('lain12345');
    await page.getByRole('combobox', { name: T.users.role }).click();
    await page.getByRole('option', { name: roleName }).click();
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByText(T.common.passwordMismatch)).toBeVisible();
    await page.locator('input[name="passv"]').fill(pass);
    await page.getByTestId('avatar-input').setInputFiles({
      name: 'foto.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    await expect(page.getByTestId('avatar-preview').locator('img')).toBeVisible();
    await page.getByRole('button', { name: T.common.save }).click();

    await expect(notice(page, T.users.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/_user_list_$`));
    await expect(userCard()).toContainText('Rina Wati');
    await expect(userCard()).toContainText(roleName);
    await page.screenshot({ path: '.tmp/screens/user-list.png', fullPage: true });
  });

  test('answers -3 "Username sudah terpakai" for a taken username', async () => {
    await page.getByRole('link', { name: T.users.createButton }).click();
    await expect(page.getByRole('heading', { name: T.users.addTitle })).toBeVisible();
    await page.getByLabel(T.users.username).fill(username);
    await page.getByLabel(T.users.first).fill('Rudi');
    await page.getByLabel(T.users.email).fill(`lain${username}@contoh.id`);
    await page.locator('input[name="pass"]').fill(pass);
    await page.locator('input[name="passv"]').fill(pass);
    await page.getByRole('combobox', { name: T.users.role }).click();
    await page.getByRole('option', { name: roleName }).click();
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.users.usernameTaken)).toBeVisible();
    await expect(page).toHaveURL(/_user_add_$/);
    await page.getByRole('button', { name: T.common.cancel }).click();
  });

  test('the user signs in and sees only the menu and routes the role grants; other screens say access is denied', async ({
    browser,
    baseURL,
  }) => {
    memberPage = await newPage(browser, baseURL);
    await memberPage.goto(`/${owner.domain}/login`);
    await memberPage.getByLabel(T.login.username).fill(username);
    await memberPage.getByLabel(T.login.password, { exact: true }).fill(pass);
    await memberPage.getByRole('button', { name: T.login.signIn }).click();
    // the first granted entry is the default page
    await expect(memberPage).toHaveURL(new RegExp(`/${owner.domain}/_device_list_$`));
    await openSideMenu(memberPage);
    await expect(memberPage.getByTestId('side-menu').getByTestId('menu-entry')).toHaveText([T.nav.devices]);
    await expect(memberPage.getByTestId('side-menu-system').getByTestId('menu-entry')).toHaveText([T.nav.tasks]);
    await memberPage.screenshot({ path: '.tmp/screens/member-menu.png', fullPage: true });

    // screens outside the role say access is denied, with the way back to the role's first page
    for (const key of ['_role_list_', '_role_add_info_', '_user_list_', '@credentials', '_dashboard_list_']) {
      await memberPage.goto(`/${owner.domain}/${key}`);
      await expect(memberPage.getByRole('heading', { name: T.shell.accessDeniedTitle })).toBeVisible();
      await expect(memberPage.getByText(T.shell.accessDeniedBody)).toBeVisible();
      await expect(memberPage.getByText(T.notFoundPage)).toHaveCount(0);
    }
    await memberPage.setViewportSize({ width: 1366, height: 800 });
    await memberPage.screenshot({ path: '.tmp/screens/member-access-denied.png', fullPage: true });
    await memberPage.setViewportSize({ width: 400, height: 800 });
    await memberPage.screenshot({ path: '.tmp/screens/member-access-denied-400.png', fullPage: true });
    await memberPage.setViewportSize({ width: 1366, height: 800 });
    await memberPage.getByRole('link', { name: T.shell.accessDeniedBack }).click();
    await expect(memberPage).toHaveURL(new RegExp(`/${owner.domain}/_device_list_$`));
    // a path no screen has is still the 404
    await memberPage.goto(`/${owner.domain}/_tidak_ada_`);
    await expect(memberPage.getByText(T.notFoundPage)).toBeVisible();
    // the top bar's API entry: the user's own refresh token
    await memberPage.goto(`/${owner.domain}/_task_list_`);
    await memberPage.getByRole('button', { name: T.shell.account }).click();
    await memberPage.getByRole('menuitem', { name: T.shell.api }).click();
    await expect(memberPage).toHaveURL(new RegExp(`/${owner.domain}/@token$`));
    await expect(memberPage.getByText(T.refreshToken.warningMember)).toBeVisible();
  });

  test('deleting the role while the user holds it answers "Hapus role gagal, masih terikat dengan user"', async () => {
    await page.goto(`/admin/${owner.domain}/_role_list_`);
    await roleCard().getByRole('button', { name: T.roles.delete }).click();
    await confirmYes(page, T.roles.deleteConfirm(roleName), T.common.yes);
    await expect(notice(page, T.roles.deleteBound)).toBeVisible();
    await expect(roleCard()).toBeVisible();
  });

  test('edits the role info with the system navigation multi-select; the user gets the new menu', async () => {
    await roleCard().getByRole('button', { name: T.roles.editInfo }).click();
    await expect(page).toHaveURL(new RegExp(`/_role_edit_/\\d+$`));
    await expect(page.getByRole('heading', { name: T.roles.editTitle })).toBeVisible();
    await expect(roleNameField(page)).toHaveValue(roleName);
    await page.getByRole('combobox', { name: T.roles.sysNavs }).click();
    await expect(page.getByRole('option', { name: T.roles.sysNavLabels._device_list_ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByRole('option', { name: T.roles.sysNavLabels._user_manage_ }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.roles.editSuccess)).toBeVisible();
    await expect(roleCard()).toContainText(T.roles.sysNavLabels._user_manage_);

    await memberPage.goto(`/${owner.domain}`);
    await openSideMenu(memberPage);
    await expect(memberPage.getByTestId('side-menu').getByTestId('menu-entry')).toHaveText([
      T.nav.users,
      T.nav.devices,
    ]);
    await expect(memberPage).toHaveURL(new RegExp(`/${owner.domain}/_user_list_$`));
  });

  test('edits the user (Ubah Pengguna) through Kelola → Info', async () => {
    await page.goto(`/admin/${owner.domain}/_user_list_`);
    await userCard().click();
    await page.getByRole('menuitem', { name: T.users.manage }).click();
    await page.getByRole('menuitem', { name: T.users.info }).click();
    await expect(page).toHaveURL(new RegExp(`/_user_edit_/\\d+$`));
    await expect(page.getByRole('heading', { name: T.users.editTitle })).toBeVisible();
    await expect(page.getByLabel(T.users.username)).toHaveValue(username);
    await expect(page.getByLabel(T.users.username)).toHaveAttribute('readonly', '');
    await page.getByLabel(T.users.first).fill('Rinaldi');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.users.editSuccess)).toBeVisible();
    await expect(userCard()).toContainText('Rinaldi Wati');
  });

  test('changes the password (Ubah Password Pengguna) through Kelola → Password', async () => {
    await userCard().click();
    await page.getByRole('menuitem', { name: T.users.manage }).click();
    await page.getByRole('menuitem', { name: T.users.password }).click();
    await expect(page).toHaveURL(new RegExp(`/@user/password/\\d+$`));
    await expect(page.getByRole('heading', { name: T.users.passwordTitle })).toBeVisible();
    await page.locator('input[name="passn"]').fill('baru5678');
    await page.locator('input[name="passv"]').fill('beda5678');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.users.passwordConfirmFailed)).toBeVisible();
    await page.locator('input[name="passv"]').fill('baru5678');
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.users.passwordSuccess)).toBeVisible();
    await expect(page).toHaveURL(/_user_list_$/);
  });

  test('deletes the user (the list reloads), then the role deletes', async () => {
    await userCard().click();
    await page.getByRole('menuitem', { name: T.users.delete }).click();
    await confirmYes(page, T.users.deleteConfirm(username), T.common.yes);
    await expect(notice(page, T.users.deleteSuccess)).toBeVisible();
    await expect(userCard()).toHaveCount(0);
    await expect(page.getByText(T.users.empty)).toBeVisible();

    await page.goto(`/admin/${owner.domain}/_role_list_`);
    await roleCard().getByRole('button', { name: T.roles.delete }).click();
    await confirmYes(page, T.roles.deleteConfirm(roleName), T.common.yes);
    await expect(notice(page, T.roles.deleteSuccess)).toBeVisible();
    await expect(page.getByText(T.roles.empty)).toBeVisible();
  });
});

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}
