// Sign-in, registration and logout of tenants and application users (spec 01 sections 3, 5, 7, 8).
import { z } from 'zod';
import { T } from '../text/id.js';
import { Result } from '../codes.js';
import { defineCall, NoInput, NoOutput } from './define.js';
import { email, lastName, password, text, username } from '../models/fields.js';

export const LoginInput = z.object({
  input: text(1, 254),
  pass: text(1, 128),
});

export const LoginOutput = z.object({ id: z.number().int(), token: z.string(), name: z.string() });

export const RegisterInput = z
  .object({
    username,
    first: text(1, 16),
    last: lastName,
    email,
    pass: password,
    passv: password,
    tenant_name: text(4, 128),
    email_verification: z.boolean().optional().default(false),
  })
  .refine((v) => v.pass === v.passv, { path: ['passv'], message: T.registration.passwordMismatch });

/** HTTP 429 after too many failed sign-ins per account or address (or registrations per address) in the window */
const tooMany = T.common.tooManyAttempts(60);

export const authContract = {
  tenantLogin: defineCall({
    method: 'POST',
    path: '/service/web/tenant/account/auth/login',
    summary: 'Tenant sign-in',
    audience: 'public',
    input: LoginInput,
    output: LoginOutput,
    errors: { [-1]: T.login.unknownUsername, [-2]: T.login.wrongPassword, [Result.TOO_MANY_ATTEMPTS]: tooMany },
  }),
  appLogin: defineCall({
    method: 'POST',
    path: '/service/web/application/account/auth/login',
    summary: 'Application user sign-in (x-app-domain names the application; unknown domain answers 401)',
    audience: 'public',
    input: LoginInput,
    output: LoginOutput,
    errors: { [-1]: T.login.unknownUsername, [-2]: T.login.wrongPassword, [Result.TOO_MANY_ATTEMPTS]: tooMany },
  }),
  register: defineCall({
    method: 'POST',
    path: '/service/web/tenant/account/auth/register',
    summary: 'Tenant self-registration',
    audience: 'public',
    input: RegisterInput,
    output: z.object({ id: z.number().int() }),
    timeoutMs: 180_000,
    fieldCodes: { passv: { code: -3, message: T.registration.passwordMismatch } },
    errors: {
      [-3]: T.registration.passwordMismatch,
      [-4]: T.registration.usernameTaken,
      [-5]: T.registration.emailTaken,
      [Result.TOO_MANY_ATTEMPTS]: tooMany,
    },
  }),
  tenantLogout: defineCall({
    method: 'POST',
    path: '/service/web/tenant/account/auth/logout',
    summary: 'Ends the tenant session of the presented token',
    audience: 'tenant',
    input: NoInput,
    output: NoOutput,
  }),
  appLogout: defineCall({
    method: 'POST',
    path: '/service/web/application/account/auth/logout',
    summary: 'Ends the application user session of the presented token',
    audience: 'session',
    input: NoInput,
    output: NoOutput,
  }),
} as const;
