// Application user accounts: list, add, get, edit, remove and password change, inside the caller's application.
import { and, asc, eq, ne } from 'drizzle-orm';
import { T } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { hashPassword } from '../../platform/crypto.js';
import { fail, notFound } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { RolesService } from '../roles/roles.service.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { roles } from '../roles/roles.table.js';
import { accounts, refreshTokens } from './users.table.js';

export interface SessionEnder {
  endMemberSessions(accountId: number): void;
}

const columns = {
  id: accounts.id,
  username: accounts.username,
  first: accounts.first,
  last: accounts.last,
  email: accounts.email,
  role_id: accounts.roleId,
  role_name: roles.name,
  created_time: accounts.createdAt,
};

export function createUsersService(
  db: Db,
  rolesService: RolesService,
  auth: SessionEnder,
  opts: { now?: () => number; changes?: Pick<AccessChanges, 'changed'> } = {},
) {
  const now = opts.now ?? Date.now;

  const query = () => db.select(columns).from(accounts).leftJoin(roles, eq(roles.id, accounts.roleId));

  function list(appId: number) {
    return query().where(eq(accounts.appId, appId)).orderBy(asc(accounts.id)).all();
  }

  function get(appId: number, id: number) {
    const row = query()
      .where(and(eq(accounts.appId, appId), eq(accounts.id, id)))
      .get();
    if (!row) throw notFound();
    return row;
  }

  /** The account of the caller's application, checked to be within a member caller's own grants. */
  async function target(caller: Caller, id: number) {
    const row = db
      .select()
      .from(accounts)
      .where(and(eq(accounts.appId, caller.app!.id), eq(accounts.id, id)))
      .get();
    if (!row) throw notFound();
    if (row.roleId !== null) await rolesService.roleForUser(caller, row.roleId);
    return row;
  }

  function taken(appId: number, field: 'username' | 'email', value: string, exceptId?: number) {
    const column = field === 'username' ? accounts.username : accounts.email;
    const where =
      exceptId === undefined
        ? and(eq(accounts.appId, appId), eq(column, value))
        : and(eq(accounts.appId, appId), eq(column, value), ne(accounts.id, exceptId));
    return db.select({ id: accounts.id }).from(accounts).where(where).get() !== undefined;
  }

  async function add(
    caller: Caller,
    input: { username: string; first: string; last?: string; email: string; pass: string; role_id: number },
  ) {
    const appId = caller.app!.id;
    if (!rolesService.hasRoles(appId)) throw fail(-12, T.users.noRole);
    await rolesService.roleForUser(caller, input.role_id);
    if (taken(appId, 'username', input.username)) throw fail(-3, T.users.usernameTaken);
    if (taken(appId, 'email', input.email)) throw fail(-4, T.users.emailTaken);
    const passHash = await hashPassword(input.pass);
    try {
      const row = db
        .insert(accounts)
        .values({
          appId,
          username: input.username,
          first: input.first,
          last: input.last || null,
          email: input.email,
          passHash,
          roleId: input.role_id,
          createdAt: now(),
        })
        .returning({ id: accounts.id })
        .get();
      return get(appId, row.id);
    } catch (err) {
      // two additions racing for the same name: the unique index decides
      if (String(err).includes('accounts.email')) throw fail(-4, T.users.emailTaken);
      if (String(err).includes('UNIQUE')) throw fail(-3, T.users.usernameTaken);
      throw err;
    }
  }

  async function edit(
    caller: Caller,
    input: { id: number; first: string; last?: string; email: string; role_id: number },
  ) {
    const appId = caller.app!.id;
    const row = await target(caller, input.id);
    await rolesService.roleForUser(caller, input.role_id);
    if (taken(appId, 'email', input.email, row.id)) throw fail(-4, T.users.emailTaken);
    db.update(accounts)
      .set({ first: input.first, last: input.last || null, email: input.email, roleId: input.role_id })
      .where(eq(accounts.id, row.id))
      .run();
    // a new role takes effect on the next call: the user's cached grants are dropped
    opts.changes?.changed('access');
    return get(appId, row.id);
  }

  async function remove(caller: Caller, id: number) {
    const row = await target(caller, id);
    db.transaction(
      (tx) => {
        tx.delete(refreshTokens)
          .where(and(eq(refreshTokens.kind, 'member'), eq(refreshTokens.principalId, row.id)))
          .run();
        tx.delete(accounts).where(eq(accounts.id, row.id)).run();
      },
      { behavior: 'immediate' },
    );
    auth.endMemberSessions(row.id);
    return {};
  }

  async function changePassword(caller: Caller, input: { id: number; passn: string }) {
    const row = await target(caller, input.id);
    const passHash = await hashPassword(input.passn);
    db.update(accounts).set({ passHash }).where(eq(accounts.id, row.id)).run();
    auth.endMemberSessions(row.id);
    return {};
  }

  return { list, get, add, edit, remove, changePassword };
}

export type UsersService = ReturnType<typeof createUsersService>;
