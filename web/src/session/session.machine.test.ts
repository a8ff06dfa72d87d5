import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { T } from '@sentra/contracts';
import { sessionMachine, type LoginOutcome, type LoginRequest, type SessionNotice } from './session.machine.js';
import { createSessionStore, memoryStorage, TENANT_ID_KEY, TENANT_TOKEN_KEY, type Principal } from './storage.js';

const tenant: Principal = { kind: 'tenant' };

function start(
  opts: {
    storage?: Storage;
    principal?: Principal;
    login?: (r: LoginRequest) => Promise<LoginOutcome>;
    logout?: (input: unknown) => Promise<void>;
  } = {},
) {
  const storage = opts.storage ?? memoryStorage();
  const store = createSessionStore(storage);
  const login = vi.fn(
    opts.login ?? (async () => ({ ok: true, session: { id: 5, token: 'tok', name: 'Budi' } }) as LoginOutcome),
  );
  const logout = vi.fn(opts.logout ?? (async (_input: unknown) => undefined));
  const machine = sessionMachine.provide({
    actors: {
      login: fromPromise<LoginOutcome, LoginRequest>(({ input }) => login(input)),
      logout: fromPromise(async ({ input }) => logout(input)),
    },
  });
  const actor = createActor(machine, { input: { principal: opts.principal ?? tenant, store } });
  const notices: SessionNotice[] = [];
  actor.on('notice', (e) => notices.push(e));
  actor.start();
  return { actor, storage, store, login, logout, notices };
}

describe('session machine', () => {
  it('starts idle without a stored session', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('restores a stored tenant session as authenticated', () => {
    const storage = memoryStorage();
    storage.setItem(TENANT_ID_KEY, '9');
    storage.setItem(TENANT_TOKEN_KEY, 'abc');
    const { actor } = start({ storage });
    expect(actor.getSnapshot().value).toBe('authenticated');
    expect(actor.getSnapshot().context.session).toMatchObject({ id: 9, token: 'abc' });
  });

  it('clears an incomplete id/token pair and starts idle', () => {
    const storage = memoryStorage();
    storage.setItem(TENANT_ID_KEY, '9');
    const { actor } = start({ storage });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(storage.getItem(TENANT_ID_KEY)).toBeNull();
  });

  it('idle → submitting → authenticated: stores the session and welcomes by name', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { actor, storage, login, notices } = start({
      login: async () => {
        await gate;
        return { ok: true, session: { id: 5, token: 'tok', name: 'Budi' } };
      },
    });
    actor.send({ type: 'SUBMIT', username: 'budi', password: 'rahasia' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(login).toHaveBeenCalledWith({ principal: tenant, username: 'budi', password: 'rahasia' });
    release();
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(storage.getItem(TENANT_ID_KEY)).toBe('5');
    expect(storage.getItem(TENANT_TOKEN_KEY)).toBe('tok');
    expect(notices).toEqual([{ type: 'notice', level: 'success', message: T.login.welcome('Budi') }]);
  });

  it('submitting → failure with the message, then the form is enabled again (failure → idle)', async () => {
    const { actor, storage, notices } = start({ login: async () => ({ ok: false, message: T.login.wrongPassword }) });
    actor.send({ type: 'SUBMIT', username: 'budi', password: 'salah' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(actor.getSnapshot().context.error).toBe(T.login.wrongPassword);
    expect(notices.at(-1)).toMatchObject({ level: 'error', message: T.login.wrongPassword });
    expect(storage.getItem(TENANT_ID_KEY)).toBeNull();
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('allows a new attempt straight from failure', async () => {
    let attempt = 0;
    const { actor } = start({
      login: async () =>
        ++attempt === 1
          ? { ok: false, message: T.login.unknownUsername }
          : { ok: true, session: { id: 1, token: 't', name: 'A' } },
    });
    actor.send({ type: 'SUBMIT', username: 'x', password: 'y' });
    await waitFor(actor, (s) => s.matches('failure'));
    actor.send({ type: 'SUBMIT', username: 'x', password: 'z' });
    await waitFor(actor, (s) => s.matches('authenticated'));
  });

  it("marks an application sign-in 401 as 'not registered' with a warning", async () => {
    const { actor, notices } = start({
      principal: { kind: 'member', domain: 'kebun' },
      login: async () => ({ ok: false, message: T.login.appNotRegistered, notRegistered: true }),
    });
    actor.send({ type: 'SUBMIT', username: 'x', password: 'y' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(actor.getSnapshot().context.notRegistered).toBe(true);
    expect(notices.at(-1)).toMatchObject({ level: 'warning', message: T.login.appNotRegistered });
  });

  it("treats a crashing login actor as 'Login gagal'", async () => {
    const { actor } = start({ login: async () => Promise.reject(new Error('boom')) });
    actor.send({ type: 'SUBMIT', username: 'x', password: 'y' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(actor.getSnapshot().context.error).toBe(T.login.failed);
  });

  it('logout clears the stored session at once and calls the logout actor with the old credentials', async () => {
    const storage = memoryStorage();
    storage.setItem(TENANT_ID_KEY, '9');
    storage.setItem(TENANT_TOKEN_KEY, 'abc');
    const { actor, logout } = start({ storage });
    actor.send({ type: 'LOGOUT' });
    expect(storage.getItem(TENANT_TOKEN_KEY)).toBeNull();
    await waitFor(actor, (s) => s.matches('idle'));
    expect(logout).toHaveBeenCalledWith({ principal: tenant, session: { id: 9, token: 'abc', name: undefined } });
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.loggedOut).toBe(true);
  });

  it('still signs out locally when the logout call fails', async () => {
    const storage = memoryStorage();
    storage.setItem(TENANT_ID_KEY, '9');
    storage.setItem(TENANT_TOKEN_KEY, 'abc');
    const { actor } = start({ storage, logout: async () => Promise.reject(new Error('offline')) });
    actor.send({ type: 'LOGOUT' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(storage.getItem(TENANT_ID_KEY)).toBeNull();
  });

  it('authenticated → expired on a global 401: the session is cleared', () => {
    const storage = memoryStorage();
    storage.setItem(TENANT_ID_KEY, '9');
    storage.setItem(TENANT_TOKEN_KEY, 'abc');
    const { actor } = start({ storage });
    actor.send({ type: 'EXPIRED' });
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(storage.getItem(TENANT_ID_KEY)).toBeNull();
  });

  it('a session the server ended (idle time-out, lifetime, password reset: a 401) signs in again cleanly from expired', async () => {
    const storage = memoryStorage();
    storage.setItem(TENANT_ID_KEY, '9');
    storage.setItem(TENANT_TOKEN_KEY, 'lama');
    const { actor, notices } = start({
      storage,
      login: async () => ({ ok: true, session: { id: 9, token: 'baru', name: 'Budi' } }),
    });
    actor.send({ type: 'EXPIRED' });
    // no error is shown for an ended session: the sign-in form is simply there
    expect(notices).toEqual([]);
    actor.send({ type: 'SUBMIT', username: 'budi', password: 'rahasia123' });
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(storage.getItem(TENANT_TOKEN_KEY)).toBe('baru');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('shows the throttle message of a refused sign-in and lets the user try again later', async () => {
    const message = T.common.tooManyAttempts(60);
    const { actor, notices } = start({ login: async () => ({ ok: false, message }) });
    actor.send({ type: 'SUBMIT', username: 'budi', password: 'salah' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(notices).toEqual([{ type: 'notice', level: 'error', message }]);
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('follows a session stored or removed by another tab (SYNC)', () => {
    const { actor, store } = start();
    store.write(tenant, { id: 3, token: 'x' });
    actor.send({ type: 'SYNC' });
    expect(actor.getSnapshot().value).toBe('authenticated');
    store.clear(tenant);
    actor.send({ type: 'SYNC' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('keeps application-user sessions per domain', async () => {
    const storage = memoryStorage();
    const a = start({ storage, principal: { kind: 'member', domain: 'kebun' } });
    a.actor.send({ type: 'SUBMIT', username: 'op', password: 'x' });
    await waitFor(a.actor, (s) => s.matches('authenticated'));
    const store = createSessionStore(storage);
    expect(store.read({ kind: 'member', domain: 'kebun' })).toMatchObject({ id: 5, token: 'tok' });
    expect(store.read({ kind: 'member', domain: 'pabrik' })).toBeNull();
    expect(store.read(tenant)).toBeNull();
  });
});
