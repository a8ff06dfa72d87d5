// A tenant working inside one of its applications (/admin/{domain}/...): the fixed tenant menu and every route.
import { useParams } from 'react-router';
import { T } from '@sentra/contracts';
import { Layout } from './Layout.js';
import { tenantMenu } from './menus.js';
import { screenRoutes, routeTo } from './routeRegistry.js';
import { AppRoutes, usePageTitle } from './AppRoutes.js';
import { useLogout } from './useLogout.js';
import { TENANT, useSession } from '../session/useSession.js';
import { DOMAIN_PATTERN } from '../api/area.js';
import { NotFoundPage } from '../screens/common/NotFoundPage.js';
import { TOKEN_ROUTE_KEY } from '../screens/token/routes.js';
import { useAppInfo } from '../screens/about/useAppInfo.js';

export function TenantAppShell() {
  const { domain = '' } = useParams();
  const { session } = useSession(TENANT);
  const logout = useLogout(TENANT);
  const base = `/admin/${domain}`;
  const info = useAppInfo(domain, true);
  const title = usePageTitle(base, screenRoutes, [], info.data?.name ?? domain);
  if (!DOMAIN_PATTERN.test(domain) || info.notFound) return <NotFoundPage />;
  return (
    <Layout
      menu={tenantMenu(base)}
      title={title}
      logo={{ to: '/admin/apps', title: T.application.tenantLogoTitle }}
      caption={info.data?.name ?? domain}
      userName={session?.name}
      apiRoute={routeTo(base, TOKEN_ROUTE_KEY)}
      onLogout={logout}
    >
      <AppRoutes base={base} routes={screenRoutes} home={routeTo(base, '_dashboard_list_')} />
    </Layout>
  );
}
