// Roles of an application (spec 01 sections 2 "Roles", 3, 4, 5, 6, 7, 8): system navigation keys, a permissions
// object and dashboards (navigation items) in a sort order, optionally with all their children.
import { z } from 'zod';
import { T } from '../text/id.js';
import { defineCall, type Access } from './define.js';
import { id, optionalText } from '../models/fields.js';
import { jsonObject, NavItem, roleName, SysNavChoice, SysNavsInput } from '../models/access.js';
import { NavEntry } from '../models/nav.js';

export const Role = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.record(z.string(), z.unknown()),
  /** granted dashboard ids in their sort order */
  navs: z.array(z.number().int()),
  /** the same dashboards as navigation items */
  navsObj: z.array(NavItem),
  /** include all children of each granted dashboard */
  descendant: z.boolean(),
  /** the opposite of descendant: only the dashboards picked */
  direct: z.boolean(),
  /** every system navigation key, checked when the role grants it */
  sys_navs: z.array(SysNavChoice),
  user_count: z.number().int(),
});

export const RoleDetail = Role.extend({
  /** the application's whole navigation tree, for the access step */
  navs_root_obj: z.array(NavEntry),
  /** the menu a user of this role sees */
  navs_root: z.array(NavEntry),
});

const permissions = jsonObject(T.roles.invalidPermissions);
const navIds = z.array(id);

export const AddRoleInput = z.object({
  name: roleName,
  description: optionalText(256),
  permissions: permissions.optional().default({}),
  descendant: z.boolean().optional().default(false),
  navs: navIds.optional().default([]),
  sys_navs: SysNavsInput.optional().default([]),
});

/** Either form or both: info (name, description, sys_navs, permissions) and access (descendant, navs). */
export const EditRoleInput = z
  .object({
    id,
    name: roleName.optional(),
    description: optionalText(256),
    permissions: permissions.optional(),
    sys_navs: SysNavsInput.optional(),
    descendant: z.boolean().optional(),
    navs: navIds.optional(),
  })
  .refine((v) => v.name !== undefined || v.navs !== undefined, { path: ['name'], message: T.roles.editNothing });

const manage: Access = { navs: ['_role_manage_'] };

export const rolesContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/application/account/role/list',
    summary: "The application's roles; optional `name` filters by a case-insensitive substring",
    audience: 'member',
    // the user form picks a role from this list
    access: { navs: ['_role_manage_', '_user_manage_'] },
    input: z.object({ name: z.string().max(30).optional() }),
    output: z.object({ data: z.array(Role) }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/application/account/role/add',
    summary: 'Adds a role; a member may only grant what their own role grants',
    audience: 'member',
    access: manage,
    input: AddRoleInput,
    output: z.object({ data: RoleDetail }),
    errors: { [-12]: T.roles.nameTaken },
    errorFields: { [T.roles.nameTaken]: 'name' },
  }),
  get: defineCall({
    method: 'GET',
    path: '/service/web/application/account/role/get/id/{id}',
    summary: 'One role with its system navigation choices, the navigation tree and the menu it gives',
    audience: 'member',
    access: manage,
    input: z.object({ id }),
    output: z.object({ data: RoleDetail }),
  }),
  edit: defineCall({
    method: 'POST',
    path: '/service/web/application/account/role/edit',
    summary: 'Edits the info form (name, description, sys_navs, permissions) and/or the access form (descendant, navs)',
    audience: 'member',
    access: manage,
    input: EditRoleInput,
    output: z.object({ data: RoleDetail }),
    errors: { [-12]: T.roles.nameTaken },
    errorFields: { [T.roles.nameTaken]: 'name' },
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/application/account/role/remove',
    summary: 'Removes a role no user holds',
    audience: 'member',
    access: manage,
    input: z.object({ id }),
    output: z.object({}),
    errors: { [-21]: T.roles.deleteBound },
  }),
} as const;
