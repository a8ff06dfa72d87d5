// Refresh tokens: one per (principal, application), shown on the Refresh Token page, replaced on regenerate (the
// previous one stops at once), and exchanged for a new session without the password. Every exchange rotates the
// token (the answer carries the next one); presenting a rotated token again is a replay: the family (this chain since
// the last regenerate) is revoked with the sessions it opened. A password change or reset deletes them all.
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { forbidden, unauthorized } from '../../platform/http/errors.js';
import type { AppScope, Caller } from '../../platform/http/mount.js';
import type { SecretBox } from '../credentials/secret-box.js';
import { tenants } from '../auth/auth.table.js';
import { accounts, refreshTokens, retiredRefreshTokens } from './users.table.js';

export interface SessionIssuer {
  appByDomain(domain: string): AppScope | undefined;
  startSession(kind: 'tenant' | 'member', principalId: number, refreshFamily?: string): string;
  endFamilySessions(kind: 'tenant' | 'member', principalId: number, family: string): void;
}

/** how long a rotated token is remembered for replay detection (after that it is simply unknown: 401) */
const RETIRED_KEEP_MS = 30 * 86_400_000;

export function createRefreshTokenService(
  db: Db,
  box: SecretBox,
  auth: SessionIssuer,
  opts: { now?: () => number } = {},
) {
  const now = opts.now ?? Date.now;

  function ownerOf(caller: Caller) {
    // a credentials pair is no principal: it has no refresh token of its own
    if (caller.kind === 'tenant')
      return { kind: 'tenant' as const, principalId: caller.tenantId, appId: caller.app!.id };
    if (caller.kind === 'member' && caller.accountId !== undefined)
      return { kind: 'member' as const, principalId: caller.accountId, appId: caller.app!.id };
    throw forbidden();
  }

  type Owner = ReturnType<typeof ownerOf>;
  const ownedBy = (owner: Owner) =>
    and(
      eq(refreshTokens.kind, owner.kind),
      eq(refreshTokens.principalId, owner.principalId),
      eq(refreshTokens.appId, owner.appId),
    );
  const retiredOf = (owner: Owner) =>
    and(
      eq(retiredRefreshTokens.kind, owner.kind),
      eq(retiredRefreshTokens.principalId, owner.principalId),
      eq(retiredRefreshTokens.appId, owner.appId),
    );

  /** A new token in a new family; the previous token, and what its family retired, are forgotten. */
  function issue(owner: Owner): string {
    const token = newToken();
    db.transaction(
      (tx) => {
        tx.delete(refreshTokens).where(ownedBy(owner)).run();
        tx.delete(retiredRefreshTokens).where(retiredOf(owner)).run();
        tx.insert(refreshTokens)
          .values({
            ...owner,
            tokenHash: hashToken(token),
            tokenSealed: box.seal(token),
            family: newToken(16),
            createdAt: now(),
          })
          .run();
      },
      { behavior: 'immediate' },
    );
    return token;
  }

  /**
   * The next token of the family: the presented one is retired (kept by hash for replay detection). 401 when another
   * exchange of the same token got there first (only one of two racing exchanges gets the next token).
   */
  function rotate(row: typeof refreshTokens.$inferSelect): string {
    const token = newToken();
    const at = now();
    const rotated = db.transaction(
      (tx) => {
        const updated = tx
          .update(refreshTokens)
          .set({ tokenHash: hashToken(token), tokenSealed: box.seal(token), createdAt: at })
          .where(and(eq(refreshTokens.id, row.id), eq(refreshTokens.tokenHash, row.tokenHash)))
          .run();
        if (updated.changes !== 1) return false;
        tx.delete(retiredRefreshTokens)
          .where(lt(retiredRefreshTokens.retiredAt, at - RETIRED_KEEP_MS))
          .run();
        tx.insert(retiredRefreshTokens)
          .values({
            tokenHash: row.tokenHash,
            kind: row.kind,
            principalId: row.principalId,
            appId: row.appId,
            family: row.family,
            retiredAt: at,
          })
          .onConflictDoNothing()
          .run();
        return true;
      },
      { behavior: 'immediate' },
    );
    if (!rotated) throw unauthorized();
    return token;
  }

  /** A rotated token presented again: whoever holds the chain now may be a thief; the chain and its sessions end. */
  function revokeFamily(retired: typeof retiredRefreshTokens.$inferSelect): void {
    const owner = { kind: retired.kind, principalId: retired.principalId, appId: retired.appId };
    db.delete(refreshTokens)
      .where(and(ownedBy(owner), eq(refreshTokens.family, retired.family)))
      .run();
    auth.endFamilySessions(retired.kind, retired.principalId, retired.family);
  }

  /** The current token; the first read issues one, so the page always has a token to show. */
  function current(caller: Caller) {
    const owner = ownerOf(caller);
    const row = db
      .select({ sealed: refreshTokens.tokenSealed })
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.kind, owner.kind),
          eq(refreshTokens.principalId, owner.principalId),
          eq(refreshTokens.appId, owner.appId),
        ),
      )
      .get();
    return { refresh_token: row ? box.open(row.sealed) : issue(owner) };
  }

  const regenerate = (caller: Caller) => ({ refresh_token: issue(ownerOf(caller)) });

  /**
   * A session for the token's principal and the next refresh token; 401 for a token unknown, replaced, rotated, or
   * of another application. A rotated token also revokes its family.
   */
  function exchange(domain: string | undefined, token: string) {
    const app = domain ? auth.appByDomain(domain) : undefined;
    if (!app) throw unauthorized();
    const tokenHash = hashToken(token);
    const row = db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).get();
    if (!row) {
      const retired = db.select().from(retiredRefreshTokens).where(eq(retiredRefreshTokens.tokenHash, tokenHash)).get();
      if (retired && retired.appId === app.id) revokeFamily(retired);
      throw unauthorized();
    }
    if (row.appId !== app.id) throw unauthorized();
    if (row.kind === 'member') {
      const account = db
        .select({ id: accounts.id, appId: accounts.appId, first: accounts.first })
        .from(accounts)
        .where(eq(accounts.id, row.principalId))
        .get();
      if (!account || account.appId !== app.id) throw unauthorized();
      const next = rotate(row);
      return {
        id: account.id,
        token: auth.startSession('member', account.id, row.family),
        name: account.first,
        is_tenant: false,
        refresh_token: next,
      };
    }
    const tenant = db
      .select({ id: tenants.id, first: tenants.first })
      .from(tenants)
      .where(eq(tenants.id, row.principalId))
      .get();
    if (!tenant || app.tenantId !== tenant.id) throw unauthorized();
    const next = rotate(row);
    return {
      id: tenant.id,
      token: auth.startSession('tenant', tenant.id, row.family),
      name: tenant.first,
      is_tenant: true,
      refresh_token: next,
    };
  }

  return { current, regenerate, exchange };
}

export type RefreshTokenService = ReturnType<typeof createRefreshTokenService>;
