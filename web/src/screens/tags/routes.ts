// The tag category screens (spec 03 section 2.8): tenant-only, as the tenant menu alone has "Penanda"
// (docs/decisions/web.md).
import { lazy } from 'react';
import { T } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { routesOf } from '../../shell/routesOf.js';

const List = lazy(() => import('./TagListPage.js').then((m) => ({ default: m.TagListPage })));
const Add = lazy(() => import('./TagAddPage.js').then((m) => ({ default: m.TagAddPage })));

export const tagRoutes: readonly ScreenRoute[] = routesOf(T.nav.tags, [], { _tag_list_: List, _tag_add_: Add });
