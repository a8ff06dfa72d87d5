// Spec 01 role creation through its three steps end to end, with dashboards (navigation items) made through the
// dashboards call: info (Berikutnya) → access ('Include All Children' clears the selection) → order → Simpan; the
// browser's back button returns to the previous step; a user of the role gets the dashboards in the role's order;
// Reorder and Atur Akses from the list edit the role at _role_edit_sort_/{id}.
import { expect, test, type Page } from '@playwright/test';
import { contracts } from '@sentra/contracts';
import { notice, signIn, T, unique } from './helpers.js';
import {
  addDashboard,
  addUser,
  openSideMenu,
  tenantHeaders,
  tenantWithApp,
  roleNameField,
  type TenantApp,
} from './access-fixtures.js';

test.describe.serial('the role wizard with navigation items', () => {
  let page: Page;
  let member: Page;
  let owner: TenantApp;
  const roleName = `Operator_${unique('w')}`;
  const roleCard = () => page.getByTestId('role-card').filter({ hasText: roleName });
  const navCheckbox = (label: string) => page.getByTestId('role-access-tree').getByRole('checkbox', { name: label });
  const sortItems = () => page.getByTestId('role-sort-list').getByRole('listitem');

  test.beforeAll(async ({ browser, request, baseURL }) => {
    owner = await tenantWithApp(request);
    const listrik = await addDashboard(request, owner, 'Listrik');
    await addDashboard(request, owner, 'Gedung A', listrik);
    await addDashboard(request, owner, 'Air');
    page = await browser.newPage({ baseURL });
  });
  test.afterAll(async () => {
    await page.close();
    await member?.context().close();
  });

  test('goes info → access → order and saves the role', async () => {
    await page.goto('/admin/login');
    await signIn(page, owner);
    await expect(page).toHaveURL(/\/admin\/apps$/);
    await page.goto(`/admin/${owner.domain}/_role_list_`);
    await page.getByRole('button', { name: T.roles.newRole }).click();
    await expect(page.getByRole('heading', { name: T.roles.addTitle })).toBeVisible();

    // info: navigation items exist, so the button reads Berikutnya
    await roleNameField(page).fill(roleName);
    await page.getByRole('combobox', { name: T.roles.sysNavs }).click();
    await page.getByRole('option', { name: T.roles.sysNavLabels._device_list_ }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: T.common.next }).click();

    // access: hierarchical at first — Listrik checks Gedung A too
    await expect(page).toHaveURL(new RegExp(`/admin/${owner.domain}/_role_add_access_$`));
    await navCheckbox('Listrik').check();
    await expect(navCheckbox('Gedung A')).toBeChecked();
    // the browser's back button returns to info with what was entered, and forward through the wizard again
    await page.goBack();
    await expect(page).toHaveURL(/_role_add_info_$/);
    await expect(roleNameField(page)).toHaveValue(roleName);
    await page.getByRole('button', { name: T.common.next }).click();
    await expect(page).toHaveURL(/_role_add_access_$/);
    await expect(navCheckbox('Listrik')).toBeChecked();

    // 'Include All Children' clears the selection; a picked item includes its children
    await page.getByLabel(T.roles.includeAllChildren).check();
    await expect(navCheckbox('Listrik')).not.toBeChecked();
    // a click on a dashboard's name ticks it, as the checkbox does (issue 38)
    await page.getByTestId('role-access-tree').getByText('Air', { exact: true }).click();
    await expect(navCheckbox('Air')).toBeChecked();
    await navCheckbox('Listrik').check();
    await expect(navCheckbox('Gedung A')).toBeChecked();
    await expect(navCheckbox('Gedung A')).toBeDisabled();
    await page.screenshot({ path: '.tmp/screens/role-wizard-access.png', fullPage: true });
    await page.getByRole('button', { name: T.common.next }).click();

    // order: Air, Listrik as picked; move Listrik up
    await expect(page).toHaveURL(/_role_add_sort_$/);
    await expect(sortItems()).toHaveText([/Air/, /Listrik/]);
    await page.getByRole('button', { name: T.roles.moveUp('Listrik') }).click();
    await expect(sortItems()).toHaveText([/Listrik/, /Air/]);
    await page.screenshot({ path: '.tmp/screens/role-wizard-sort.png', fullPage: true });
    await page.getByRole('button', { name: T.common.save }).click();

    await expect(notice(page, T.roles.addSuccess)).toBeVisible();
    await expect(page).toHaveURL(/_role_list_$/);
    await expect(roleCard()).toContainText('Listrik, Air');
    await expect(roleCard().getByRole('button', { name: T.roles.setAccess })).toBeVisible();
    await expect(roleCard().getByRole('button', { name: T.roles.reorder })).toBeVisible();
  });

  test("a user of the role gets the role's dashboards in its order, with children", async ({
    browser,
    baseURL,
    request,
  }) => {
    const roles = await (await request.get(contracts.roles.list.path, { headers: tenantHeaders(owner) })).json();
    const role = roles.data.find((r: { name: string }) => r.name === roleName);
    expect(role).toMatchObject({ descendant: true });
    const user = await addUser(request, owner, role.id);
    member = await (await browser.newContext({ baseURL })).newPage();
    await member.goto(`/${owner.domain}/login`);
    await member.getByLabel(T.login.username).fill(user.username);
    await member.getByLabel(T.login.password, { exact: true }).fill(user.pass);
    await member.getByRole('button', { name: T.login.signIn }).click();
    await expect(member).toHaveURL(new RegExp(`/${owner.domain}/_device_list_$`));
    await openSideMenu(member);
    const menu = member.getByTestId('side-menu');
    await expect(menu).toHaveText(new RegExp(`^${T.nav.devices}Listrik.*Air$`));
    // 'Include All Children': Listrik brings its child
    await menu.getByRole('button', { name: 'Listrik' }).click();
    await expect(menu).toHaveText(new RegExp(`^${T.nav.devices}ListrikGedung AAir$`));
    await menu.getByRole('link', { name: 'Gedung A' }).click();
    await expect(member).toHaveURL(new RegExp(`/${owner.domain}/gedung-a$`));
    await expect(member.getByTestId('page-title')).toHaveText('Gedung A');
  });

  test('Reorder opens the order step of _role_edit_sort_/{id} and saves the new order', async () => {
    await roleCard().getByRole('button', { name: T.roles.reorder }).click();
    await expect(page).toHaveURL(/_role_edit_sort_\/\d+\?step=sort$/);
    await expect(page.getByRole('heading', { name: T.roles.editTitle })).toBeVisible();
    await expect(sortItems()).toHaveText([/Listrik/, /Air/]);
    await page.getByRole('button', { name: T.roles.moveUp('Air') }).click();
    await page.getByRole('button', { name: T.common.save }).click();
    await expect(notice(page, T.roles.editSuccess)).toBeVisible();
    await expect(roleCard()).toContainText('Air, Listrik');

    await member.reload();
    await openSideMenu(member);
    await expect(member.getByTestId('side-menu')).toHaveText(new RegExp(`^${T.nav.devices}Air.*Listrik`));
  });

  test("Atur Akses opens the access step with the role's choices", async () => {
    await roleCard().getByRole('button', { name: T.roles.setAccess }).click();
    await expect(page).toHaveURL(/_role_edit_sort_\/\d+$/);
    await expect(page.getByLabel(T.roles.includeAllChildren)).toBeChecked();
    await expect(navCheckbox('Air')).toBeChecked();
    await expect(navCheckbox('Listrik')).toBeChecked();
    // info is not part of this edit: no Kembali to it
    await expect(page.getByRole('button', { name: T.common.back })).toHaveCount(0);
    await page.getByRole('button', { name: T.common.cancel }).click();
    await expect(page).toHaveURL(/_role_list_$/);
  });
});
