// The component editor's screens, for the route registry: granted by _dashboard_manage_ like the other dashboard
// configuration screens.
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../../shell/routeRegistry.js';
import { COMPONENT_ADD_ROUTE, COMPONENT_EDIT_ROUTE } from './routeKeys.js';

const DASHBOARDS: readonly SysNav[] = ['_dashboard_manage_'];
const Editor = lazy(() => import('./ComponentEditorPage.js').then((m) => ({ default: m.ComponentEditorPage })));

export const componentEditorRoutes: readonly ScreenRoute[] = [
  { key: COMPONENT_ADD_ROUTE, title: T.nav.dashboard, grantedBy: DASHBOARDS, screen: Editor },
  { key: COMPONENT_EDIT_ROUTE, title: T.nav.dashboard, grantedBy: DASHBOARDS, screen: Editor },
];
