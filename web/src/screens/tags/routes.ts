// The tag category screens (spec 03 section 2.8): tenant-only, as the tenant menu alone has "Penanda"
// (docs/decisions/web.md).
import { lazy } from 'react';
import { T } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const List = lazy(() => import('./TagListPage.js').then((m) => ({ default: m.TagListPage })));
const Add = lazy(() => import('./TagAddPage.js').then((m) => ({ default: m.TagAddPage })));

export const tagRoutes: readonly ScreenRoute[] = [
  { key: '_tag_list_', title: T.nav.tags, grantedBy: [], screen: List },
  { key: '_tag_add_', title: T.nav.tags, grantedBy: [], screen: Add },
];
