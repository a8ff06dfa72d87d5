// The browser's session actors: one per principal (the tenant, each application domain), wired to the real calls.
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { contracts, T } from '@sentra/contracts';
import { api } from '../api/client.js';
import { failureMessage } from '../api/outcome.js';
import { isOk, type ApiResult, type Envelope } from '../api/request.js';
import { notices } from '../ui/snackbar/notices.js';
import { sessionMachine, type LoginOutcome, type LoginRequest } from './session.machine.js';
import { keysOf, principalKey, sessionStore, type Principal } from './storage.js';

type LoginAnswer = ApiResult<Envelope<{ id: number; token: string; name: string }>>;

/** Maps a sign-in answer to the spec's outcome and message (spec 01 section 8 "Sign-in"). */
export function loginOutcome(principal: Principal, r: LoginAnswer): LoginOutcome {
  if (isOk(r)) return { ok: true, session: { id: r.body.id, token: r.body.token, name: r.body.name } };
  if (principal.kind === 'member' && r.code === 401)
    return { ok: false, message: T.login.appNotRegistered, notRegistered: true };
  return {
    ok: false,
    message: failureMessage(r, { byCode: contracts.auth.tenantLogin.errors, fallback: T.login.failed }),
  };
}

async function signIn({ principal, username, password }: LoginRequest): Promise<LoginOutcome> {
  const def = principal.kind === 'tenant' ? contracts.auth.tenantLogin : contracts.auth.appLogin;
  const r = await api.call(
    def,
    { input: username, pass: password },
    {
      usingAuth: false,
      isTenant: principal.kind === 'tenant',
      domain: principal.kind === 'member' ? principal.domain : undefined,
    },
  );
  return loginOutcome(principal, r);
}

const liveMachine = sessionMachine.provide({
  actors: {
    login: fromPromise<LoginOutcome, LoginRequest>(({ input }) => signIn(input)),
    logout: fromPromise(async ({ input }) => {
      if (!input.session) return;
      const isTenant = input.principal.kind === 'tenant';
      const def = isTenant ? contracts.auth.tenantLogout : contracts.auth.appLogout;
      await api.call(
        def,
        {},
        {
          isTenant,
          domain: input.principal.kind === 'member' ? input.principal.domain : undefined,
          credentials: input.session,
          silent: true,
        },
      );
    }),
  },
});

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

const actors = new Map<string, SessionActor>();

export function sessionActor(principal: Principal): SessionActor {
  const key = principalKey(principal);
  let actor = actors.get(key);
  if (!actor) {
    const created = createActor(liveMachine, { input: { principal, store: sessionStore } });
    // one topic per principal's sign-in: "Selamat datang" replaces the failed attempt's "Username dan password tidak sesuai"
    created.on('notice', (e) => notices.push(e.level, e.message, `session:${key}`));
    created.start();
    actors.set(key, created);
    actor = created;
  }
  return actor;
}

// another tab signed in or out: every live machine re-reads its stored pair
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    for (const [key, actor] of actors) {
      const p: Principal =
        key === 'tenant' ? { kind: 'tenant' } : { kind: 'member', domain: key.slice('member:'.length) };
      const k = keysOf(p);
      if (e.key === null || e.key === k.id || e.key === k.token) actor.send({ type: 'SYNC' });
    }
  });
}
