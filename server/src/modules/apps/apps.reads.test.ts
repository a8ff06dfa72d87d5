// Which tenant an application belongs to: read once and kept; the answer without waiting knows what was loaded.
import { describe, expect, it } from 'vitest';
import { createAppTenants } from './apps.reads.js';

function fakeApps(rows: Record<number, number>) {
  const reads: number[] = [];
  return {
    reads,
    scopeById: async (id: number) => {
      reads.push(id);
      const tenantId = rows[id];
      return tenantId === undefined ? undefined : { id, tenantId, domain: 'd', name: 'n', timezone: 'Asia/Jakarta' };
    },
    tenants: async () => Object.entries(rows).map(([id, tenantId]) => ({ id: Number(id), tenantId })),
  };
}

describe('application tenants', () => {
  it('reads a tenant once and keeps it; an unknown application is asked again', async () => {
    const apps = fakeApps({ 1: 7 });
    const tenants = createAppTenants(apps);
    expect(await tenants.tenantOf(1)).toBe(7);
    expect(await tenants.tenantOf(1)).toBe(7);
    expect(await tenants.tenantOf(2)).toBeUndefined();
    expect(await tenants.tenantOf(2)).toBeUndefined();
    expect(apps.reads).toEqual([1, 2, 2]);
  });

  it('answers without waiting from what was loaded or added, and learns an application it did not know', async () => {
    const apps = fakeApps({ 1: 7, 2: 8 });
    const tenants = createAppTenants(apps);
    await tenants.load();
    tenants.added(3, 9);
    expect([tenants.knownTenantOf(1), tenants.knownTenantOf(2), tenants.knownTenantOf(3)]).toEqual([7, 8, 9]);
    expect(apps.reads).toEqual([]);
    apps.tenants = async () => [];
    const late = createAppTenants(apps);
    expect(late.knownTenantOf(2)).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(late.knownTenantOf(2)).toBe(8);
  });
});
