// Shared helpers of the end-to-end tests: unique names, the catalogue's texts, and a tenant made through the API.
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { contracts, T } from '@sentra/contracts';

let seq = 0;
/** A name of at most 16 characters, unique per run. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-6)}${(++seq).toString(36)}${Math.floor(Math.random() * 36).toString(36)}`.slice(
    0,
    16,
  );
}

export { T };

/** The notification showing `text` (snackbar, top right). */
export const notice = (page: Page, text: string) => page.getByTestId('notice').filter({ hasText: text });

export interface Tenant {
  username: string;
  pass: string;
  first: string;
}

/** Registers a tenant straight through the API (for tests that are not about registration). */
export async function registerTenant(request: APIRequestContext): Promise<Tenant> {
  const username = unique('t');
  const tenant = { username, pass: 'rahasia123', first: 'Dewi' };
  const res = await request.post(contracts.auth.register.path, {
    data: {
      username,
      first: tenant.first,
      email: `${username}@contoh.id`,
      pass: tenant.pass,
      passv: tenant.pass,
      tenant_name: `PT ${username}`,
    },
  });
  expect((await res.json()).response_result).toBe(0);
  return tenant;
}

/** Signs in on the tenant sign-in screen. */
export async function signIn(page: Page, t: Pick<Tenant, 'username' | 'pass'>): Promise<void> {
  await page.getByLabel(T.login.username).fill(t.username);
  await page.getByLabel(T.login.password, { exact: true }).fill(t.pass);
  await page.getByRole('button', { name: T.login.login, exact: true }).click();
}

/** Where a field is looked for: the page or a part of it (a dialog). */
export type Scope = Page | Locator;

/**
 * The MUI select whose label reads `label` (the required asterisk aside). Its accessible name is the label followed by
 * the chosen value, so it is found through the label's id, which the select's aria-labelledby names first.
 */
export async function select(scope: Scope, label: string) {
  let labelId: string | undefined;
  // a field that follows another's choice (the unit after the category) renders a moment later: waited for
  await expect
    .poll(
      async () =>
        (labelId = await scope
          .locator('label')
          .evaluateAll(
            (els, wanted) =>
              els.find((el) => (el.textContent ?? '').replace(/[\s\u2009*]+$/, '').trim() === wanted)?.id,
            label,
          )),
      { message: `a select labelled ${label}` },
    )
    .toBeTruthy();
  return scope.locator(`[role="combobox"][aria-labelledby^="${labelId} "]`);
}

/** Picks a device in the query editor's searchable device picker by typing `search` (part of its name or serial number). */
export async function pickDevice(page: Page, scope: Scope, search: string, name: string) {
  const input = scope.getByRole('combobox', { name: T.dashboards.query.device });
  await input.fill(search);
  await page.getByRole('option').filter({ hasText: name }).click();
  await expect(input).toHaveValue(name);
}

/** Picks `option` in the MUI select labelled `label` (inside `scope`, default the page). */
export async function pick(page: Page, label: string, option: string, scope: Scope = page) {
  const field = await select(scope, label);
  // picked once the menu has closed: a click that landed while the menu was still opening is tried again (CI, a slow
  // host: the menu stayed open with nothing chosen)
  await expect(async () => {
    if ((await field.getAttribute('aria-expanded')) !== 'true') await field.click();
    await page.getByRole('option', { name: option, exact: true }).click({ timeout: 2_000 });
    await expect(page.getByRole('listbox')).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}
