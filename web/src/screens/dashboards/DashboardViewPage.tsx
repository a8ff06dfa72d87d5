// The dashboard view by id (_dashboard_view_/{id}, opened from the list), and a granted dashboard opened from an
// application user's menu (`/{domain}/{path}`: the id comes from the menu the role gives).
import { useEffect, useRef } from 'react';
import { useLocation, useParams } from 'react-router';
import { Alert, Box } from '@mui/material';
import { contracts, T } from '@sentra/contracts';
import { liveSocket } from '../../live/socket.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { DashboardView, liveComponentsOf } from './DashboardView.js';
import { choiceOf, viewFilterOf, type ViewFilter } from './viewFilter.js';
import { joinDashboardEarly, preloadDashboardViews } from '../../cards/index.js';
import { dashboardById, loadCall, useLoadState, type LoadState } from './dashboardCalls.js';
import type { DashboardRecord, NavEntry } from '@sentra/contracts';

function ViewById({ id }: { id: number | undefined }) {
  // the live socket connects while the dashboard is fetched, so the cards' channel is joined the moment they render
  useEffect(() => void liveSocket(), []);
  /** the filter the view opens with, chosen (and its channel joined) when the record first arrived */
  const opened = useRef<{ id: number; filter: ViewFilter }>(undefined);
  /** the address's time choice (`?filter=`, `?from=&to=`) as the record arrives */
  const { search } = useLocation();
  const searchNow = useRef(search);
  searchNow.current = search;
  const { state, busy, reload } = useLoadState<DashboardRecord>(async () => {
    if (id === undefined) return { status: 'failed', notFound: true };
    const r = await dashboardById(id, contracts.dashboards.view);
    // before the page renders with the record: the cards' chunks are requested and their channel joined (the gateway
    // computes their first frames meanwhile); a reload keeps the view and its filter, so this runs once per dashboard
    if (r.status === 'ready' && opened.current?.id !== r.data.id) {
      const conf = r.data.conf_dashboard as Record<string, unknown>;
      const components = liveComponentsOf(conf);
      if (components.length > 0) {
        const choice = choiceOf(new URLSearchParams(searchNow.current));
        opened.current = { id: r.data.id, filter: viewFilterOf(choice, conf.var, Date.now()) };
        joinDashboardEarly(r.data.id, opened.current.filter);
        preloadDashboardViews(components);
      }
    }
    return r;
  }, [id]);
  return (
    <Box sx={{ position: 'relative', minHeight: 240 }}>
      {state.status === 'ready' && (
        <DashboardView
          key={state.data.id}
          dashboard={state.data}
          onRefresh={() => void reload()}
          initialFilter={opened.current?.id === state.data.id ? opened.current.filter : undefined}
        />
      )}
      {state.status === 'failed' && state.notFound && (
        <Alert severity="warning">{T.dashboards.screens.dashboardNotFound}</Alert>
      )}
      <LoadingOverlay open={busy} />
    </Box>
  );
}

export function DashboardViewPage() {
  const { id = '' } = useParams();
  const n = Number(id);
  return <ViewById id={Number.isInteger(n) && n > 0 ? n : undefined} />;
}

const findByPath = (entries: readonly NavEntry[], path: string): NavEntry | undefined => {
  for (const e of entries) {
    if (e.path === path) return e;
    const inner = findByPath(e.children, path);
    if (inner) return inner;
  }
  return undefined;
};

/** `customNavScreen`: routeKey is the dashboard's path. */
export function DashboardNavPage({ routeKey }: ScreenProps) {
  const { state } = useLoadState<number>(async (): Promise<LoadState<number>> => {
    const r = await loadCall(contracts.apps.menu);
    if (!r.ok) return { status: 'failed', notFound: false };
    const entry = findByPath(r.value.navs, routeKey);
    return entry ? { status: 'ready', data: entry.id } : { status: 'failed', notFound: true };
  }, [routeKey]);
  if (state.status === 'ready') return <ViewById id={state.data} />;
  if (state.status === 'failed' && state.notFound)
    return <Alert severity="warning">{T.dashboards.screens.dashboardNotFound}</Alert>;
  return (
    <Box sx={{ position: 'relative', minHeight: 240 }}>
      <LoadingOverlay open={state.status === 'loading'} />
    </Box>
  );
}
