// The Refresh Token page: route key @token (not in the spec's list), reached from the top bar's API entry; every
// principal of the application has their own token, so every signed-in principal gets the route.
import { lazy } from 'react';
import { T } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

export const TOKEN_ROUTE_KEY = '@token';

const Page = lazy(() => import('./RefreshTokenPage.js').then((m) => ({ default: m.RefreshTokenPage })));

export const tokenRoutes: readonly ScreenRoute[] = [
  { key: TOKEN_ROUTE_KEY, title: T.refreshToken.title, grantedBy: 'everyone', screen: Page },
];
