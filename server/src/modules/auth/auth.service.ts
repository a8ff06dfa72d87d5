// Sign-in, registration, sessions and the authenticator every mounted call goes through.
import type { Request } from 'express';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { Header, T, type CallDef } from '@sentra/contracts';
import type { Db } from '../../db.js';
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
import { sessions, tenants } from './auth.table.js';
import type { SignInThrottle } from './throttle.js';
import { createAccessChanges, type AccessChanges } from './access-changes.js';
import { createCallerCache } from './caller-cache.js';
import { applications } from '../apps/apps.table.js';
import { accounts, refreshTokens, retiredRefreshTokens } from '../users/users.table.js';

/** What a member's role grants; the roles domain provides it, none by default. */
export type GrantsOf = (roleId: number | null, appId: number) => Caller['grants'];

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
) => Caller | null;

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

export function createAuthService(db: Db, opts: AuthServiceOptions = {}) {
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

  // every authenticated request runs these: prepared once, not rebuilt per call
  const sessionByHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, sql.placeholder('h')))
    .prepare();
  // billing is the one fact read on every call, cached or not: it is set outside these calls (the subscription)
  const billingById = db
    .select({ b: tenants.billingExpiresAt })
    .from(tenants)
    .where(eq(tenants.id, sql.placeholder('id')))
    .prepare();
  const appScope = {
    id: applications.id,
    tenantId: applications.tenantId,
    domain: applications.domain,
    name: applications.name,
    timezone: applications.timezone,
  };
  const appScopeByDomain = db
    .select(appScope)
    .from(applications)
    .where(eq(applications.domain, sql.placeholder('d')))
    .prepare();
  const appScopeById = db
    .select(appScope)
    .from(applications)
    .where(eq(applications.id, sql.placeholder('id')))
    .prepare();
  const accountById = db
    .select({ id: accounts.id, appId: accounts.appId, roleId: accounts.roleId })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .prepare();

  function appByDomain(domain: string): AppScope | undefined {
    return appScopeByDomain.get({ d: domain });
  }

  /** Opens a session; `refreshFamily` when a refresh token exchange opened it (a replay of that chain ends it). */
  function startSession(kind: 'tenant' | 'member', principalId: number, refreshFamily?: string): string {
    const token = newToken();
    const at = now();
    pruneSessions(at);
    db.insert(sessions)
      .values({
        tokenHash: hashToken(token),
        kind,
        principalId,
        createdAt: at,
        lastSeenAt: at,
        refreshFamily: refreshFamily ?? null,
      })
      .run();
    return token;
  }

  /** Deletes sessions past their idle time-out or lifetime (at most once a minute; an expired one is refused anyway). */
  function pruneSessions(at: number) {
    if (at - prunedAt < PRUNE_MS) return;
    prunedAt = at;
    db.delete(sessions)
      .where(or(lt(sessions.createdAt, at - limits.maxAgeMs), lt(sessions.lastSeenAt, at - limits.idleMs)))
      .run();
  }

  const expired = (row: { createdAt: number; lastSeenAt: number }, at: number) =>
    at - row.createdAt >= limits.maxAgeMs || at - row.lastSeenAt >= limits.idleMs;

  function sessionOf(kind: 'tenant' | 'member', idHeader: string | undefined, token: string | undefined) {
    const principalId = Number(idHeader);
    if (!token || !Number.isSafeInteger(principalId)) return undefined;
    const tokenHash = hashToken(token);
    const row = sessionByHash.get({ h: tokenHash });
    if (!row || row.kind !== kind || row.principalId !== principalId) return undefined;
    const at = now();
    if (expired(row, at)) {
      db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
      return undefined;
    }
    // the caller cache answers repeated calls for a few seconds: the idle clock is precise to a minute, not a call
    if (at - row.lastSeenAt >= TOUCH_MS)
      db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.tokenHash, tokenHash)).run();
    return { principalId, tokenHash };
  }

  function billingOf(tenantId: number): number {
    return billingById.get({ id: tenantId })?.b ?? 0;
  }

  /** Resolves and checks the caller of `def`: 401 wrong/missing credentials, 402 billing, 404 foreign application. */
  function authenticate(req: Request, def: CallDef): Caller | null {
    return resolveCaller((name) => req.get(name) || undefined, def);
  }

  /**
   * The same check from any header source (socket.io handshakes use it). A caller resolved before is answered from
   * the cache (its billing still read now); refusals are never cached.
   */
  function resolveCaller(header: HeaderReader, def: Pick<CallDef, 'audience'>): Caller | null {
    if (def.audience === 'public') return null;
    const key = callerKey(header, def.audience);
    const known = callers.get(key);
    if (known) {
      if (billingOf(known.tenantId) < now()) throw billingExpired(known.kind === 'tenant');
      return known;
    }
    const caller = resolveFresh(header, def);
    callers.set(key, caller);
    return caller;
  }

  /** Everything the answer depends on: the audience and every credential header, secrets by their hash only. */
  function callerKey(header: HeaderReader, audience: string): string {
    const hashed = (name: string) => {
      const v = header(name);
      return v ? hashToken(v) : '';
    };
    return JSON.stringify([
      audience,
      header(Header.appDomain) ?? '',
      header(Header.tenantId) ?? '',
      hashed(Header.tenantToken),
      header(Header.accountId) ?? '',
      hashed(Header.accountToken),
      header(Header.credentialsId) ?? '',
      hashed(Header.credentialsSecret),
    ]);
  }

  function resolveFresh(header: HeaderReader, def: Pick<CallDef, 'audience'>): Caller {
    // no credentials at all is a 401 before anything else is checked (a missing x-app-domain included)
    if (!CREDENTIAL_HEADERS.some((name) => header(name))) throw unauthorized();
    const domain = header(Header.appDomain) || undefined;
    const wantsApp = def.audience === 'member' || (def.audience === 'session' && domain !== undefined);
    if (def.audience === 'member' && !domain) throw invalid(`Header ${Header.appDomain} wajib diisi`);
    const app = wantsApp && domain ? appByDomain(domain) : undefined;

    const tenantSession = sessionOf('tenant', header(Header.tenantId), header(Header.tenantToken));
    if (tenantSession) {
      const tenantId = tenantSession.principalId;
      if (billingOf(tenantId) < now()) throw billingExpired(true);
      if (wantsApp && (!app || app.tenantId !== tenantId)) throw notFound();
      return { kind: 'tenant', tenantId, app, sessionHash: tenantSession.tokenHash };
    }
    if (header(Header.tenantId) || header(Header.tenantToken)) throw unauthorized();

    const memberSession = sessionOf('member', header(Header.accountId), header(Header.accountToken));
    if (memberSession) {
      const account = accountById.get({ id: memberSession.principalId });
      if (!account) throw unauthorized();
      if (wantsApp && !app) throw notFound();
      if (app && app.id !== account.appId) throw unauthorized();
      const scope = app ?? appScopeById.get({ id: account.appId });
      if (!scope) throw unauthorized();
      if (def.audience === 'tenant') throw forbidden();
      if (billingOf(scope.tenantId) < now()) throw billingExpired(false);
      return {
        kind: 'member',
        tenantId: scope.tenantId,
        accountId: account.id,
        app: scope,
        grants: grantsOf(account.roleId, scope.id),
        sessionHash: memberSession.tokenHash,
      };
    }
    if (header(Header.accountId) || header(Header.accountToken)) throw unauthorized();

    for (const authenticator of extra) {
      const caller = authenticator(header, def, app ?? null);
      if (caller) {
        if (def.audience === 'tenant') throw forbidden();
        if (billingOf(caller.tenantId) < now()) throw billingExpired(false);
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
    if (db.select({ id: tenants.id }).from(tenants).where(eq(tenants.username, input.username)).get())
      throw fail(-4, T.registration.usernameTaken);
    if (db.select({ id: tenants.id }).from(tenants).where(eq(tenants.email, input.email)).get())
      throw fail(-5, T.registration.emailTaken);
    const passHash = await hashPassword(input.pass);
    try {
      const row = db
        .insert(tenants)
        .values({
          username: input.username,
          first: input.first,
          last: input.last || null,
          email: input.email,
          passHash,
          tenantName: input.tenant_name,
          billingExpiresAt: now() + DEFAULT_BILLING_DAYS * 86_400_000,
          createdAt: now(),
        })
        .returning({ id: tenants.id })
        .get();
      return { id: row.id };
    } catch (err) {
      // two registrations racing for the same name: the unique index decides
      if (String(err).includes('tenants.email')) throw fail(-5, T.registration.emailTaken);
      if (String(err).includes('UNIQUE')) throw fail(-4, T.registration.usernameTaken);
      throw err;
    }
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
    const tenant = db.select().from(tenants).where(eq(tenants.username, input.input)).get();
    await checkPassword(`tenant:${input.input}`, address, tenant?.passHash, input.pass);
    return { id: tenant!.id, token: startSession('tenant', tenant!.id), name: tenant!.first };
  }

  async function appLogin(domain: string | undefined, input: { input: string; pass: string }, address = '') {
    const app = domain ? appByDomain(domain) : undefined;
    if (!app) throw new ApiError(-14, T.login.appNotRegistered, 401);
    const account = db
      .select()
      .from(accounts)
      .where(and(eq(accounts.appId, app.id), eq(accounts.username, input.input)))
      .get();
    await checkPassword(`member:${app.id}:${input.input}`, address, account?.passHash, input.pass);
    return { id: account!.id, token: startSession('member', account!.id), name: account!.first };
  }

  function logout(caller: Caller) {
    if (caller.sessionHash) db.delete(sessions).where(eq(sessions.tokenHash, caller.sessionHash)).run();
    changes.changed('access');
    return {};
  }

  /** Ends every session and refresh token of an application account (password change or reset, removal). */
  function endMemberSessions(accountId: number) {
    db.transaction(
      (tx) => {
        tx.delete(sessions)
          .where(and(eq(sessions.kind, 'member'), eq(sessions.principalId, accountId)))
          .run();
        tx.delete(refreshTokens)
          .where(and(eq(refreshTokens.kind, 'member'), eq(refreshTokens.principalId, accountId)))
          .run();
        tx.delete(retiredRefreshTokens)
          .where(and(eq(retiredRefreshTokens.kind, 'member'), eq(retiredRefreshTokens.principalId, accountId)))
          .run();
      },
      { behavior: 'immediate' },
    );
    changes.changed('access');
  }

  /** Ends the sessions a refresh token family opened (a rotated token was presented again). */
  function endFamilySessions(kind: 'tenant' | 'member', principalId: number, family: string) {
    db.delete(sessions)
      .where(and(eq(sessions.kind, kind), eq(sessions.principalId, principalId), eq(sessions.refreshFamily, family)))
      .run();
    changes.changed('access');
  }

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
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
