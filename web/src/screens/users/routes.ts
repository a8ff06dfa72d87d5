// The user screens inside an application (spec 01 section 2): granted by _user_manage_, and by _role_manage_,
// which "also gives the user routes".
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { routesOf } from '../../shell/routesOf.js';

const USERS: readonly SysNav[] = ['_user_manage_', '_role_manage_'];

const List = lazy(() => import('./UserListPage.js').then((m) => ({ default: m.UserListPage })));
const Form = lazy(() => import('./UserFormPage.js').then((m) => ({ default: m.UserFormPage })));
const Password = lazy(() => import('./UserPasswordPage.js').then((m) => ({ default: m.UserPasswordPage })));

export const userRoutes: readonly ScreenRoute[] = routesOf(T.nav.users, USERS, {
  _user_list_: List,
  _user_add_: Form,
  '_user_edit_/{id}': Form,
  '@user/password/{id}': Password,
});
