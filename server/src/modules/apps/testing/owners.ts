// Test support: the tenant and application a store's test needs as owners of its rows.
import type { AppStore } from '../../../db.js';
import { createAuthStore } from '../../auth/auth.store.js';
import { createAppsStore } from '../apps.store.js';

export async function addTenant(store: AppStore, username: string): Promise<number> {
  const row = await createAuthStore(store).createTenant({
    username,
    first: 'Budi',
    last: null,
    email: `${username}@contoh.id`,
    passHash: 'x',
    tenantName: 'PT Contoh',
    billingExpiresAt: 2_000_000_000_000,
    createdAt: 1,
  });
  if (!('id' in row)) throw new Error(`tenant ${username} not added`);
  return row.id;
}

export async function addApp(store: AppStore, tenantId: number, domain: string): Promise<number> {
  const row = await createAppsStore(store).create({ tenantId, name: domain, domain, description: null, createdAt: 1 });
  if (!row) throw new Error(`application ${domain} not added`);
  return row.id;
}
