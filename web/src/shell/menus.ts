// The side menus of spec 01 section 2 "Menus": the tenant's fixed menu, and the application user's menu built from
// the role's navigation map (navs_root system keys and navs custom entries).
import { RULE_ACCESS, T, type NavEntry } from '@sentra/contracts';
import { routeTo } from './routeRegistry.js';

export type MenuIcon =
  'apps' | 'dashboard' | 'role' | 'users' | 'devices' | 'tags' | 'rules' | 'tasks' | 'credentials' | 'about' | 'custom';

export interface MenuEntry {
  id: string;
  label: string;
  /** absolute address */
  to: string;
  icon: MenuIcon;
  children?: MenuEntry[];
}

export interface MenuModel {
  main: MenuEntry[];
  /** the separate system list (Tugas of an application user) */
  system: MenuEntry[];
}

const entry = (base: string, key: string, label: string, icon: MenuIcon): MenuEntry => ({
  id: key,
  label,
  to: routeTo(base, key),
  icon,
});

/** The tenant's menu inside an application, in the spec's order. */
export function tenantMenu(base: string): MenuModel {
  return {
    main: [
      entry(base, '_dashboard_list_', T.nav.dashboard, 'dashboard'),
      entry(base, '_role_list_', T.nav.role, 'role'),
      entry(base, '_user_list_', T.nav.users, 'users'),
      entry(base, '_device_list_', T.nav.devices, 'devices'),
      entry(base, '_tag_list_', T.nav.tags, 'tags'),
      entry(base, '_rule_list_', T.nav.rules, 'rules'),
      entry(base, '_task_list_', T.nav.tasks, 'tasks'),
      entry(base, '@credentials', T.nav.credentials, 'credentials'),
      entry(base, '@about', T.nav.about, 'about'),
    ],
    system: [],
  };
}

/** The platform menu of the tenant area outside applications: one entry, 'Aplikasi'. */
export function platformMenu(): MenuModel {
  return { main: [{ id: 'apps', label: T.application.platformMenu, to: '/admin/apps', icon: 'apps' }], system: [] };
}

/** Custom navigation entries: paths without an underscore (system keys all have one). */
export const isCustomPath = (path: string) => path.length > 0 && !path.includes('_');

function customEntries(base: string, navs: readonly NavEntry[]): MenuEntry[] {
  return navs
    .filter((n) => isCustomPath(n.path))
    .map((n) => {
      const children = customEntries(base, n.children ?? []);
      return {
        id: `nav:${n.id}`,
        label: n.label,
        to: `${base}/${n.path}`,
        icon: 'custom' as const,
        ...(children.length ? { children } : {}),
      };
    });
}

/** The application user's menu from GET /service/web/application/nav/list/role. */
export function memberMenu(base: string, menu: { navs: readonly NavEntry[]; navs_root: readonly string[] }): MenuModel {
  const has = (k: string) => menu.navs_root.includes(k);
  const main: MenuEntry[] = [];
  if (has('_dashboard_manage_')) main.push(entry(base, '_dashboard_list_', T.nav.dashboardMember, 'dashboard'));
  if (has('_role_manage_')) main.push(entry(base, '_role_list_', T.nav.role, 'role'));
  if (has('_role_manage_') || has('_user_manage_')) main.push(entry(base, '_user_list_', T.nav.users, 'users'));
  if (has('_device_manage_') || has('_device_list_')) main.push(entry(base, '_device_list_', T.nav.devices, 'devices'));
  // rules come with device management, as the server's rule calls (RULE_ACCESS)
  if (RULE_ACCESS.navs.some(has)) main.push(entry(base, '_rule_list_', T.nav.rules, 'rules'));
  main.push(...customEntries(base, menu.navs));
  const system = has('_task_list_') ? [entry(base, '_task_list_', T.nav.tasks, 'tasks')] : [];
  return { main, system };
}

/** Every custom entry, depth first (each one gets a route). */
export function flattenEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [e, ...flattenEntries(e.children ?? [])]);
}

/** The default redirect: the first granted entry (for a custom entry with children, its first leaf). */
export function firstEntry(model: MenuModel): MenuEntry | undefined {
  const first = (list: readonly MenuEntry[]): MenuEntry | undefined => {
    const e = list[0];
    return e?.children?.length ? first(e.children) : e;
  };
  return first(model.main) ?? first(model.system);
}
