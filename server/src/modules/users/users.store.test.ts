// The users store on both engines: an application's accounts with their unique username and email, what the roles
// domain asks of them, and the refresh tokens: issued, rotated once, replayed families revoked, all forgotten.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { createRolesStore } from '../roles/roles.store.js';
import { createUsersStore, type TokenOwner, type UsersStore } from './users.store.js';

forEachEngine('users store', (open) => {
  let opened: OpenedStore;
  let users: UsersStore;
  let appA: number;
  let appB: number;
  let role1: number;
  let role2: number;
  beforeAll(async () => {
    opened = await open();
    users = createUsersStore(opened.store);
    const tenant = await addTenant(opened.store, 'budi');
    appA = await addApp(opened.store, tenant, 'pabrik');
    appB = await addApp(opened.store, tenant, 'gudang');
    const roles = createRolesStore(opened.store);
    const info = (name: string) => ({ name, description: null, permissions: '{}', sysNavs: '[]', descendant: false });
    role1 = (await roles.create(appA, info('Operator'), [], 1))!;
    role2 = (await roles.create(appA, info('Teknisi'), [], 1))!;
  });
  afterAll(() => opened.close());

  const account = (appId: number, username: string, email: string, roleId: number | null) => ({
    appId,
    username,
    email,
    first: 'Sari',
    last: null,
    passHash: 'hash',
    roleId,
    createdAt: 3,
  });
  const idOf = async (r: { id: number } | { taken: string }) => {
    if (!('id' in r)) throw new Error(`taken: ${r.taken}`);
    return r.id;
  };

  it('adds accounts and refuses a username or email the application has, saying which', async () => {
    const a = await idOf(await users.create(account(appA, 'sari', 'sari@contoh.id', role1)));
    const b = await idOf(await users.create(account(appA, 'andi_1', 'andi@contoh.id', role1)));
    await idOf(await users.create(account(appA, 'tono', 'tono@contoh.id', null)));
    // another application has names of its own
    await idOf(await users.create(account(appB, 'sari', 'sari@contoh.id', null)));
    expect(b).toBeGreaterThan(a);
    expect(await users.create(account(appA, 'sari', 'baru@contoh.id', role1))).toEqual({ taken: 'username' });
    expect(await users.create(account(appA, 'baru', 'andi@contoh.id', role1))).toEqual({ taken: 'email' });
    expect((await users.list(appA)).map((r) => r.username)).toEqual(['sari', 'andi_1', 'tono']);
    expect((await users.list(appB)).map((r) => r.username)).toEqual(['sari']);
  });

  it('finds an account by id, by username, and who it is for the authenticator', async () => {
    const [sari] = await users.list(appA);
    expect(await users.byId(appA, sari!.id)).toEqual({
      id: sari!.id,
      ...account(appA, 'sari', 'sari@contoh.id', role1),
    });
    expect(await users.byId(appB, sari!.id)).toBeUndefined();
    expect(await users.byUsername(appA, 'sari')).toEqual(sari);
    expect(await users.byUsername(appA, 'SARI')).toBeUndefined();
    expect(await users.principal(sari!.id)).toEqual({ id: sari!.id, appId: appA, roleId: role1 });
    expect(await users.principal(-1)).toBeUndefined();
  });

  it('says whether another account has a username or email, a typed % or _ only as itself', async () => {
    const [sari, andi] = await users.list(appA);
    expect(await users.taken(appA, 'username', 'sari')).toBe(true);
    expect(await users.taken(appA, 'username', 'sari', sari!.id)).toBe(false);
    expect(await users.taken(appA, 'email', 'sari@contoh.id', andi!.id)).toBe(true);
    expect(await users.taken(appA, 'username', 'andi%')).toBe(false);
    expect(await users.taken(appA, 'username', 'andi__')).toBe(false);
    expect(await users.taken(appB, 'email', 'andi@contoh.id')).toBe(false);
  });

  it('counts the accounts holding each role, and says whether one holds it', async () => {
    expect([...(await users.roleCounts(appA))]).toEqual([[role1, 2]]);
    expect(await users.roleHeld(role1)).toBe(true);
    expect(await users.roleHeld(role2)).toBe(false);
    const [, andi] = await users.list(appA);
    await users.update(andi!.id, { roleId: role2, first: 'Andi', email: 'andi2@contoh.id' });
    expect(await users.byId(appA, andi!.id)).toMatchObject({ roleId: role2, first: 'Andi', email: 'andi2@contoh.id' });
    expect(new Map(await users.roleCounts(appA))).toEqual(
      new Map([
        [role1, 1],
        [role2, 1],
      ]),
    );
    expect(await users.roleCounts(appB)).toEqual(new Map());
  });

  const owner = (principalId: number, appId = appA, kind: 'tenant' | 'member' = 'member'): TokenOwner => ({
    kind,
    principalId,
    appId,
  });
  const token = (hash: string, family = 'f1') => ({
    tokenHash: hash,
    tokenSealed: `sealed-${hash}`,
    family,
    createdAt: 4,
  });

  it('issues one token per owner: a new one replaces it with what its family retired', async () => {
    const [sari] = await users.list(appA);
    expect(await users.sealedToken(owner(sari!.id))).toBeUndefined();
    await users.issueToken(owner(sari!.id), token('h1'));
    expect(await users.sealedToken(owner(sari!.id))).toBe('sealed-h1');
    const row = await users.tokenByHash('h1');
    expect(row).toMatchObject({ ...owner(sari!.id), tokenHash: 'h1', family: 'f1' });
    expect(await users.rotateToken(row!, { tokenHash: 'h2', tokenSealed: 'sealed-h2' }, 50, 0)).toBe(true);
    expect(await users.retiredByHash('h1')).toMatchObject({ ...owner(sari!.id), family: 'f1', retiredAt: 50 });
    await users.issueToken(owner(sari!.id), token('h3', 'f2'));
    expect(await users.tokenByHash('h2')).toBeUndefined();
    expect(await users.retiredByHash('h1')).toBeUndefined();
    expect(await users.sealedToken(owner(sari!.id))).toBe('sealed-h3');
    // the same principal in another application, or as the other kind, has a token of its own
    expect(await users.sealedToken(owner(sari!.id, appB))).toBeUndefined();
    expect(await users.sealedToken(owner(sari!.id, appA, 'tenant'))).toBeUndefined();
  });

  it('issues at once for one owner (two tabs pressing "Buat Ulang"): every issue succeeds, one token is left', async () => {
    const [, andi] = await users.list(appA);
    const hashes = Array.from({ length: 8 }, (_, i) => `race-${i}`);
    await Promise.all(hashes.map((h) => users.issueToken(owner(andi!.id), token(h, h))));
    const left = await users.sealedToken(owner(andi!.id));
    expect(hashes.map((h) => `sealed-${h}`)).toContain(left);
    const found = await Promise.all(hashes.map((h) => users.tokenByHash(h)));
    expect(found.filter(Boolean)).toHaveLength(1);
  });

  it('rotates a token once: the second exchange of it loses, and old retired tokens are forgotten', async () => {
    const [sari] = await users.list(appA);
    const row = (await users.tokenByHash('h3'))!;
    expect(await users.rotateToken(row, { tokenHash: 'h4', tokenSealed: 'sealed-h4' }, 100, 0)).toBe(true);
    expect(await users.rotateToken(row, { tokenHash: 'h5', tokenSealed: 'sealed-h5' }, 101, 0)).toBe(false);
    expect(await users.tokenByHash('h5')).toBeUndefined();
    expect(await users.retiredByHash('h5')).toBeUndefined();
    expect(await users.tokenByHash('h4')).toMatchObject({ id: row.id, family: 'f2', createdAt: 100 });
    const next = (await users.tokenByHash('h4'))!;
    expect(await users.rotateToken(next, { tokenHash: 'h6', tokenSealed: 'sealed-h6' }, 200, 150)).toBe(true);
    // h3 was retired at 100, before 150: forgotten; h4 just now: kept
    expect(await users.retiredByHash('h3')).toBeUndefined();
    expect(await users.retiredByHash('h4')).toMatchObject({ retiredAt: 200 });
    expect(await users.sealedToken(owner(sari!.id))).toBe('sealed-h6');
  });

  it("revokes the owner's token of a family only", async () => {
    const [sari] = await users.list(appA);
    await users.revokeFamily(owner(sari!.id), 'f1');
    expect(await users.tokenByHash('h6')).toBeDefined();
    await users.revokeFamily(owner(sari!.id, appB), 'f2');
    expect(await users.tokenByHash('h6')).toBeDefined();
    await users.revokeFamily(owner(sari!.id), 'f2');
    expect(await users.tokenByHash('h6')).toBeUndefined();
  });

  it("forgets a principal's tokens in every application, and removes an account with its tokens", async () => {
    const [sari, andi] = await users.list(appA);
    await users.issueToken(owner(sari!.id), token('s1'));
    await users.rotateToken((await users.tokenByHash('s1'))!, { tokenHash: 's2', tokenSealed: 'x' }, 300, 0);
    await users.issueToken(owner(sari!.id, appB), token('s3'));
    await users.issueToken(owner(sari!.id, appA, 'tenant'), token('t1'));
    await users.issueToken(owner(andi!.id), token('a1'));
    await users.forgetTokens('member', sari!.id);
    expect(await users.tokenByHash('s2')).toBeUndefined();
    expect(await users.tokenByHash('s3')).toBeUndefined();
    expect(await users.retiredByHash('s1')).toBeUndefined();
    expect(await users.tokenByHash('t1')).toBeDefined();
    expect(await users.tokenByHash('a1')).toBeDefined();
    await users.remove(andi!.id);
    expect(await users.byId(appA, andi!.id)).toBeUndefined();
    expect(await users.tokenByHash('a1')).toBeUndefined();
    expect(await users.tokenByHash('t1')).toBeDefined();
    expect((await users.list(appA)).map((r) => r.username)).toEqual(['sari', 'tono']);
  });
});
