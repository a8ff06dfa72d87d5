// The role calls of the wizard and the list, turned into values or a RoleCallError carrying the catalogue's message
// (spec 01 section 8 "Roles") and the fields the server named.
import { contracts, T, type InputOf, type NavEntry, type OutputOf, type SysNav } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage, type MessageRules } from '../../api/outcome.js';
import { fieldErrorsOfEnvelope, type FieldErrors } from '../../ui/forms.js';
import type { ApiResult } from '../../api/request.js';

export type RoleDetail = OutputOf<typeof contracts.roles.get>['data'];
export type AddRoleBody = InputOf<typeof contracts.roles.add>;
export type EditRoleBody = InputOf<typeof contracts.roles.edit>;

export class RoleCallError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly status = 0,
  ) {
    super(message);
    this.name = 'RoleCallError';
  }
}

function fail(r: ApiResult<unknown>, rules: MessageRules): never {
  const fields = fieldErrorsOfEnvelope(r.body);
  // -12 is the duplicate name
  if (r.code === 400 && (r.body as { response_result?: number } | null)?.response_result === -12)
    fields.name = T.roles.nameTaken;
  throw new RoleCallError(failureMessage(r, rules), fields, r.code);
}

/** What the access step needs in the add wizard: the application's navigation tree. */
export async function loadNavigationTree(): Promise<NavEntry[]> {
  const r = await api.call(contracts.navs.detail);
  if (!isOk(r)) fail(r, { fallback: T.shell.loadFailed });
  return r.body.navs_root_obj;
}

export async function loadRole(id: number): Promise<RoleDetail> {
  const r = await api.call(contracts.roles.get, { id });
  if (!isOk(r)) fail(r, { fallback: T.shell.loadFailed });
  return r.body.data;
}

export async function addRole(body: AddRoleBody): Promise<RoleDetail> {
  const r = await api.call(contracts.roles.add, body);
  if (!isOk(r)) fail(r, { fallback: T.roles.addFailed });
  return r.body.data;
}

export async function editRole(body: EditRoleBody): Promise<RoleDetail> {
  const r = await api.call(contracts.roles.edit, body);
  if (!isOk(r)) fail(r, { fallback: T.roles.editFailed });
  return r.body.data;
}

/** The checked system navigation keys of a role. */
export const checkedSysNavs = (role: Pick<RoleDetail, 'sys_navs'>): SysNav[] =>
  role.sys_navs.filter((s) => s.checked).map((s) => s.id);
