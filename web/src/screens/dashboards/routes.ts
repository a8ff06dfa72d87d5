// The dashboard screens inside an application (spec 02 section 2): list, add, edit, the edit-layout view with its
// component routes, the view by id, and the view of a dashboard granted as a custom menu entry (customNavScreen).
// The component editor ({path}/add, {path}/edit/{componentKey}) lives in editor/ and is listed here.
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { ROUTES } from './routeKeys.js';
import { componentEditorRoutes } from './editor/routes.js';

const MANAGE: readonly SysNav[] = ['_dashboard_manage_'];

const List = lazy(() => import('./DashboardListPage.js').then((m) => ({ default: m.DashboardListPage })));
const Form = lazy(() => import('./DashboardFormPage.js').then((m) => ({ default: m.DashboardFormPage })));
const LayoutView = lazy(() => import('./DashboardLayoutPage.js').then((m) => ({ default: m.DashboardLayoutPage })));
const View = lazy(() => import('./DashboardViewPage.js').then((m) => ({ default: m.DashboardViewPage })));
const Manual = lazy(() => import('./ManualComponentPage.js').then((m) => ({ default: m.ManualComponentPage })));

/** The view of a dashboard opened from an application user's menu (`/{domain}/{path}`). */
export const DashboardNavScreen = lazy(() =>
  import('./DashboardViewPage.js').then((m) => ({ default: m.DashboardNavPage })),
);

export const dashboardRoutes: readonly ScreenRoute[] = [
  { key: ROUTES.list, title: T.nav.dashboard, grantedBy: MANAGE, screen: List },
  { key: ROUTES.add, title: T.nav.dashboard, grantedBy: MANAGE, screen: Form },
  { key: ROUTES.edit, title: T.nav.dashboard, grantedBy: MANAGE, screen: Form },
  { key: ROUTES.conf, title: T.nav.dashboard, grantedBy: MANAGE, screen: LayoutView },
  { key: ROUTES.view, title: T.nav.dashboard, grantedBy: MANAGE, screen: View },
  { key: ROUTES.manualAdd, title: T.nav.dashboard, grantedBy: MANAGE, screen: Manual },
  { key: ROUTES.manualEdit, title: T.nav.dashboard, grantedBy: MANAGE, screen: Manual },
  // the component editor (screens/dashboards/editor): {path}/add and {path}/edit/{componentKey}
  ...componentEditorRoutes,
];
