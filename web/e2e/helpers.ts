// Shared helpers of the end-to-end tests: unique names, the catalogue's texts, and a tenant made through the API.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
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
