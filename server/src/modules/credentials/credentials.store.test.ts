// The credentials store on both engines: an application's pairs in order, an id taken once per application, the
// changes the screens make, and the probe the authenticator runs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { createCredentialsStore, type CredentialsStore } from './credentials.store.js';

forEachEngine('credentials store', (open) => {
  let opened: OpenedStore;
  let creds: CredentialsStore;
  let appA: number;
  let appB: number;
  beforeAll(async () => {
    opened = await open();
    creds = createCredentialsStore(opened.store);
    const tenant = await addTenant(opened.store, 'budi');
    appA = await addApp(opened.store, tenant, 'pabrik');
    appB = await addApp(opened.store, tenant, 'gudang');
  });
  afterAll(() => opened.close());

  const pair = (appId: number, credentialsId: string) => ({
    appId,
    category: 21,
    credentialsId,
    secretSealed: `sealed-${credentialsId}`,
    secretHash: `hash-${credentialsId}`,
    scopes: '{"navs":["*"]}',
    details: '{}',
    createdAt: 7,
    updatedAt: 7,
  });

  it('creates pairs, refuses an id the application has, and lists them oldest first', async () => {
    const a = await creds.create(pair(appA, 'kunci_1'));
    expect(a).toEqual({ id: expect.any(Number), ...pair(appA, 'kunci_1') });
    const b = await creds.create(pair(appA, 'kunci%2'));
    expect(await creds.create(pair(appA, 'kunci_1'))).toBeUndefined();
    // the same id in another application is another pair
    const c = await creds.create(pair(appB, 'kunci_1'));
    expect(c).toBeDefined();
    expect((await creds.list(appA)).map((r) => r.id)).toEqual([a!.id, b!.id]);
    expect((await creds.list(appB)).map((r) => r.id)).toEqual([c!.id]);
    expect(await creds.idTaken(appA, 'kunci_1')).toBe(true);
    expect(await creds.idTaken(appA, 'kunci_')).toBe(false);
    expect(await creds.idTaken(appA, 'kunci%')).toBe(false);
  });

  it('reads a pair of its application only', async () => {
    const [a] = await creds.list(appA);
    expect(await creds.byId(appA, a!.id)).toEqual(a);
    expect(await creds.byId(appB, a!.id)).toBeUndefined();
  });

  it('updates and removes a pair', async () => {
    const [a, b] = await creds.list(appA);
    const updated = await creds.update(a!.id, { scopes: '{}', secretHash: 'new', updatedAt: 9 });
    expect(updated).toEqual({ ...a, scopes: '{}', secretHash: 'new', updatedAt: 9 });
    expect(await creds.update(-1, { updatedAt: 9 })).toBeUndefined();
    await creds.remove(b!.id);
    expect((await creds.list(appA)).map((r) => r.id)).toEqual([a!.id]);
  });

  it('finds the pair the authenticator checks, by application and id', async () => {
    const [a] = await creds.list(appA);
    expect(await creds.pair(appA, 'kunci_1')).toEqual({ id: a!.id, secretHash: 'new', scopes: '{}' });
    expect(await creds.pair(appA, 'KUNCI_1')).toBeUndefined();
    expect(await creds.pair(appB, 'kunci_1')).toMatchObject({ secretHash: 'hash-kunci_1' });
    expect(await creds.pair(appA, 'kunci%2')).toBeUndefined();
  });
});
