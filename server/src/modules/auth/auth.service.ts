// Sign-in, registration, sessions and the authenticator every mounted call goes through.
import type { Request } from 'express';
import { Header, T, type CallDef } from '@sentra/contracts';
import { hashPassword, hashToken, newToken, verifyPassword } from '../../platform/crypto.js';
import {
  ApiError,
  billingExpired,
  fail,
  forbidden,
  invalid,
  notFound,
  unauthorized,
} from '../../platform/http/errors.js';
import type { AppScope, Caller } from '../../platform/http/mount.js';
import type { AuthStore } from './auth.store.js';
import type { SignInThrottle } from './throttle.js';
import { createAccessChanges, type AccessChanges } from './access-changes.js';
import { createBillingCache } from './billing-cache.js';
import { createCallerCache } from './caller-cache.js';
import type { AppsStore } from '../apps/apps.store.js';
import type { UsersStore } from '../users/users.store.js';

/** What a member's role grants; the roles domain provides it, none by default. */
export type GrantsOf = (roleId: number | null, appId: number) => Promise<Caller['grants']> | Caller['grants'];

/** What the authenticator asks the other domains: the application a call names, the account a member signs in as. */
export interface AuthDomains {
  apps: Pick<AppsStore, 'scopeByDomain' | 'scopeById'>;
  users: Pick<UsersStore, 'principal' | 'byUsername' | 'forgetTokens'>;
}

/** Reads one request header (HTTP request, or a socket.io handshake's `auth` mapped to header names). */
export type HeaderReader = (name: string) => string | undefined;

/**
 * Extra ways to authenticate a request (API credentials); returns null when the request does not use it. Its answer
 * is cached like a session's, so it may depend on the headers, the audience and the application only.
 */
export type ExtraAuthenticator = (
  header: HeaderReader,
  def: Pick<CallDef, 'audience'>,
  app: AppScope | null,
) => Promise<Caller | null> | Caller | null;

const DEFAULT_BILLING_DAYS = 365;
/** how often a session's last_seen_at is written (its idle time-out is counted from it) */
const TOUCH_MS = 60_000;
/** how often sessions past their lifetime are deleted */
const PRUNE_MS = 60_000;

export interface SessionLimits {
  /** ms a session may go unused */
  idleMs: number;
  /** ms a session lives after its sign-in */
  maxAgeMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 12 * 3_600_000, maxAgeMs: 7 * 86_400_000 };

export interface AuthServiceOptions {
  grantsOf?: GrantsOf;
  extraAuthenticators?: ExtraAuthenticator[];
  /** where writes of access data are announced; the caller cache drops its entries on each */
  changes?: AccessChanges;
  sessionLimits?: SessionLimits;
  /** sign-in and registration throttling; none when absent (unit tests) */
  throttle?: SignInThrottle;
  now?: () => number;
}

/** The headers that carry credentials: a call with none of them is unauthenticated (401). */
const CREDENTIAL_HEADERS = [
  Header.tenantId,
  Header.tenantToken,
  Header.accountId,
  Header.accountToken,
  Header.credentialsId,
  Header.credentialsSecret,
];

export function createAuthService(store: AuthStore, domains: AuthDomains, opts: AuthServiceOptions = {}) {
  const now = opts.now ?? Date.now;
  const grantsOf: GrantsOf = opts.grantsOf ?? (() => ({ navs: new Set(), permissions: {} }));
  const extra = opts.extraAuthenticators ?? [];
  const changes = opts.changes ?? createAccessChanges();
  const callers = createCallerCache(changes, { now });
  const limits = opts.sessionLimits ?? DEFAULT_SESSION_LIMITS;
  const throttle = opts.throttle;
  // an unknown username costs the same scrypt run as a wrong password: timing does not tell which it was
  const dummyHash = hashPassword(newToken(16));
  let prunedAt = 0;

  const { apps, users } = domains;

  function appByDomain(domain: string): Promise<AppScope | undefined> {
    return apps.scopeByDomain(domain);
  }

  /** Opens a session; `refreshFamily` when a refresh token exchange opened it (a replay of that chain ends it). */
  async function startSession(kind: 'tenant' | 'member', principalId: number, refreshFamily?: string): Promise<string> {
    const token = newToken();
    const at = now();
    await pruneSessions(at);
    await store.addSession({
      tokenHash: hashToken(token),
      kind,
      principalId,
      createdAt: at,
      lastSeenAt: at,
      refreshFamily: refreshFamily ?? null,
    });
    return token;
  }

  /** Deletes sessions past their idle time-out or lifetime (at most once a minute; an expired one is refused anyway). */
  async function pruneSessions(at: number) {
    if (at - prunedAt < PRUNE_MS) return;
    prunedAt = at;
    await store.pruneSessions(at - limits.maxAgeMs, at - limits.idleMs);
  }

  const expired = (row: { createdAt: number; lastSeenAt: number }, at: number) =>
    at - row.createdAt >= limits.maxAgeMs || at - row.lastSeenAt >= limits.idleMs;

  async function sessionOf(kind: 'tenant' | 'member', idHeader: string | undefined, token: string | undefined) {
    const principalId = Number(idHeader);
    if (!token || !Number.isSafeInteger(principalId)) return undefined;
    const tokenHash = hashToken(token);
    const row = await store.session(tokenHash);
    if (!row || row.kind !== kind || row.principalId !== principalId) return undefined;
    const at = now();
    if (expired(row, at)) {
      await store.endSession(tokenHash);
      return undefined;
    }
    // the caller cache answers repeated calls for a few seconds: the idle clock is precise to a minute, not a call
    if (at - row.lastSeenAt >= TOUCH_MS) await store.touchSession(tokenHash, at);
    return { principalId, tokenHash };
  }

  // billing is the one fact checked on every call, cached caller or not: the date is set outside these calls (the
  // subscription), kept a second (billing-cache.ts) and compared with the clock each time
  const billingOf = createBillingCache((tenantId) => store.billingOf(tenantId), changes, { now });

  /**
   * Resolves and checks the caller of `def`: 401 wrong/missing credentials, 402 billing, 404 foreign application.
   * Synchronous (an answer or a throw) when the caller and its tenant's billing date are in memory: a cached call
   * pays no promise.
   */
  function authenticate(req: Request, def: CallDef): Caller | null | Promise<Caller | null> {
    // the credential headers' names are lower case, as node keeps them (req.get would lower-case each again)
    const headers = req.headers;
    return resolve((name) => (headers[name] as string | undefined) || undefined, def);
  }

  /**
   * The same check from any header source (socket.io handshakes use it). A caller resolved before is answered from
   * the cache (its billing date still checked now); refusals are never cached.
   */
  async function resolveCaller(header: HeaderReader, def: Pick<CallDef, 'audience'>): Promise<Caller | null> {
    return resolve(header, def);
  }

  function resolve(header: HeaderReader, def: Pick<CallDef, 'audience'>): Caller | null | Promise<Caller | null> {
    if (def.audience === 'public') return null;
    const key = callerKey(header, def.audience);
    const known = callers.get(key);
    if (!known) return resolveAndKeep(header, def, key);
    const billing = billingOf(known.tenantId);
    if (typeof billing !== 'number') return billing.then((date) => billingChecked(known, date));
    return billingChecked(known, billing);
  }

  function billingChecked(known: Caller, billing: number): Caller {
    if (billing < now()) throw billingExpired(known.kind === 'tenant');
    return known;
  }

  async function resolveAndKeep(header: HeaderReader, def: Pick<CallDef, 'audience'>, key: string): Promise<Caller> {
    const generation = changes.access;
    const caller = await resolveFresh(header, def);
    // an access change while the reads were awaited (a logout, a new role) may have made this answer stale: it
    // answers this call, as it would have a moment earlier, but is not kept for the next ones
    if (changes.access === generation) callers.set(key, caller);
    return caller;
  }

  /**
   * Everything the answer depends on: the audience and every credential header as presented. Kept in memory only
   * with a caller that authenticated (refusals are not cached), for seconds (caller-cache.ts): no hash per call.
   */
  function callerKey(header: HeaderReader, audience: string): string {
    return JSON.stringify([
      audience,
      header(Header.appDomain) ?? '',
      header(Header.tenantId) ?? '',
      header(Header.tenantToken) ?? '',
      header(Header.accountId) ?? '',
      header(Header.accountToken) ?? '',
      header(Header.credentialsId) ?? '',
      header(Header.credentialsSecret) ?? '',
    ]);
  }

  async function resolveFresh(header: HeaderReader, def: Pick<CallDef, 'audience'>): Promise<Caller> {
    // no credentials at all is a 401 before anything else is checked (a missing x-app-domain included)
    if (!CREDENTIAL_HEADERS.some((name) => header(name))) throw unauthorized();
    const domain = header(Header.appDomain) || undefined;
    const wantsApp = def.audience === 'member' || (def.audience === 'session' && domain !== undefined);
    if (def.audience === 'member' && !domain) throw invalid(`Header ${Header.appDomain} wajib diisi`);
    const app = wantsApp && domain ? await appByDomain(domain) : undefined;

    const tenantSession = await sessionOf('tenant', header(Header.tenantId), header(Header.tenantToken));
    if (tenantSession) {
      const tenantId = tenantSession.principalId;
      if ((await billingOf(tenantId)) < now()) throw billingExpired(true);
      if (wantsApp && (!app || app.tenantId !== tenantId)) throw notFound();
      return { kind: 'tenant', tenantId, app, sessionHash: tenantSession.tokenHash };
    }
    if (header(Header.tenantId) || header(Header.tenantToken)) throw unauthorized();

    const memberSession = await sessionOf('member', header(Header.accountId), header(Header.accountToken));
    if (memberSession) {
      const account = await users.principal(memberSession.principalId);
      if (!account) throw unauthorized();
      if (wantsApp && !app) throw notFound();
      if (app && app.id !== account.appId) throw unauthorized();
      const scope = app ?? (await apps.scopeById(account.appId));
      if (!scope) throw unauthorized();
      if (def.audience === 'tenant') throw forbidden();
      if ((await billingOf(scope.tenantId)) < now()) throw billingExpired(false);
      return {
        kind: 'member',
        tenantId: scope.tenantId,
        accountId: account.id,
        app: scope,
        grants: await grantsOf(account.roleId, scope.id),
        sessionHash: memberSession.tokenHash,
      };
    }
    if (header(Header.accountId) || header(Header.accountToken)) throw unauthorized();

    for (const authenticator of extra) {
      const caller = await authenticator(header, def, app ?? null);
      if (caller) {
        if (def.audience === 'tenant') throw forbidden();
        if ((await billingOf(caller.tenantId)) < now()) throw billingExpired(false);
        return caller;
      }
    }
    throw unauthorized();
  }

  async function register(
    input: { username: string; first: string; last?: string; email: string; pass: string; tenant_name: string },
    address = '',
  ) {
    await throttle?.register(address);
    if (await store.tenantTaken('username', input.username)) throw fail(-4, T.registration.usernameTaken);
    if (await store.tenantTaken('email', input.email)) throw fail(-5, T.registration.emailTaken);
    const passHash = await hashPassword(input.pass);
    const row = await store.createTenant({
      username: input.username,
      first: input.first,
      last: input.last || null,
      email: input.email,
      passHash,
      tenantName: input.tenant_name,
      billingExpiresAt: now() + DEFAULT_BILLING_DAYS * 86_400_000,
      createdAt: now(),
    });
    // two registrations racing for the same name: the unique index decides
    if ('taken' in row)
      throw row.taken === 'username' ? fail(-4, T.registration.usernameTaken) : fail(-5, T.registration.emailTaken);
    return { id: row.id };
  }

  /**
   * The password check of every sign-in: throttled per account name and address, and as slow for an unknown name as
   * for a wrong password (the spec's -1 and -2 stay distinct answers; see docs/decisions/security-access.md).
   */
  async function checkPassword(
    accountKey: string,
    address: string,
    passHash: string | undefined,
    pass: string,
  ): Promise<void> {
    const known = passHash !== undefined;
    await throttle?.attempt(accountKey, address, known);
    const ok = await verifyPassword(pass, passHash ?? (await dummyHash));
    if (!passHash || !ok) {
      await throttle?.failed(accountKey, address, known);
      throw passHash ? fail(-2, T.login.wrongPassword) : fail(-1, T.login.unknownUsername);
    }
    await throttle?.succeeded(accountKey, address);
  }

  async function tenantLogin(input: { input: string; pass: string }, address = '') {
    const tenant = await store.tenantByUsername(input.input);
    await checkPassword(`tenant:${input.input}`, address, tenant?.passHash, input.pass);
    return { id: tenant!.id, token: await startSession('tenant', tenant!.id), name: tenant!.first };
  }

  async function appLogin(domain: string | undefined, input: { input: string; pass: string }, address = '') {
    const app = domain ? await appByDomain(domain) : undefined;
    if (!app) throw new ApiError(-14, T.login.appNotRegistered, 401);
    const account = await users.byUsername(app.id, input.input);
    await checkPassword(`member:${app.id}:${input.input}`, address, account?.passHash, input.pass);
    return { id: account!.id, token: await startSession('member', account!.id), name: account!.first };
  }

  async function logout(caller: Caller) {
    if (caller.sessionHash) await store.endSession(caller.sessionHash);
    changes.changed('access');
    return {};
  }

  /** Ends every session and refresh token of an application account (password change or reset, removal). */
  async function endMemberSessions(accountId: number) {
    await store.together(async () => {
      await store.endSessionsOf('member', accountId);
      await users.forgetTokens('member', accountId);
    });
    changes.changed('access');
  }

  /** Ends the sessions a refresh token family opened (a rotated token was presented again). */
  async function endFamilySessions(kind: 'tenant' | 'member', principalId: number, family: string) {
    await store.endSessionsOf(kind, principalId, family);
    changes.changed('access');
  }

  /** the tenant's name to greet them with (a refresh token exchange) */
  const tenantBrief = (id: number) => store.tenantBrief(id);

  return {
    authenticate,
    resolveCaller,
    register,
    tenantLogin,
    appLogin,
    logout,
    endMemberSessions,
    endFamilySessions,
    appByDomain,
    startSession,
    tenantBrief,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
