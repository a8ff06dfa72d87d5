// The application's navigation items (its dashboards), flat and as a tree: they feed the role access step.
import { z } from 'zod';
import { defineCall, type Access } from './define.js';
import { NavItem } from '../models/access.js';
import { NavEntry } from '../models/nav.js';

const access: Access = { navs: ['_role_manage_', '_dashboard_manage_'] };

export const navsContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/list',
    summary: "The application's navigation items (dashboards), flat, parents before children, by sort",
    audience: 'member',
    access,
    input: z.object({}).strip(),
    output: z.object({ navs: z.array(NavItem) }),
  }),
  detail: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/list/detail',
    summary: 'The navigation items flat (navs) and as a tree (navs_root_obj)',
    audience: 'member',
    access,
    input: z.object({}).strip(),
    output: z.object({ navs: z.array(NavItem), navs_root_obj: z.array(NavEntry) }),
  }),
} as const;
