// The sign-in session of one principal (the tenant, or an application user of one domain) as a state machine:
// idle → submitting → authenticated | failure → idle; authenticated → loggingOut → idle; authenticated → expired.
// The API calls are the named actors `login` and `logout`; the browser wires real ones, tests `.provide()` fakes.
import { assign, emit, fromPromise, setup } from 'xstate';
import { T } from '@sentra/contracts';
import type { Principal, SessionStore, StoredSession } from './storage.js';

export type LoginOutcome =
  { ok: true; session: StoredSession } | { ok: false; message: string; notRegistered?: boolean };

export interface LoginRequest {
  principal: Principal;
  username: string;
  password: string;
}

export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';
export type SessionNotice = { type: 'notice'; level: NoticeLevel; message: string };

export interface SessionContext {
  principal: Principal;
  store: SessionStore;
  session: StoredSession | null;
  /** the message of the last failed sign-in */
  error: string | null;
  /** the application sign-in answered 401: its domain is not registered on the platform */
  notRegistered: boolean;
  /** the principal signed out on purpose (guards then go to the sign-in without redirectURL) */
  loggedOut: boolean;
}

export type SessionEvent =
  | { type: 'SUBMIT'; username: string; password: string }
  /** the sign-in form has shown the last outcome (failure message, logout) */
  | { type: 'DISMISS' }
  | { type: 'LOGOUT' }
  /** a call answered 401: the stored session is no longer valid */
  | { type: 'EXPIRED' }
  /** the stored session changed outside this machine (another tab) */
  | { type: 'SYNC' };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as { principal: Principal; store: SessionStore },
    events: {} as SessionEvent,
    emitted: {} as SessionNotice,
  },
  actors: {
    login: fromPromise<LoginOutcome, LoginRequest>(async () => {
      throw new Error('the login actor is provided by the application');
    }),
    logout: fromPromise<void, { principal: Principal; session: StoredSession | null }>(async () => undefined),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
  },
  actions: {
    reload: assign({ session: ({ context }) => context.store.read(context.principal) }),
    clearStored: ({ context }) => context.store.clear(context.principal),
    dropSession: assign({ session: null }),
    resetFailure: assign({ error: null, notRegistered: false }),
    forgetLogout: assign({ loggedOut: false }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    principal: input.principal,
    store: input.store,
    session: input.store.read(input.principal),
    error: null,
    notRegistered: false,
    loggedOut: false,
  }),
  initial: 'restoring',
  on: {
    SYNC: { target: '.restoring', actions: 'reload' },
    // a sign-in form is showing: the previous outcome is read
    DISMISS: { actions: ['resetFailure', 'forgetLogout'] },
  },
  states: {
    restoring: {
      always: [{ guard: 'hasSession', target: 'authenticated' }, { target: 'idle' }],
    },
    idle: {
      on: { SUBMIT: 'submitting' },
    },
    submitting: {
      entry: ['resetFailure', assign({ loggedOut: false })],
      invoke: {
        src: 'login',
        input: ({ context, event }) => {
          const e = event as Extract<SessionEvent, { type: 'SUBMIT' }>;
          return { principal: context.principal, username: e.username, password: e.password };
        },
        onDone: [
          {
            guard: ({ event }) => event.output.ok,
            target: 'authenticated',
            actions: [
              assign({ session: ({ event }) => (event.output.ok ? event.output.session : null) }),
              ({ context }) => context.session && context.store.write(context.principal, context.session),
              emit(
                ({ context }) =>
                  ({
                    type: 'notice',
                    level: 'success',
                    message: T.login.welcome(context.session?.name ?? ''),
                  }) as SessionNotice,
              ),
            ],
          },
          {
            target: 'failure',
            actions: assign({
              error: ({ event }) => (event.output.ok ? null : event.output.message),
              notRegistered: ({ event }) => (!event.output.ok && event.output.notRegistered) === true,
            }),
          },
        ],
        onError: { target: 'failure', actions: assign({ error: T.login.failed }) },
      },
    },
    failure: {
      entry: emit(
        ({ context }) =>
          ({
            type: 'notice',
            level: context.notRegistered ? 'warning' : 'error',
            message: context.error ?? T.login.failed,
          }) as SessionNotice,
      ),
      on: { SUBMIT: 'submitting', DISMISS: { target: 'idle', actions: ['resetFailure', 'forgetLogout'] } },
    },
    authenticated: {
      on: { LOGOUT: 'loggingOut', EXPIRED: 'expired' },
    },
    loggingOut: {
      // storage is cleared at once so no later call uses the session; the server is told with the old credentials
      entry: ['clearStored', assign({ loggedOut: true })],
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ principal: context.principal, session: context.session }),
        onDone: { target: 'idle', actions: 'dropSession' },
        onError: { target: 'idle', actions: 'dropSession' },
      },
    },
    expired: {
      entry: ['clearStored', 'dropSession'],
      on: { SUBMIT: 'submitting' },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
