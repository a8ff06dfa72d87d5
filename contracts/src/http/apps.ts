// Applications of a tenant (spec 01 sections 2 "Application list", "Add application", "About"; 5; 7; 8).
import { z } from 'zod';
import { T } from '../text/id.js';
import { defineCall, NoInput } from './define.js';
import { appDomain, appName, optionalText } from '../models/fields.js';
import { RoleMenu } from '../models/nav.js';

export const AppSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  domain: z.string(),
  description: z.string().nullable(),
});

export const AppInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  domain: z.string(),
  description: z.string().nullable(),
  created_time: z.number().int(),
});

export const AddAppInput = z.object({
  name: appName,
  domain: appDomain,
  description: optionalText(1024),
});

export const appsContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/application/list',
    summary: "The signed-in tenant's applications",
    audience: 'tenant',
    input: NoInput,
    output: z.object({ data: z.array(AppSummary) }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/application/add',
    summary: 'Creates an application of the signed-in tenant',
    audience: 'tenant',
    input: AddAppInput,
    output: z.object({ data: AppInfo }),
    timeoutMs: 180_000,
    fieldCodes: { domain: { code: -2, message: T.application.invalidDomain } },
    errors: { [-2]: T.application.invalidDomain, [-3]: T.application.domainTaken },
  }),
  getByDomain: defineCall({
    method: 'GET',
    path: '/service/web/application/get/domain/{domain}',
    summary: 'Application info for the About page (its tenant or its users only)',
    audience: 'session',
    input: z.object({ domain: z.string().min(1).max(64) }),
    output: z.object({ data: AppInfo }),
  }),
  menu: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/list/role',
    summary: "The signed-in principal's menu: dashboards (navs) and system keys (navs_root) granted",
    audience: 'member',
    input: NoInput,
    output: RoleMenu,
  }),
} as const;
