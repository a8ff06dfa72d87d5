// The dashboard screens' calls and the routes between them (spec 02 section 2), in one place.
import { useCallback, useEffect, useState } from 'react';
import { contracts, T, type DashboardRecord } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk, type ApiResult } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { notices } from '../../ui/snackbar/notices.js';

export { ROUTES } from './routeKeys.js';

/** "A failure of any data fetch stops the loading indicator and shows nothing else" — beyond the platform-wide texts. */
export function reportLoadFailure(r: ApiResult<unknown>): void {
  if (r.failure === 'network' || r.failure === 'timeout' || r.code >= 500)
    notices.error(failureMessage(r, { fallback: T.shell.loadFailed }));
}

export type LoadState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; notFound: boolean };

/** A dashboard by its path (the config routes carry the path): the id from nav/list, then nav/dashboard/{id}. */
export async function dashboardByPath(path: string): Promise<LoadState<DashboardRecord>> {
  const list = await api.call(contracts.navs.list);
  if (!isOk(list)) {
    reportLoadFailure(list);
    return { status: 'failed', notFound: false };
  }
  const item = list.body.navs.find((n) => n.path === path);
  if (!item) return { status: 'failed', notFound: true };
  return dashboardById(item.id, contracts.dashboards.dashboard);
}

export async function dashboardById(
  id: number,
  entry: typeof contracts.dashboards.dashboard | typeof contracts.dashboards.view | typeof contracts.dashboards.get,
): Promise<LoadState<DashboardRecord>> {
  const r = await api.call(entry, { id });
  if (isOk(r)) return { status: 'ready', data: r.body.data };
  reportLoadFailure(r);
  return { status: 'failed', notFound: r.code === 404 || r.code === 403 };
}

/** Loads with `load` on mount and on `reload()`; the previous data stays visible while reloading. */
export function useLoad<T>(load: () => Promise<LoadState<T>>, deps: readonly unknown[]) {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [busy, setBusy] = useState(true);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    setBusy(true);
    const next = await run();
    setState((prev) => (next.status === 'failed' && prev.status === 'ready' ? prev : next));
    setBusy(false);
  }, [run]);
  useEffect(() => {
    let live = true;
    setBusy(true);
    void run().then((next) => {
      if (!live) return;
      setState(next);
      setBusy(false);
    });
    return () => {
      live = false;
    };
  }, [run]);
  return { state, busy, reload };
}
