// The routes inside one application area, generated from the route registry (and, for application users, the
// custom navigation entries granted); the index redirects to the first granted entry. A screen of the console the
// role is not granted says so ("Akses ditolak", with the way back); only a path no screen has is the 404.
import { Suspense } from 'react';
import { Navigate, Route, Routes, matchPath, useLocation } from 'react-router';
import { customNavScreen, routePath, type ScreenRoute } from './routeRegistry.js';
import type { MenuEntry } from './menus.js';
import { PageLoading } from '../ui/PageLoading.js';
import { NotFoundPage } from '../screens/common/NotFoundPage.js';
import { AccessDeniedPage } from '../screens/common/AccessDeniedPage.js';

export interface AppRoutesProps {
  base: string;
  routes: readonly ScreenRoute[];
  /** the console's other screens: routed to "Akses ditolak" rather than to the 404 */
  denied?: readonly ScreenRoute[];
  /** custom navigation entries (dashboards), each routed at its own path */
  custom?: readonly MenuEntry[];
  /** the default redirect; absent = nothing granted */
  home?: string;
  empty?: React.ReactNode;
}

export function AppRoutes({ base, routes, denied = [], custom = [], home, empty }: AppRoutesProps) {
  const CustomScreen = customNavScreen;
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route index element={home ? <Navigate to={home} replace /> : empty} />
        {routes.map(({ key, screen: Screen }) => (
          <Route key={key} path={routePath(key)} element={<Screen routeKey={key} />} />
        ))}
        {denied.map(({ key }) => (
          <Route key={key} path={routePath(key)} element={<AccessDeniedPage home={home ?? base} />} />
        ))}
        {custom.map((e) => {
          const path = e.to.slice(base.length + 1);
          return <Route key={e.id} path={path} element={<CustomScreen routeKey={path} />} />;
        })}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

/** The top bar title of the current page. */
export function usePageTitle(
  base: string,
  routes: readonly ScreenRoute[],
  custom: readonly MenuEntry[],
  fallback: string,
): string {
  const { pathname } = useLocation();
  for (const r of routes) if (matchPath({ path: `${base}/${routePath(r.key)}` }, pathname)) return r.title;
  for (const e of custom) if (matchPath({ path: e.to }, pathname)) return e.label;
  return fallback;
}
