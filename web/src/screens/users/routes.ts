// The user screens inside an application (spec 01 section 2): granted by _user_manage_, and by _role_manage_,
// which "also gives the user routes".
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const USERS: readonly SysNav[] = ['_user_manage_', '_role_manage_'];

const List = lazy(() => import('./UserListPage.js').then((m) => ({ default: m.UserListPage })));
const Form = lazy(() => import('./UserFormPage.js').then((m) => ({ default: m.UserFormPage })));
const Password = lazy(() => import('./UserPasswordPage.js').then((m) => ({ default: m.UserPasswordPage })));

export const userRoutes: readonly ScreenRoute[] = [
  { key: '_user_list_', title: T.nav.users, grantedBy: USERS, screen: List },
  { key: '_user_add_', title: T.nav.users, grantedBy: USERS, screen: Form },
  { key: '_user_edit_/{id}', title: T.nav.users, grantedBy: USERS, screen: Form },
  { key: '@user/password/{id}', title: T.nav.users, grantedBy: USERS, screen: Password },
];
