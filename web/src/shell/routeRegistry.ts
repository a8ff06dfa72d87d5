// The screens inside an application, keyed by the spec's route keys (spec 01 section 2 "Route conventions").
// A domain adds its screens here, in one place: replace its `notBuilt(...)` lines by the entries of its own
// `screens/<area>/routes.ts`. The shells derive every route, title and application-user grant from this list.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import { DashboardNavScreen, dashboardRoutes } from '../screens/dashboards/routes.js';
import { roleRoutes } from '../screens/roles/routes.js';
import { userRoutes } from '../screens/users/routes.js';
import { credentialsRoutes } from '../screens/credentials/routes.js';
import { tokenRoutes } from '../screens/token/routes.js';
import { deviceRoutes } from '../screens/devices/routes.js';
import { deviceDataRoutes } from '../screens/device-data/routes.js';
import { deviceStateRoutes } from '../screens/device-states/routes.js';
import { tagRoutes } from '../screens/tags/routes.js';
import { loraRoutes } from '../screens/lora/routes.js';
import { ruleRoutes } from '../screens/rules/routes.js';
import { taskRoutes } from '../screens/tasks/routes.js';

export interface ScreenProps {
  /** the spec's route key this screen is mounted under */
  routeKey: string;
}

export interface ScreenRoute {
  /** the spec's route key; `{name}` segments are route parameters (`_role_edit_/{id}`) */
  key: string;
  /** the top bar's page title */
  title: string;
  /** system navigation keys that grant it to an application user (any of); empty = tenants only; 'everyone' = every
   * signed-in principal (their own things, such as the refresh token) */
  grantedBy: readonly SysNav[] | 'everyone';
  screen: LazyExoticComponent<ComponentType<ScreenProps>>;
}

/** The route separator of the spec's keys. */
export const ROUTE_SEPARATOR = '/';

const NotBuilt = lazy(() => import('../screens/common/NotBuiltPage.js').then((m) => ({ default: m.NotBuiltPage })));
const About = lazy(() => import('../screens/about/AboutPage.js').then((m) => ({ default: m.AboutPage })));

/** A destination whose screen belongs to a later issue: routed, titled, and clearly labelled as not built yet. */
const notBuilt = (key: string, title: string, grantedBy: readonly SysNav[] = []): ScreenRoute => ({
  key,
  title,
  grantedBy,
  screen: NotBuilt,
});

const DEVICES: readonly SysNav[] = ['_device_manage_', '_device_list_'];

export const screenRoutes: readonly ScreenRoute[] = [
  // dashboards (spec 02)
  ...dashboardRoutes,
  // roles (spec 01)
  ...roleRoutes,
  // users (spec 01)
  ...userRoutes,
  // devices, tags, rules, tasks (spec 03)
  ...deviceRoutes,
  // the device data and state screens of the telemetry issue (spec 03 sections 2.5, 2.6)
  ...deviceDataRoutes,
  ...deviceStateRoutes,
  ...tagRoutes,
  ...loraRoutes,
  ...ruleRoutes,
  ...taskRoutes,
  // credentials (spec 01)
  ...credentialsRoutes,
  // application info
  { key: '@about', title: T.about.title, grantedBy: [], screen: About },
  // the principal's own refresh token (the top bar's API entry)
  ...tokenRoutes,
];

/** The screen of a custom navigation entry (a dashboard granted to a role, spec 02). */
export const customNavScreen: LazyExoticComponent<ComponentType<ScreenProps>> = DashboardNavScreen;

/** React Router path of a route key: `_role_edit_/{id}` → `_role_edit_/:id`. */
export const routePath = (key: string) => key.replace(/\{(\w+)\}/g, ':$1');

/** Address of a route key inside an application area (`/admin/{domain}` or `/{domain}`). */
export function routeTo(base: string, key: string, params: Record<string, string | number> = {}): string {
  const filled = key.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
  return `${base}${ROUTE_SEPARATOR}${filled}`;
}

/** The routes an application user's role grants (a tenant gets every route). */
export function grantedRoutes(routes: readonly ScreenRoute[], navsRoot: readonly string[] | 'all'): ScreenRoute[] {
  if (navsRoot === 'all') return [...routes];
  return routes.filter((r) => r.grantedBy === 'everyone' || r.grantedBy.some((n) => navsRoot.includes(n)));
}
