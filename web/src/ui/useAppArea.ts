// Where a screen inside an application lives: its domain, whether a tenant works there, and addresses of route keys
// in the same area (`/admin/{domain}/...` for a tenant, `/{domain}/...` for an application user).
import { useMemo } from 'react';
import { useLocation, useParams } from 'react-router';
import { areaOf } from '../api/area.js';
import { routeTo } from '../shell/routeRegistry.js';

export interface AppArea {
  domain: string;
  isTenant: boolean;
  /** `/admin/{domain}` or `/{domain}` */
  base: string;
  /** the address of a route key in this area: `to('_user_edit_/{id}', { id: 4 })` */
  to(key: string, params?: Record<string, string | number>): string;
}

export function useAppArea(): AppArea {
  const { domain = '' } = useParams();
  const { pathname } = useLocation();
  const isTenant = areaOf(pathname).isTenant;
  return useMemo(() => {
    const base = isTenant ? `/admin/${domain}` : `/${domain}`;
    return { domain, isTenant, base, to: (key, params) => routeTo(base, key, params) };
  }, [domain, isTenant]);
}
