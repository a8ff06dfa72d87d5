// Refresh tokens: one per (principal, application), shown on the Refresh Token page, replaced on regenerate (the
// previous one stops at once), and exchanged for a new session without the password.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { forbidden, unauthorized } from '../../platform/http/errors.js';
import type { AppScope, Caller } from '../../platform/http/mount.js';
import type { SecretBox } from '../credentials/secret-box.js';
import { tenants } from '../auth/auth.table.js';
import { accounts, refreshTokens } from './users.table.js';

export interface SessionIssuer {
  appByDomain(domain: string): AppScope | undefined;
  startSession(kind: 'tenant' | 'member', principalId: number): string;
}

export function createRefreshTokenService(db: Db, box: SecretBox, auth: SessionIssuer, opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;

  function ownerOf(caller: Caller) {
    // a credentials pair is no principal: it has no refresh token of its own
    if (caller.kind === 'tenant') return { kind: 'tenant' as const, principalId: caller.tenantId, appId: caller.app!.id };
    if (caller.kind === 'member' && caller.accountId !== undefined) return { kind: 'member' as const, principalId: caller.accountId, appId: caller.app!.id };
    throw forbidden();
  }

  function issue(owner: ReturnType<typeof ownerOf>): string {
    const token = newToken();
    db.transaction((tx) => {
      tx.delete(refreshTokens)
        .where(and(eq(refreshTokens.kind, owner.kind), eq(refreshTokens.principalId, owner.principalId), eq(refreshTokens.appId, owner.appId)))
        .run();
      tx.insert(refreshTokens).values({ ...owner, tokenHash: hashToken(token), tokenSealed: box.seal(token), createdAt: now() }).run();
    }, { behavior: 'immediate' });
    return token;
  }

  /** The current token; the first read issues one, so the page always has a token to show. */
  function current(caller: Caller) {
    const owner = ownerOf(caller);
    const row = db
      .select({ sealed: refreshTokens.tokenSealed })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.kind, owner.kind), eq(refreshTokens.principalId, owner.principalId), eq(refreshTokens.appId, owner.appId)))
      .get();
    return { refresh_token: row ? box.open(row.sealed) : issue(owner) };
  }

  const regenerate = (caller: Caller) => ({ refresh_token: issue(ownerOf(caller)) });

  /** A session for the token's principal; 401 for a token unknown, replaced, or of another application. */
  function exchange(domain: string | undefined, token: string) {
    const app = domain ? auth.appByDomain(domain) : undefined;
    if (!app) throw unauthorized();
    const row = db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(token))).get();
    if (!row || row.appId !== app.id) throw unauthorized();
    if (row.kind === 'member') {
      const account = db.select({ id: accounts.id, appId: accounts.appId, first: accounts.first }).from(accounts).where(eq(accounts.id, row.principalId)).get();
      if (!account || account.appId !== app.id) throw unauthorized();
      return { id: account.id, token: auth.startSession('member', account.id), name: account.first, is_tenant: false };
    }
    const tenant = db.select({ id: tenants.id, first: tenants.first }).from(tenants).where(eq(tenants.id, row.principalId)).get();
    if (!tenant || app.tenantId !== tenant.id) throw unauthorized();
    return { id: tenant.id, token: auth.startSession('tenant', tenant.id), name: tenant.first, is_tenant: true };
  }

  return { current, regenerate, exchange };
}

export type RefreshTokenService = ReturnType<typeof createRefreshTokenService>;
