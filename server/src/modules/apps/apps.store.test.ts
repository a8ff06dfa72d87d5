// The applications store on both engines: a tenant's list in its order, a domain taken once, the scope a call
// resolves to.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createAppsStore, type AppsStore } from './apps.store.js';
import { applications } from './apps.table.js';
import { addTenant } from './testing/owners.js';

forEachEngine('apps store', (open) => {
  let opened: OpenedStore;
  let apps: AppsStore;
  let tenantA: number;
  let tenantB: number;
  beforeAll(async () => {
    opened = await open();
    apps = createAppsStore(opened.store);
    tenantA = await addTenant(opened.store, 'budi');
    tenantB = await addTenant(opened.store, 'sari');
  });
  afterAll(() => opened.close());

  const add = (tenantId: number, domain: string, name = 'Pabrik') =>
    apps.create({ tenantId, name, domain, description: null, createdAt: 10 });

  it('adds applications and lists a tenant’s own, oldest first', async () => {
    const first = await add(tenantA, 'pabrik1', 'Pabrik Satu');
    expect(first).toEqual({
      id: expect.any(Number),
      name: 'Pabrik Satu',
      domain: 'pabrik1',
      description: null,
      created_time: 10,
    });
    const other = await add(tenantB, 'gudang1');
    const second = await add(tenantA, 'pabrik0', 'Pabrik Dua');
    expect(second!.id).toBeGreaterThan(first!.id);
    // an update moves a row to the end of PostgreSQL's heap: the list's order is its own, not the storage's
    await opened.store.db.update(applications).set({ name: 'Pabrik Satu' }).where(eq(applications.id, first!.id));
    expect((await apps.listOf(tenantA)).map((a) => a.domain)).toEqual(['pabrik1', 'pabrik0']);
    expect(await apps.listOf(tenantB)).toEqual([
      { id: other!.id, name: 'Pabrik', domain: 'gudang1', description: null },
    ]);
    expect(await apps.listOf(-1)).toEqual([]);
  });

  it('takes a domain once, for anyone', async () => {
    expect(await apps.domainTaken('pabrik1')).toBe(true);
    expect(await apps.domainTaken('pabrik_')).toBe(false);
    expect(await add(tenantB, 'pabrik1')).toBeUndefined();
    expect((await apps.listOf(tenantB)).map((a) => a.domain)).toEqual(['gudang1']);
  });

  it('finds an application by domain with its tenant, and the scope a call resolves to', async () => {
    const about = await apps.byDomain('gudang1');
    expect(about).toMatchObject({ domain: 'gudang1', tenantId: tenantB, created_time: 10 });
    expect(await apps.byDomain('nothing')).toBeUndefined();
    const scope = await apps.scopeByDomain('pabrik1');
    expect(scope).toEqual({
      id: expect.any(Number),
      tenantId: tenantA,
      domain: 'pabrik1',
      name: 'Pabrik Satu',
      timezone: 'Asia/Jakarta',
    });
    expect(await apps.scopeById(scope!.id)).toEqual(scope);
    expect(await apps.scopeById(-1)).toBeUndefined();
    expect(await apps.scopeByDomain('PABRIK1')).toBeUndefined();
  });

  it('lists every application’s tenant', async () => {
    const all = await apps.tenants();
    expect(all.map((a) => a.tenantId)).toEqual([tenantA, tenantB, tenantA]);
    expect(all.map((a) => a.id)).toEqual([...all.map((a) => a.id)].sort((x, y) => x - y));
  });
});
