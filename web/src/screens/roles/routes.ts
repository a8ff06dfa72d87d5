// The role screens inside an application (spec 01 section 2 route keys): the list and the wizard's five routes,
// granted by _role_manage_.
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const ROLES: readonly SysNav[] = ['_role_manage_'];

const List = lazy(() => import('./RoleListPage.js').then((m) => ({ default: m.RoleListPage })));
const Wizard = lazy(() => import('./RoleWizardPage.js').then((m) => ({ default: m.RoleWizardPage })));

export const roleRoutes: readonly ScreenRoute[] = [
  { key: '_role_list_', title: T.nav.role, grantedBy: ROLES, screen: List },
  { key: '_role_add_info_', title: T.nav.role, grantedBy: ROLES, screen: Wizard },
  { key: '_role_add_access_', title: T.nav.role, grantedBy: ROLES, screen: Wizard },
  { key: '_role_add_sort_', title: T.nav.role, grantedBy: ROLES, screen: Wizard },
  { key: '_role_edit_/{id}', title: T.nav.role, grantedBy: ROLES, screen: Wizard },
  { key: '_role_edit_sort_/{id}', title: T.nav.role, grantedBy: ROLES, screen: Wizard },
];
