// Loads an application's info (GET /service/web/application/get/domain/{domain}) for the About page and the shell.
import { useEffect, useState } from 'react';
import { contracts, type OutputOf } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { DOMAIN_PATTERN } from '../../api/area.js';

export type AppInfo = OutputOf<typeof contracts.apps.getByDomain>['data'];

export function useAppInfo(domain: string, isTenant: boolean) {
  const [state, setState] = useState<{ data: AppInfo | null; loading: boolean; notFound: boolean; failed: boolean }>({
    data: null,
    loading: true,
    notFound: false,
    failed: false,
  });
  useEffect(() => {
    if (!DOMAIN_PATTERN.test(domain)) return;
    let live = true;
    setState({ data: null, loading: true, notFound: false, failed: false });
    void api.call(contracts.apps.getByDomain, { domain }, { isTenant, domain }).then((r) => {
      if (!live) return;
      if (isOk(r)) setState({ data: r.body.data, loading: false, notFound: false, failed: false });
      else setState({ data: null, loading: false, notFound: r.code === 404, failed: r.code !== 404 });
    });
    return () => {
      live = false;
    };
  }, [domain, isTenant]);
  return state;
}
