// The authenticator over the stores: a caller resolved while an access change happened answers its own call but is
// not kept for the next ones (the reads are awaited now, so a logout can land between them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Header } from '@sentra/contracts';
import { hashToken } from '../../platform/crypto.js';
import type { Request } from 'express';
import type { CallDef } from '@sentra/contracts';
import type { Caller } from '../../platform/http/mount.js';
import { openSqliteStore, type OpenedStore } from '../../testing/engines.js';
import { createAppsStore } from '../apps/apps.store.js';
import { createUsersStore } from '../users/users.store.js';
import { createAccessChanges } from './access-changes.js';
import { createAuthService } from './auth.service.js';
import { createAuthStore, type AuthStore } from './auth.store.js';

describe('the authenticator', () => {
  let opened: OpenedStore;
  beforeAll(async () => void (opened = await openSqliteStore()));
  afterAll(() => opened.close());

  it('does not keep a caller resolved across an access change', async () => {
    const store = createAuthStore(opened.store);
    let gate: Promise<void> | undefined;
    let reached!: () => void;
    const sessionRead = new Promise<void>((r) => (reached = r));
    const held: AuthStore = {
      ...store,
      session: async (h) => {
        const row = await store.session(h);
        reached();
        await gate;
        return row;
      },
    };
    const auth = createAuthService(
      held,
      { apps: createAppsStore(opened.store), users: createUsersStore(opened.store) },
      { changes: createAccessChanges() },
    );
    await auth.register({
      username: 'budi',
      first: 'Budi',
      email: 'budi@contoh.id',
      pass: 'rahasia1',
      tenant_name: 'PT',
    });
    const { id, token } = await auth.tenantLogin({ input: 'budi', pass: 'rahasia1' });
    const headers: Record<string, string> = { [Header.tenantId]: String(id), [Header.tenantToken]: token };
    const resolve = () => auth.resolveCaller((name) => headers[name], { audience: 'tenant' });

    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    const during = resolve();
    await sessionRead;
    await auth.logout({ kind: 'tenant', tenantId: id, sessionHash: hashToken(token) } as Caller);
    open();
    gate = undefined;
    expect(await during).toMatchObject({ kind: 'tenant', tenantId: id });
    await expect(resolve()).rejects.toMatchObject({ status: 401 });
  });

  it('answers a kept caller synchronously, its billing date still checked, and a changed token is not that caller', async () => {
    const store = createAuthStore(opened.store);
    let clock = Date.now();
    /** the tenant's billing date as the subscription sets it (undefined: as registered) */
    let billing: number | undefined;
    const changes = createAccessChanges();
    const auth = createAuthService(
      { ...store, billingOf: async (t) => billing ?? store.billingOf(t) },
      { apps: createAppsStore(opened.store), users: createUsersStore(opened.store) },
      { changes, now: () => clock },
    );
    await auth.register({
      username: 'sari',
      first: 'Sari',
      email: 'sari@contoh.id',
      pass: 'rahasia1',
      tenant_name: 'CV',
    });
    const { id, token } = await auth.tenantLogin({ input: 'sari', pass: 'rahasia1' });
    const request = (t: string) =>
      ({ headers: { [Header.tenantId]: String(id), [Header.tenantToken]: t } }) as unknown as Request;
    const def = { audience: 'tenant' } as CallDef;
    const first = auth.authenticate(request(token), def);
    expect(first).toBeInstanceOf(Promise);
    const caller = await first;
    expect(auth.authenticate(request(token), def)).toBe(caller);
    // another token of the same tenant is not the kept caller: resolved (and refused) afresh
    await expect(auth.authenticate(request(token.slice(1)), def)).rejects.toMatchObject({ status: 401 });
    // a billing date that runs out refuses the kept caller at once; an access change drops it
    billing = clock + 500;
    clock += 1001;
    await expect(auth.authenticate(request(token), def)).rejects.toMatchObject({ status: 402 });
    expect(() => auth.authenticate(request(token), def)).toThrow(expect.objectContaining({ status: 402 }));
    billing = undefined;
    changes.changed('access');
    const again = auth.authenticate(request(token), def);
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toMatchObject({ kind: 'tenant', tenantId: id });
  });
});
