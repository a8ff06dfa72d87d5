// Navigation items: dashboards are navigation entries a role grants; system keys give the built-in menus.
import { z } from 'zod';
import { SYS_NAVS } from '../codes.js';

export interface NavEntry {
  id: number;
  path: string;
  label: string;
  children: NavEntry[];
}

// The id names it in the OpenAPI document's components (a recursive schema is shared there, not inlined).
export const NavEntry: z.ZodType<NavEntry> = z
  .lazy(() => z.object({ id: z.number().int(), path: z.string(), label: z.string(), children: z.array(NavEntry) }))
  .meta({ id: 'NavEntry' });

export const SysNavKey = z.enum(SYS_NAVS);

export const RoleMenu = z.object({
  navs: z.array(NavEntry),
  navs_root: z.array(SysNavKey),
  app_name: z.string(),
});
