// The auth store on both engines: tenants with their unique username and email, the billing date, and sessions
// found, touched, ended one by one, by principal, by refresh family, and pruned by age.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createAuthStore, type AuthStore, type SessionRow } from './auth.store.js';

forEachEngine('auth store', (open) => {
  let opened: OpenedStore;
  let auth: AuthStore;
  beforeAll(async () => {
    opened = await open();
    auth = createAuthStore(opened.store);
  });
  afterAll(() => opened.close());

  const tenant = (username: string, email: string) => ({
    username,
    first: 'Budi',
    last: null,
    email,
    passHash: 'hash',
    tenantName: 'PT Contoh',
    billingExpiresAt: 1_900_000_000_000,
    createdAt: 5,
  });

  it('registers tenants and refuses a username or an email taken, saying which', async () => {
    const a = await auth.createTenant(tenant('budi', 'budi@contoh.id'));
    const b = await auth.createTenant(tenant('sari_1', 'sari@contoh.id'));
    expect(a).toEqual({ id: expect.any(Number) });
    expect(b).toEqual({ id: expect.any(Number) });
    expect(await auth.createTenant(tenant('budi', 'lain@contoh.id'))).toEqual({ taken: 'username' });
    expect(await auth.createTenant(tenant('lain', 'sari@contoh.id'))).toEqual({ taken: 'email' });
    expect(await auth.tenantTaken('username', 'budi')).toBe(true);
    expect(await auth.tenantTaken('username', 'sari%')).toBe(false);
    expect(await auth.tenantTaken('username', 'sari_')).toBe(false);
    expect(await auth.tenantTaken('email', 'sari@contoh.id')).toBe(true);
    expect(await auth.tenantTaken('email', 'lain@contoh.id')).toBe(false);
  });

  it('finds a tenant by username, greets it by name, and reads its billing date', async () => {
    const row = await auth.tenantByUsername('budi');
    expect(row).toMatchObject({ username: 'budi', email: 'budi@contoh.id', passHash: 'hash', last: null });
    expect(await auth.tenantByUsername('Budi')).toBeUndefined();
    expect(await auth.tenantBrief(row!.id)).toEqual({ id: row!.id, first: 'Budi' });
    expect(await auth.tenantBrief(-1)).toBeUndefined();
    expect(await auth.billingOf(row!.id)).toBe(1_900_000_000_000);
    expect(await auth.billingOf(-1)).toBe(0);
  });

  const session = (tokenHash: string, over: Partial<SessionRow> = {}): SessionRow => ({
    tokenHash,
    kind: 'tenant',
    principalId: 1,
    createdAt: 1000,
    lastSeenAt: 1000,
    refreshFamily: null,
    ...over,
  });
  const hashes = async (...of: string[]) => {
    const found: string[] = [];
    for (const h of of) if (await auth.session(h)) found.push(h);
    return found;
  };

  it('opens a session, touches it, and ends exactly it', async () => {
    await auth.addSession(session('s1'));
    await auth.addSession(session('s2'));
    expect(await auth.session('s1')).toEqual(session('s1'));
    await auth.touchSession('s1', 5000);
    expect((await auth.session('s1'))!.lastSeenAt).toBe(5000);
    expect((await auth.session('s2'))!.lastSeenAt).toBe(1000);
    await auth.endSession('s1');
    expect(await hashes('s1', 's2')).toEqual(['s2']);
    await auth.endSession('s2');
  });

  it("ends a principal's sessions, or only those of one refresh family, and no other kind's", async () => {
    await auth.addSession(session('m1', { kind: 'member', principalId: 3 }));
    await auth.addSession(session('m2', { kind: 'member', principalId: 3, refreshFamily: 'f1' }));
    await auth.addSession(session('m3', { kind: 'member', principalId: 3, refreshFamily: 'f2' }));
    await auth.addSession(session('t3', { kind: 'tenant', principalId: 3, refreshFamily: 'f1' }));
    await auth.addSession(session('m4', { kind: 'member', principalId: 4, refreshFamily: 'f1' }));
    await auth.endSessionsOf('member', 3, 'f1');
    expect(await hashes('m1', 'm2', 'm3', 't3', 'm4')).toEqual(['m1', 'm3', 't3', 'm4']);
    await auth.endSessionsOf('member', 3);
    expect(await hashes('m1', 'm3', 't3', 'm4')).toEqual(['t3', 'm4']);
  });

  it('prunes sessions opened too long ago or unused too long', async () => {
    await auth.addSession(session('old', { createdAt: 100, lastSeenAt: 900 }));
    await auth.addSession(session('idle', { createdAt: 600, lastSeenAt: 600 }));
    await auth.addSession(session('fresh', { createdAt: 600, lastSeenAt: 900 }));
    await auth.pruneSessions(500, 800);
    expect(await hashes('old', 'idle', 'fresh')).toEqual(['fresh']);
  });

  it('commits the writes made together, or none of them', async () => {
    await expect(
      auth.together(async () => {
        await auth.addSession(session('gone'));
        await auth.endSession('fresh');
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await hashes('gone', 'fresh')).toEqual(['fresh']);
    await auth.together(async () => {
      await auth.addSession(session('kept'));
      await auth.endSession('fresh');
    });
    expect(await hashes('kept', 'fresh')).toEqual(['kept']);
  });
});
