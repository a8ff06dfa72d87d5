// Application user accounts: list, add, get, edit, remove and password change, inside the caller's application.
import { T } from '@sentra/contracts';
import { hashPassword } from '../../platform/crypto.js';
import { fail, notFound } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { RolesService } from '../roles/roles.service.js';
import type { AccessChanges } from '../auth/access-changes.js';
import type { AccountRow, UsersStore } from './users.store.js';

export interface SessionEnder {
  endMemberSessions(accountId: number): Promise<void>;
}

export function createUsersService(
  store: UsersStore,
  rolesService: Pick<RolesService, 'hasRoles' | 'roleForUser' | 'namesOf'>,
  auth: SessionEnder,
  opts: { now?: () => number; changes?: Pick<AccessChanges, 'changed'> } = {},
) {
  const now = opts.now ?? Date.now;

  /** the accounts as the calls answer them, with their role's name */
  async function present(rows: AccountRow[]) {
    const names = await rolesService.namesOf(rows.flatMap((r) => (r.roleId === null ? [] : [r.roleId])));
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      first: r.first,
      last: r.last,
      email: r.email,
      role_id: r.roleId,
      role_name: r.roleId === null ? null : (names.get(r.roleId) ?? null),
      created_time: r.createdAt,
    }));
  }

  const list = async (appId: number) => present(await store.list(appId));

  async function get(appId: number, id: number) {
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    return (await present([row]))[0]!;
  }

  /** The account of the caller's application, checked to be within a member caller's own grants. */
  async function target(caller: Caller, id: number) {
    const row = await store.byId(caller.app!.id, id);
    if (!row) throw notFound();
    if (row.roleId !== null) await rolesService.roleForUser(caller, row.roleId);
    return row;
  }

  async function add(
    caller: Caller,
    input: { username: string; first: string; last?: string; email: string; pass: string; role_id: number },
  ) {
    const appId = caller.app!.id;
    if (!(await rolesService.hasRoles(appId))) throw fail(-12, T.users.noRole);
    await rolesService.roleForUser(caller, input.role_id);
    if (await store.taken(appId, 'username', input.username)) throw fail(-3, T.users.usernameTaken);
    if (await store.taken(appId, 'email', input.email)) throw fail(-4, T.users.emailTaken);
    const passHash = await hashPassword(input.pass);
    const row = await store.create({
      appId,
      username: input.username,
      first: input.first,
      last: input.last || null,
      email: input.email,
      passHash,
      roleId: input.role_id,
      createdAt: now(),
    });
    // two additions racing for the same name: the unique index decides
    if ('taken' in row) throw row.taken === 'username' ? fail(-3, T.users.usernameTaken) : fail(-4, T.users.emailTaken);
    return get(appId, row.id);
  }

  async function edit(
    caller: Caller,
    input: { id: number; first: string; last?: string; email: string; role_id: number },
  ) {
    const appId = caller.app!.id;
    const row = await target(caller, input.id);
    await rolesService.roleForUser(caller, input.role_id);
    if (await store.taken(appId, 'email', input.email, row.id)) throw fail(-4, T.users.emailTaken);
    await store.update(row.id, {
      first: input.first,
      last: input.last || null,
      email: input.email,
      roleId: input.role_id,
    });
    // a new role takes effect on the next call: the user's cached grants are dropped
    opts.changes?.changed('access');
    return get(appId, row.id);
  }

  async function remove(caller: Caller, id: number) {
    const row = await target(caller, id);
    await store.remove(row.id);
    await auth.endMemberSessions(row.id);
    return {};
  }

  async function changePassword(caller: Caller, input: { id: number; passn: string }) {
    const row = await target(caller, input.id);
    const passHash = await hashPassword(input.passn);
    await store.update(row.id, { passHash });
    await auth.endMemberSessions(row.id);
    return {};
  }

  return { list, get, add, edit, remove, changePassword };
}

export type UsersService = ReturnType<typeof createUsersService>;
