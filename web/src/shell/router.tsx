// Every top-level route of spec 01 section 2, and the global 401 / 402 reactions of the request layer.
// Screens inside an application are not listed here: they come from routeRegistry.ts.
import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { setGlobalHandlers } from '../api/client.js';
import { loginPathOf } from '../api/area.js';
import { sessionActor } from '../session/live.js';
import { TENANT, member, useSession } from '../session/useSession.js';
import { PageLoading } from '../ui/PageLoading.js';
import { RequireSession } from './guards.js';

const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));

const TenantSignIn = named(() => import('../screens/signin/TenantSignInPage.js'), 'TenantSignInPage');
const AppSignIn = named(() => import('../screens/signin/AppSignInPage.js'), 'AppSignInPage');
const Registration = named(() => import('../screens/registration/RegistrationPage.js'), 'RegistrationPage');
const PlatformShell = named(() => import('./PlatformShell.js'), 'PlatformShell');
const AppList = named(() => import('../screens/apps/AppListPage.js'), 'AppListPage');
const AddApp = named(() => import('../screens/apps/AddAppPage.js'), 'AddAppPage');
const TenantAppShell = named(() => import('./TenantAppShell.js'), 'TenantAppShell');
const MemberAppShell = named(() => import('./MemberAppShell.js'), 'MemberAppShell');
const BillingExpired = named(() => import('../screens/billing/BillingExpiredPage.js'), 'BillingExpiredPage');
const NotFound = named(() => import('../screens/common/NotFoundPage.js'), 'NotFoundPage');
const demo = (name: 'DemoSignIn' | 'DemoRegister' | 'DemoForget' | 'DemoInvoice' | 'DemoTest') =>
  named(() => import('../screens/demo/DemoPages.js'), name);

const page = (C: ComponentType) => (
  <Suspense fallback={<PageLoading />}>
    <C />
  </Suspense>
);

/** The route's lazy page, named in its `handle` so the first render can wait for its chunk (shell/preloadRoute.ts). */
export interface PageHandle {
  page: ComponentType;
}
const paged = (C: ComponentType) => ({ element: page(C), handle: { page: C } satisfies PageHandle });

/** The root: the tenant's application list when signed in, else the sign-in. */
function Root() {
  const { authenticated } = useSession(TENANT);
  return <Navigate to={authenticated ? '/admin/apps' : '/admin/login'} replace />;
}

const toRoot = <Navigate to="/" replace />;
/** old paths of the previous console */
const LEGACY_PATHS = ['app', 'apps', 'lora_gates', 'application', 'applications'];

export const router = createBrowserRouter([
  { path: '/', element: <Root /> },
  { path: '/admin', element: toRoot },
  { path: '/admin/login', ...paged(TenantSignIn) },
  { path: '/admin/registration', ...paged(Registration) },
  { path: '/admin/login/registration', element: <Navigate to="/admin/registration" replace /> },
  {
    path: '/admin/apps',
    element: <RequireSession principal={TENANT}>{page(PlatformShell)}</RequireSession>,
    handle: { page: PlatformShell } satisfies PageHandle,
    children: [
      { index: true, element: <AppList /> },
      { path: 'list', element: <AppList /> },
      { path: 'add', element: <AddApp /> },
      { path: '*', element: <Navigate to="/admin/apps" replace /> },
    ],
  },
  {
    path: '/admin/:domain/*',
    element: <RequireSession principal={TENANT}>{page(TenantAppShell)}</RequireSession>,
    handle: { page: TenantAppShell } satisfies PageHandle,
  },
  { path: '/expire', ...paged(BillingExpired) },
  { path: '/pages/signin', ...paged(demo('DemoSignIn')) },
  { path: '/pages/register', ...paged(demo('DemoRegister')) },
  { path: '/pages/forget', ...paged(demo('DemoForget')) },
  { path: '/pages/404', ...paged(NotFound) },
  { path: '/pages/invoice', ...paged(demo('DemoInvoice')) },
  { path: '/pages/test', ...paged(demo('DemoTest')) },
  ...LEGACY_PATHS.map((p) => ({ path: `/${p}/*`, element: toRoot })),
  { path: '/:domain/login', ...paged(AppSignIn) },
  { path: '/:domain/*', ...paged(MemberAppShell) },
  { path: '*', element: <Navigate to="/admin/login" replace /> },
]);

setGlobalHandlers({
  onUnauthorized(area) {
    // the session is no longer valid: forget it and sign in again, coming back here afterwards
    sessionActor(area.isTenant || !area.domain ? TENANT : member(area.domain)).send({ type: 'EXPIRED' });
    const { pathname, search } = window.location;
    if (pathname.endsWith('/login')) return;
    void router.navigate(`${loginPathOf(area)}?redirectURL=${encodeURIComponent(pathname + search)}`, {
      replace: true,
    });
  },
  onPaymentRequired({ isTenant }) {
    void router.navigate(`/expire?isTenant=${isTenant}`, { replace: true });
  },
});
