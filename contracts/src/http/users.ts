// Application user accounts and the principal's refresh token (spec 01 sections 2 "Users", "Refresh Token", 3, 5, 7, 8).
import { z } from 'zod';
import { T } from '../text/id.js';
import { defineCall, type Access } from './define.js';
import { email, id, lastName, password, personName, text, username } from '../models/fields.js';
import { LoginOutput } from './auth.js';

export const UserAccount = z.object({
  id: z.number().int(),
  username: z.string(),
  first: z.string(),
  last: z.string().nullable(),
  email: z.string(),
  role_id: z.number().int().nullable(),
  role_name: z.string().nullable(),
  created_time: z.number().int(),
});

export const AddUserInput = z
  .object({
    username,
    first: personName,
    last: lastName,
    email,
    pass: password,
    passv: password,
    role_id: id,
    email_verification: z.boolean().optional().default(false),
  })
  .refine((v) => v.pass === v.passv, { path: ['passv'], message: T.common.passwordMismatch });

/** username is read-only on edit: sent or not, it is ignored. */
export const EditUserInput = z.object({ id, first: personName, last: lastName, email, role_id: id });

/** The new password is trimmed before it is checked and stored. */
export const ChangePasswordInput = z.object({
  id,
  passn: z.string({ error: T.common.required }).trim().pipe(password),
});

/** `_role_manage_` gives the user screens too (spec 01 section 2 "Menus"). */
const manage: Access = { navs: ['_user_manage_', '_role_manage_'] };
const one = z.object({ data: UserAccount });

export const usersContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/application/account/manage/list',
    summary: "The application's user accounts with their role name",
    audience: 'member',
    access: manage,
    input: z.object({}).strip(),
    output: z.object({ data: z.array(UserAccount) }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/application/account/manage/add',
    summary:
      'Adds a user account; refused while the application has no role. A member may only give roles within their own grants.',
    audience: 'member',
    access: manage,
    input: AddUserInput,
    output: one,
    errors: { [-3]: T.users.usernameTaken, [-4]: T.users.emailTaken, [-12]: T.users.noRole },
    errorFields: { [T.users.usernameTaken]: 'username', [T.users.emailTaken]: 'email' },
  }),
  get: defineCall({
    method: 'GET',
    path: '/service/web/application/account/manage/get/id/{id}',
    summary: 'One user account',
    audience: 'member',
    access: manage,
    input: z.object({ id }),
    output: one,
  }),
  edit: defineCall({
    method: 'POST',
    path: '/service/web/application/account/manage/edit',
    summary: 'Edits first, last, email and role (username is read-only)',
    audience: 'member',
    access: manage,
    input: EditUserInput,
    output: one,
    errors: { [-4]: T.users.emailTaken },
    errorFields: { [T.users.emailTaken]: 'email' },
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/application/account/manage/remove',
    summary: 'Removes a user account, its sessions and its refresh token',
    audience: 'member',
    access: manage,
    input: z.object({ id }),
    output: z.object({}),
  }),
  changePassword: defineCall({
    method: 'POST',
    path: '/service/web/application/account/setting/edit/password/id',
    summary:
      "Sets a user's password (passn, trimmed, at least 8 characters) and ends every session and refresh token of that user",
    audience: 'member',
    access: manage,
    input: ChangePasswordInput,
    output: z.object({}),
  }),
} as const;

const RefreshToken = z.object({ refresh_token: z.string() });

export const refreshTokenContract = {
  get: defineCall({
    method: 'GET',
    path: '/service/web/application/account/open/token/get',
    summary: "The signed-in principal's refresh token for this application (issued on first read)",
    audience: 'member',
    input: z.object({}).strip(),
    output: RefreshToken,
  }),
  gen: defineCall({
    method: 'POST',
    path: '/service/web/application/account/open/token/gen',
    summary: 'Issues a new refresh token; the previous one stops working at once',
    audience: 'member',
    input: z.object({}).strip(),
    output: RefreshToken,
  }),
  exchange: defineCall({
    method: 'POST',
    path: '/service/web/application/account/open/token/exchange',
    summary:
      'Exchanges a refresh token (with x-app-domain) for a new session, answered like a sign-in; is_tenant tells which headers to use. The token is rotated: the answer carries the next refresh_token and the presented one stops working; presenting a rotated token again revokes the whole chain and the sessions it opened. A wrong token answers 401.',
    audience: 'public',
    input: z.object({ refresh_token: text(1, 256) }),
    output: LoginOutput.extend({ is_tenant: z.boolean(), refresh_token: z.string() }),
  }),
} as const;
