// The tenant's platform area outside applications (/admin/apps): the menu has one entry, 'Aplikasi'.
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { OPENAPI_PATH, T } from '@sentra/contracts';
import { Layout } from './Layout.js';
import { platformMenu } from './menus.js';
import { useLogout } from './useLogout.js';
import { TENANT, useSession } from '../session/useSession.js';
import { PageLoading } from '../ui/PageLoading.js';

export function PlatformShell() {
  const { session } = useSession(TENANT);
  const logout = useLogout(TENANT);
  const { pathname } = useLocation();
  const title = pathname.endsWith('/add') ? T.appForm.title : T.application.platformMenu;
  return (
    <Layout
      menu={platformMenu()}
      title={title}
      logo={{ to: '/admin/apps', title: T.application.tenantLogoTitle }}
      userName={session?.name}
      apiHref={OPENAPI_PATH}
      onLogout={logout}
    >
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </Layout>
  );
}
