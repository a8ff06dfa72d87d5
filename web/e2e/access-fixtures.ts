// Fixtures of the access-management end-to-end tests: a tenant with an application made through the API, and the
// screen steps several specs share.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { contracts, Header } from '@sentra/contracts';
import { registerTenant, signIn, T, unique, type Tenant } from './helpers.js';

export interface TenantApp extends Tenant {
  domain: string;
  auth: { id: number; token: string };
}

/** A registered tenant with one application, both made through the API. */
export async function tenantWithApp(request: APIRequestContext): Promise<TenantApp> {
  const tenant = await registerTenant(request);
  const login = await (
    await request.post(contracts.auth.tenantLogin.path, { data: { input: tenant.username, pass: tenant.pass } })
  ).json();
  expect(login.response_result).toBe(0);
  const domain = unique('app').toLowerCase();
  const add = await request.post(contracts.apps.add.path, {
    data: { name: `Aplikasi ${domain}`, domain },
    headers: { [Header.tenantId]: String(login.id), [Header.tenantToken]: login.token },
  });
  expect((await add.json()).response_result).toBe(0);
  return { ...tenant, domain, auth: { id: login.id, token: login.token } };
}

/** Signs the tenant in on the screen and opens `key` inside the application. */
export async function openAsTenant(page: Page, t: TenantApp, key: string): Promise<void> {
  await page.goto('/admin/login');
  await signIn(page, t);
  await expect(page).toHaveURL(/\/admin\/apps$/);
  await page.goto(`/admin/${t.domain}/${key}`);
}

/** The side menu's entries (the drawer starts collapsed: open it first). */
export async function openSideMenu(page: Page): Promise<void> {
  const menu = page.getByTestId('side-menu');
  if (!(await menu.isVisible())) await page.getByRole('button', { name: T.shell.toggleMenu }).click();
  await expect(menu).toBeVisible();
}

/** Answers the confirm dialog with its yes button. */
export async function confirmYes(page: Page, message: string | RegExp, yes: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: message });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: yes, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The tenant's API headers inside its application. */
export const tenantHeaders = (t: TenantApp) => ({
  [Header.tenantId]: String(t.auth.id),
  [Header.tenantToken]: t.auth.token,
  [Header.appDomain]: t.domain,
});

/** An empty dashboard (a navigation item) made through the dashboards call, under `parent` when given. */
export async function addDashboard(
  request: APIRequestContext,
  t: TenantApp,
  label: string,
  parent?: number,
): Promise<number> {
  const conf_dashboard = { version: '2', config: { refresh: 0 }, view: { decimal: 2 }, var: {}, dashboard: {} };
  const res = await request.post(contracts.dashboards.add.path, {
    data: { label, conf_dashboard, ...(parent ? { parent } : {}) },
    headers: tenantHeaders(t),
  });
  const body = await res.json();
  expect(body.response_result).toBe(0);
  return body.id as number;
}

/** A user of the application holding `roleId`, made through the users call. */
export async function addUser(
  request: APIRequestContext,
  t: TenantApp,
  roleId: number,
): Promise<{ username: string; pass: string }> {
  const username = unique('u').toLowerCase();
  const pass = 'sandi1234';
  const res = await request.post(contracts.users.add.path, {
    data: {
      username,
      first: 'Sari',
      email: `${username}@contoh.id`,
      pass,
      passv: pass,
      role_id: roleId,
      email_verification: false,
    },
    headers: tenantHeaders(t),
  });
  expect((await res.json()).response_result).toBe(0);
  return { username, pass };
}

/** The role form's name field (the list's search box, 'Cari berdasarkan nama role', also contains the words). */
export const roleNameField = (page: Page) => page.getByRole('textbox', { name: new RegExp(`^${T.roles.name}`) });
