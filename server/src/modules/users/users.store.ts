// The accounts, refresh_tokens and retired_refresh_tokens tables: an application's user accounts, and every
// principal's refresh token with the rotated ones kept for replay detection.
import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { accounts, refreshTokens, retiredRefreshTokens } from './users.table.js';

export type AccountRow = typeof accounts.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type RetiredTokenRow = typeof retiredRefreshTokens.$inferSelect;
type NewAccount = Omit<typeof accounts.$inferInsert, 'id'>;
type Kind = 'tenant' | 'member';
export interface TokenOwner {
  kind: Kind;
  principalId: number;
  appId: number;
}

export function createUsersStore(store: AppStore) {
  const db = store.db;

  const ownedBy = (o: TokenOwner) =>
    and(eq(refreshTokens.kind, o.kind), eq(refreshTokens.principalId, o.principalId), eq(refreshTokens.appId, o.appId));
  const retiredOf = (o: TokenOwner) =>
    and(
      eq(retiredRefreshTokens.kind, o.kind),
      eq(retiredRefreshTokens.principalId, o.principalId),
      eq(retiredRefreshTokens.appId, o.appId),
    );

  return {
    /** the application's accounts, oldest first */
    list: (appId: number): Promise<AccountRow[]> =>
      db.select().from(accounts).where(eq(accounts.appId, appId)).orderBy(asc(accounts.id)),

    byId: (appId: number, id: number): Promise<AccountRow | undefined> =>
      db
        .select()
        .from(accounts)
        .where(and(eq(accounts.appId, appId), eq(accounts.id, id)))
        .get(),

    /** the account that signs in as `username` in the application */
    byUsername: (appId: number, username: string): Promise<AccountRow | undefined> =>
      db
        .select()
        .from(accounts)
        .where(and(eq(accounts.appId, appId), eq(accounts.username, username)))
        .get(),

    /** who account `id` is (any application): its application and role */
    principal: (id: number): Promise<{ id: number; appId: number; roleId: number | null } | undefined> =>
      db
        .select({ id: accounts.id, appId: accounts.appId, roleId: accounts.roleId })
        .from(accounts)
        .where(eq(accounts.id, id))
        .get(),

    /** whether another account of the application than `exceptId` has this username or email */
    taken: async (appId: number, field: 'username' | 'email', value: string, exceptId?: number) => {
      const column = field === 'username' ? accounts.username : accounts.email;
      const where =
        exceptId === undefined
          ? and(eq(accounts.appId, appId), eq(column, value))
          : and(eq(accounts.appId, appId), eq(column, value), ne(accounts.id, exceptId));
      return (await db.select({ id: accounts.id }).from(accounts).where(where).get()) !== undefined;
    },

    /** the new account's id; which of username or email the application has already when it is refused */
    create: async (values: NewAccount): Promise<{ id: number } | { taken: 'username' | 'email' }> => {
      const row = await db.insert(accounts).values(values).onConflictDoNothing().returning({ id: accounts.id }).get();
      if (row) return row;
      const byName = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.appId, values.appId), eq(accounts.username, values.username)))
        .get();
      return { taken: byName ? 'username' : 'email' };
    },

    update: async (
      id: number,
      set: Partial<Pick<AccountRow, 'first' | 'last' | 'email' | 'roleId' | 'passHash'>>,
    ): Promise<void> => {
      await db.update(accounts).set(set).where(eq(accounts.id, id));
    },

    /** the account and its refresh tokens (its sessions are the auth domain's: auth.endMemberSessions) */
    remove: (id: number): Promise<void> =>
      store.tx(async () => {
        await db.delete(refreshTokens).where(and(eq(refreshTokens.kind, 'member'), eq(refreshTokens.principalId, id)));
        await db.delete(accounts).where(eq(accounts.id, id));
      }),

    /** for the roles domain: how many accounts of the application hold each role */
    roleCounts: async (appId: number): Promise<Map<number, number>> => {
      const rows = await db
        .select({ roleId: accounts.roleId, n: sql<number>`count(*)`.mapWith(Number) })
        .from(accounts)
        .where(eq(accounts.appId, appId))
        .groupBy(accounts.roleId);
      return new Map(rows.filter((r) => r.roleId !== null).map((r) => [r.roleId!, r.n]));
    },

    /** for the roles domain: whether any account holds role `roleId` */
    roleHeld: async (roleId: number) =>
      (await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.roleId, roleId)).limit(1).get()) !==
      undefined,

    /** the sealed refresh token of the owner, if it has one */
    sealedToken: async (owner: TokenOwner): Promise<string | undefined> =>
      (await db.select({ sealed: refreshTokens.tokenSealed }).from(refreshTokens).where(ownedBy(owner)).get())?.sealed,

    /** the owner's token is now this one, in a new family: the previous one and what its family retired go */
    issueToken: (
      owner: TokenOwner,
      token: { tokenHash: string; tokenSealed: string; family: string; createdAt: number },
    ): Promise<void> =>
      store.tx(async () => {
        await db.delete(retiredRefreshTokens).where(retiredOf(owner));
        // one row per owner, replaced in place: two issues at once (two tabs pressing "Buat Ulang") both succeed on
        // PostgreSQL too, the later one's token kept (a delete then insert let the second insert meet the unique index)
        await db
          .insert(refreshTokens)
          .values({ ...owner, ...token })
          .onConflictDoUpdate({
            target: [refreshTokens.kind, refreshTokens.principalId, refreshTokens.appId],
            set: token,
          });
      }),

    tokenByHash: (tokenHash: string): Promise<RefreshTokenRow | undefined> =>
      db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).get(),

    retiredByHash: (tokenHash: string): Promise<RetiredTokenRow | undefined> =>
      db.select().from(retiredRefreshTokens).where(eq(retiredRefreshTokens.tokenHash, tokenHash)).get(),

    /**
     * `row` replaced by the next token of its family, `row` kept as retired (those retired before `forgetBefore` are
     * forgotten); false when `row` is no longer the current token (another exchange of it got there first).
     */
    rotateToken: (
      row: RefreshTokenRow,
      next: { tokenHash: string; tokenSealed: string },
      at: number,
      forgetBefore: number,
    ): Promise<boolean> =>
      store.tx(async () => {
        const updated = await db
          .update(refreshTokens)
          .set({ ...next, createdAt: at })
          .where(and(eq(refreshTokens.id, row.id), eq(refreshTokens.tokenHash, row.tokenHash)))
          .returning({ id: refreshTokens.id });
        if (updated.length !== 1) return false;
        await db.delete(retiredRefreshTokens).where(lt(retiredRefreshTokens.retiredAt, forgetBefore));
        await db
          .insert(retiredRefreshTokens)
          .values({
            tokenHash: row.tokenHash,
            kind: row.kind,
            principalId: row.principalId,
            appId: row.appId,
            family: row.family,
            retiredAt: at,
          })
          .onConflictDoNothing();
        return true;
      }),

    /** the owner's current token when it is of `family` */
    revokeFamily: async (owner: TokenOwner, family: string): Promise<void> => {
      await db.delete(refreshTokens).where(and(ownedBy(owner), eq(refreshTokens.family, family)));
    },

    /** for the auth domain: every refresh token of the principal, current and retired, in every application */
    forgetTokens: (kind: Kind, principalId: number): Promise<void> =>
      store.tx(async () => {
        await db
          .delete(refreshTokens)
          .where(and(eq(refreshTokens.kind, kind), eq(refreshTokens.principalId, principalId)));
        await db
          .delete(retiredRefreshTokens)
          .where(and(eq(retiredRefreshTokens.kind, kind), eq(retiredRefreshTokens.principalId, principalId)));
      }),
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;

/**
 * The role of account `accountId` of the application: null when it has none, undefined when the application has no
 * such account (the dashboard grants ask it on a cache miss).
 */
export async function roleOfAccount(
  store: AppStore,
  appId: number,
  accountId: number,
): Promise<number | null | undefined> {
  const row = await store.db
    .select({ roleId: accounts.roleId })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.appId, appId)))
    .get();
  return row?.roleId;
}
