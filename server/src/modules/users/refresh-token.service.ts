// Refresh tokens: one per (principal, application), shown on the Refresh Token page, replaced on regenerate (the
// previous one stops at once), and exchanged for a new session without the password. Every exchange rotates the
// token (the answer carries the next one); presenting a rotated token again is a replay: the family (this chain since
// the last regenerate) is revoked with the sessions it opened. A password change or reset deletes them all.
import { hashToken, newToken } from '../../platform/crypto.js';
import { forbidden, unauthorized } from '../../platform/http/errors.js';
import type { AppScope, Caller } from '../../platform/http/mount.js';
import type { SecretBox } from '../credentials/secret-box.js';
import type { RefreshTokenRow, RetiredTokenRow, TokenOwner, UsersStore } from './users.store.js';

export interface SessionIssuer {
  appByDomain(domain: string): Promise<AppScope | undefined>;
  startSession(kind: 'tenant' | 'member', principalId: number, refreshFamily?: string): Promise<string>;
  endFamilySessions(kind: 'tenant' | 'member', principalId: number, family: string): Promise<void>;
  /** the tenant's name to greet them with */
  tenantBrief(id: number): Promise<{ id: number; first: string } | undefined>;
}

/** how long a rotated token is remembered for replay detection (after that it is simply unknown: 401) */
const RETIRED_KEEP_MS = 30 * 86_400_000;

export function createRefreshTokenService(
  store: UsersStore,
  box: SecretBox,
  auth: SessionIssuer,
  opts: { now?: () => number } = {},
) {
  const now = opts.now ?? Date.now;

  function ownerOf(caller: Caller): TokenOwner {
    // a credentials pair is no principal: it has no refresh token of its own
    if (caller.kind === 'tenant')
      return { kind: 'tenant' as const, principalId: caller.tenantId, appId: caller.app!.id };
    if (caller.kind === 'member' && caller.accountId !== undefined)
      return { kind: 'member' as const, principalId: caller.accountId, appId: caller.app!.id };
    throw forbidden();
  }

  /** A new token in a new family; the previous token, and what its family retired, are forgotten. */
  async function issue(owner: TokenOwner): Promise<string> {
    const token = newToken();
    await store.issueToken(owner, {
      tokenHash: hashToken(token),
      tokenSealed: box.seal(token),
      family: newToken(16),
      createdAt: now(),
    });
    return token;
  }

  /**
   * The next token of the family: the presented one is retired (kept by hash for replay detection). 401 when another
   * exchange of the same token got there first (only one of two racing exchanges gets the next token).
   */
  async function rotate(row: RefreshTokenRow): Promise<string> {
    const token = newToken();
    const at = now();
    const next = { tokenHash: hashToken(token), tokenSealed: box.seal(token) };
    if (!(await store.rotateToken(row, next, at, at - RETIRED_KEEP_MS))) throw unauthorized();
    return token;
  }

  /** A rotated token presented again: whoever holds the chain now may be a thief; the chain and its sessions end. */
  async function revokeFamily(retired: RetiredTokenRow): Promise<void> {
    const owner = { kind: retired.kind, principalId: retired.principalId, appId: retired.appId };
    await store.revokeFamily(owner, retired.family);
    await auth.endFamilySessions(retired.kind, retired.principalId, retired.family);
  }

  /** The current token; the first read issues one, so the page always has a token to show. */
  async function current(caller: Caller) {
    const owner = ownerOf(caller);
    const sealed = await store.sealedToken(owner);
    return { refresh_token: sealed !== undefined ? box.open(sealed) : await issue(owner) };
  }

  const regenerate = async (caller: Caller) => ({ refresh_token: await issue(ownerOf(caller)) });

  /**
   * A session for the token's principal and the next refresh token; 401 for a token unknown, replaced, rotated, or
   * of another application. A rotated token also revokes its family.
   */
  async function exchange(domain: string | undefined, token: string) {
    const app = domain ? await auth.appByDomain(domain) : undefined;
    if (!app) throw unauthorized();
    const tokenHash = hashToken(token);
    const row = await store.tokenByHash(tokenHash);
    if (!row) {
      const retired = await store.retiredByHash(tokenHash);
      if (retired && retired.appId === app.id) await revokeFamily(retired);
      throw unauthorized();
    }
    if (row.appId !== app.id) throw unauthorized();
    if (row.kind === 'member') {
      const account = await store.byId(app.id, row.principalId);
      if (!account) throw unauthorized();
      const next = await rotate(row);
      return {
        id: account.id,
        token: await auth.startSession('member', account.id, row.family),
        name: account.first,
        is_tenant: false,
        refresh_token: next,
      };
    }
    const tenant = await auth.tenantBrief(row.principalId);
    if (!tenant || app.tenantId !== tenant.id) throw unauthorized();
    const next = await rotate(row);
    return {
      id: tenant.id,
      token: await auth.startSession('tenant', tenant.id, row.family),
      name: tenant.first,
      is_tenant: true,
      refresh_token: next,
    };
  }

  return { current, regenerate, exchange };
}

export type RefreshTokenService = ReturnType<typeof createRefreshTokenService>;
