// An application user's area (/{domain}/...): the menu and the routes come from the role's navigation map
// (GET /service/web/application/nav/list/role); the first granted entry is the default page.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { Alert, Box, Button, Typography } from '@mui/material';
import { contracts, T, type OutputOf } from '@sentra/contracts';
import { Layout } from './Layout.js';
import { firstEntry, flattenEntries, memberMenu } from './menus.js';
import { grantedRoutes, routeTo, screenRoutes } from './routeRegistry.js';
import { TOKEN_ROUTE_KEY } from '../screens/token/routes.js';
import { AppRoutes, usePageTitle } from './AppRoutes.js';
import { RequireSession } from './guards.js';
import { useLogout } from './useLogout.js';
import { member, useSession } from '../session/useSession.js';
import { api } from '../api/client.js';
import { isOk } from '../api/request.js';
import { DOMAIN_PATTERN } from '../api/area.js';
import { PageLoading } from '../ui/PageLoading.js';
import { GrantsProvider } from './grants.js';

type RoleMenu = OutputOf<typeof contracts.apps.menu>;

function useRoleMenu(domain: string) {
  const [menu, setMenu] = useState<RoleMenu | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async () => {
    setFailed(false);
    const r = await api.call(contracts.apps.menu, {}, { isTenant: false, domain });
    if (isOk(r)) setMenu(r.body);
    else setFailed(true);
  }, [domain]);
  useEffect(() => {
    void load();
  }, [load]);
  return { menu, failed, reload: load };
}

function MemberArea({ domain }: { domain: string }) {
  const principal = member(domain);
  const { session } = useSession(principal);
  const logout = useLogout(principal);
  const { menu, failed, reload } = useRoleMenu(domain);
  const base = `/${domain}`;
  const model = useMemo(() => (menu ? memberMenu(base, menu) : { main: [], system: [] }), [base, menu]);
  const routes = useMemo(() => (menu ? grantedRoutes(screenRoutes, menu.navs_root) : []), [menu]);
  const routeKeys = useMemo(() => new Set(routes.map((r) => r.key)), [routes]);
  const denied = useMemo(() => screenRoutes.filter((r) => !routeKeys.has(r.key)), [routeKeys]);
  const custom = useMemo(() => flattenEntries(model.main).filter((e) => e.icon === 'custom'), [model]);
  const title = usePageTitle(base, routes, custom, menu?.app_name ?? domain);

  if (failed) {
    return (
      <Box sx={{ p: 4 }}>
        <Alert severity="error" action={<Button onClick={() => void reload()}>{T.shell.retry}</Button>}>
          {T.shell.loadFailed}
        </Alert>
      </Box>
    );
  }
  if (!menu) return <PageLoading />;
  return (
    <Layout
      menu={model}
      title={title}
      logo={{ to: base, title: menu.app_name }}
      caption={menu.app_name}
      userName={session?.name}
      apiRoute={routeTo(base, TOKEN_ROUTE_KEY)}
      onLogout={logout}
    >
      <GrantsProvider keys={routeKeys}>
        <AppRoutes
          base={base}
          routes={routes}
          denied={denied}
          custom={custom}
          home={firstEntry(model)?.to}
          empty={
            <Typography color="text.secondary" sx={{ p: 2 }}>
              {T.shell.noMenu}
            </Typography>
          }
        />
      </GrantsProvider>
    </Layout>
  );
}

export function MemberAppShell() {
  const { domain = '' } = useParams();
  // a first segment that cannot be a domain is an unknown path: it falls back to the sign-in
  if (!DOMAIN_PATTERN.test(domain)) return <Navigate to="/admin/login" replace />;
  return (
    <RequireSession principal={member(domain)}>
      <MemberArea key={domain} domain={domain} />
    </RequireSession>
  );
}
