// The role calls of the wizard and the list, turned into values or a RoleCallError carrying the catalogue's message
// (spec 01 section 8 "Roles") and the fields the server named (a taken name under Nama: the contract's errorFields).
// A refusal's notice is the action's own text (MessageRules, no contract code named); the field says why.
import { contracts, T, type InputOf, type NavEntry, type OutputOf, type SysNav } from '@sentra/contracts';
import { CallError, callOrThrow } from '../../api/call.js';

export type RoleDetail = OutputOf<typeof contracts.roles.get>['data'];
export type AddRoleBody = InputOf<typeof contracts.roles.add>;
export type EditRoleBody = InputOf<typeof contracts.roles.edit>;

/** the failures of the role calls: the one CallError of api/call.ts */
export const RoleCallError = CallError;
export type RoleCallError = CallError;

/** What the access step needs in the add wizard: the application's navigation tree. */
export async function loadNavigationTree(): Promise<NavEntry[]> {
  return (await callOrThrow(contracts.navs.detail, undefined, { fallback: T.shell.loadFailed })).navs_root_obj;
}

export async function loadRole(id: number): Promise<RoleDetail> {
  return (await callOrThrow(contracts.roles.get, { id }, { fallback: T.shell.loadFailed })).data;
}

export async function addRole(body: AddRoleBody): Promise<RoleDetail> {
  return (await callOrThrow(contracts.roles.add, body, { fallback: T.roles.addFailed })).data;
}

export async function editRole(body: EditRoleBody): Promise<RoleDetail> {
  return (await callOrThrow(contracts.roles.edit, body, { fallback: T.roles.editFailed })).data;
}

/** The checked system navigation keys of a role. */
export const checkedSysNavs = (role: Pick<RoleDetail, 'sys_navs'>): SysNav[] =>
  role.sys_navs.filter((s) => s.checked).map((s) => s.id);
