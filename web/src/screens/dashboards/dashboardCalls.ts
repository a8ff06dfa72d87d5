// The dashboard screens' calls and the routes between them (spec 02 section 2), in one place, over the one way a screen
// calls the API (api/call.ts).
import { useCallback, useState } from 'react';
import { contracts, T, type CallDef, type DashboardRecord, type InputOf } from '@sentra/contracts';
import { callAndNotify, useLoad, type ShownWhen } from '../../api/call.js';
import type { MessageRules } from '../../api/outcome.js';

export { ROUTES } from './routeKeys.js';

/** "A failure of any data fetch stops the loading indicator and shows nothing else" — beyond the platform-wide texts. */
const platformFailure: ShownWhen = (r) => r.failure === 'network' || r.failure === 'timeout' || r.code >= 500;

/** A dashboard screen's data fetch: its output, or a failure shown only by the platform-wide texts. */
export const loadCall = <D extends CallDef>(
  def: D,
  input?: InputOf<D>,
  rules: MessageRules | string = T.shell.loadFailed,
) => callAndNotify(def, input, rules, { shown: platformFailure });

export type LoadState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; notFound: boolean };

/** A dashboard by its path (the config routes carry the path): the id from nav/list, then nav/dashboard/{id}. */
export async function dashboardByPath(path: string): Promise<LoadState<DashboardRecord>> {
  const list = await loadCall(contracts.navs.list);
  if (!list.ok) return { status: 'failed', notFound: false };
  const item = list.value.navs.find((n) => n.path === path);
  if (!item) return { status: 'failed', notFound: true };
  return dashboardById(item.id, contracts.dashboards.dashboard);
}

export async function dashboardById(
  id: number,
  entry: typeof contracts.dashboards.dashboard | typeof contracts.dashboards.view | typeof contracts.dashboards.get,
): Promise<LoadState<DashboardRecord>> {
  const r = await loadCall(entry, { id });
  if (r.ok) return { status: 'ready', data: r.value.data };
  return { status: 'failed', notFound: r.status === 404 || r.status === 403 };
}

/** Loads with `load` on mount and on `reload()`; the previous data stays visible while reloading. */
export function useLoadState<T>(load: () => Promise<LoadState<T>>, deps: readonly unknown[]) {
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
  useLoad(
    () => {
      setBusy(true);
      return run();
    },
    (next) => {
      setState(next);
      setBusy(false);
    },
    [run],
  );
  return { state, busy, reload };
}
