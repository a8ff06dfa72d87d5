// The role screens inside an application (spec 01 section 2 route keys): the list and the wizard's five routes,
// granted by _role_manage_.
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { routesOf } from '../../shell/routesOf.js';

const ROLES: readonly SysNav[] = ['_role_manage_'];

const List = lazy(() => import('./RoleListPage.js').then((m) => ({ default: m.RoleListPage })));
const Wizard = lazy(() => import('./RoleWizardPage.js').then((m) => ({ default: m.RoleWizardPage })));

export const roleRoutes: readonly ScreenRoute[] = routesOf(T.nav.role, ROLES, {
  _role_list_: List,
  _role_add_info_: Wizard,
  _role_add_access_: Wizard,
  _role_add_sort_: Wizard,
  '_role_edit_/{id}': Wizard,
  '_role_edit_sort_/{id}': Wizard,
});
