// The dashboard view (spec 02 section 2 "Dashboard view"): a header with refresh and the time filter, then either the
// custom URL page in a frame or the static grid of cards.
import { useCallback, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { T, type DashboardRecord } from '@sentra/contracts';
import { DashboardGrid } from './DashboardGrid.js';
import { LiveDashboard, liveCardRenderer } from '../../cards/index.js';
import { TimeZoomContext } from '../../dashboards/live/timeZoom.js';
import { DeviceLinksContext, type DeviceLinks } from '../../cards/common/deviceLinks.js';
import { useCanReach } from '../../shell/grants.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceRoute } from '../devices/deviceRoutes.js';
import { componentsOf, liveSettingsOf } from './gridLayout.js';
import { usePageTitle } from '../../shell/pageTitle.js';
import { TimeRangePicker } from './TimeRangePicker.js';
import { zoomedOut } from './timeRange.js';
import { choiceOf, filterVariables, searchOf, viewFilterOf, type ViewChoice, type ViewFilter } from './viewFilter.js';

const s = T.dashboards.screens;

/** An absolute range as the address writes it (epoch ms, Grafana's form). */
const absolute = (start: number, end: number): ViewChoice => ({
  kind: 'range',
  range: { from: String(Math.round(start)), to: String(Math.round(end)) },
});

/** A card's link to a device: its "Daftar Sensor" screen, for a principal who may open it. */
function useDeviceLinks(): DeviceLinks | null {
  const area = useAppArea();
  const navigate = useNavigate();
  const canReach = useCanReach();
  const allowed = canReach(DeviceRoute.dataDetail);
  return useMemo(() => {
    if (!allowed) return null;
    return (id: number) => {
      const href = area.to(DeviceRoute.dataDetail, { id });
      return { href, open: () => void navigate(href) };
    };
  }, [allowed, area, navigate]);
}

/**
 * The view's filter from the address (`?filter=`, `?from=&to=`; none: the dashboard's default), resolved again when
 * the address changes or the view refreshes (a relative range moves up to now). `initial`: the filter the screen
 * already joined the cards' channel with for this address.
 */
function useAddressFilter(vars: unknown, initial: ViewFilter | undefined) {
  const [search, setSearch] = useSearchParams();
  const key = search.toString();
  const [tick, setTick] = useState(0);
  const [held, setHeld] = useState(() => ({
    key,
    tick,
    filter: initial ?? viewFilterOf(choiceOf(search), vars, Date.now()),
  }));
  let filter = held.filter;
  if (held.key !== key || held.tick !== tick) {
    filter = viewFilterOf(choiceOf(search), vars, Date.now());
    setHeld({ key, tick, filter });
  }
  /** a new choice is a new entry in the browser's history: back returns to the one before */
  const choose = useCallback((c: ViewChoice) => setSearch(searchOf(c)), [setSearch]);
  return { filter, choose, refresh: () => setTick((n) => n + 1) };
}

/** The page a custom-URL dashboard shows in a frame instead of cards. */
const customUrlOf = (conf: Record<string, unknown>) =>
  conf.type === 'custom_url' && typeof conf.custom_url === 'string' && conf.custom_url ? conf.custom_url : undefined;

/** The cards a dashboard view draws live (none for a custom-URL dashboard). */
export const liveComponentsOf = (conf: Record<string, unknown>) => (customUrlOf(conf) ? [] : componentsOf(conf));

/**
 * `initialFilter`: the filter the view opens with when the screen chose it already (it joined the channel of that
 * filter as the record arrived); otherwise the dashboard's default, as of now.
 */
export function DashboardView({
  dashboard,
  onRefresh,
  initialFilter,
}: {
  dashboard: DashboardRecord;
  onRefresh(): void;
  initialFilter?: ViewFilter;
}) {
  const conf = dashboard.conf_dashboard as Record<string, unknown>;
  const components = useMemo(() => componentsOf(conf), [conf]);
  const { filter, choose, refresh: refreshRange } = useAddressFilter(conf.var, initialFilter);
  const filters = useMemo(() => filterVariables(conf.var), [conf.var]);
  const customUrl = customUrlOf(conf);
  usePageTitle(dashboard.label);
  /** refresh: the record again, and a relative range ("1 jam terakhir") moved up to now */
  const refresh = () => {
    refreshRange();
    onRefresh();
  };
  const zoom = useCallback((start: number, end: number) => choose(absolute(start, end)), [choose]);
  const deviceLinks = useDeviceLinks();

  return (
    <Box data-testid="dashboard-view" data-filter={filter.kind === 'filter' ? filter.key : 'range'}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }} noWrap>
            {dashboard.label}
          </Typography>
          {dashboard.desc && (
            <Typography color="text.secondary" variant="body2">
              {dashboard.desc}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          {!customUrl && (
            <TimeRangePicker
              filters={filters}
              filter={filter}
              onChoose={choose}
              onZoomOut={
                filter.kind === 'range'
                  ? () => {
                      const z = zoomedOut(filter.start, filter.end, Date.now());
                      choose(absolute(z.start, z.end));
                    }
                  : undefined
              }
            />
          )}
          {customUrl && (
            <Button href={customUrl} target="_blank" rel="noopener noreferrer" startIcon={<OpenInNewIcon />}>
              {s.openInTab}
            </Button>
          )}
          <Tooltip title={s.refresh}>
            <IconButton aria-label={s.refresh} onClick={refresh}>
              <RefreshIcon />
            </IconButton>
          </Tooltip>
        </Stack>
      </Stack>
      {customUrl ? (
        <Box
          component="iframe"
          title={dashboard.label}
          src={customUrl}
          data-testid="dashboard-frame"
          sx={{
            width: '100%',
            height: 'calc(100vh - 200px)',
            minHeight: 400,
            border: 1,
            borderColor: 'divider',
            borderRadius: 2,
            bgcolor: 'background.paper',
          }}
        />
      ) : components.length === 0 ? (
        <Alert severity="info" variant="outlined">
          {s.emptyDashboard}
        </Alert>
      ) : (
        <LiveDashboard {...liveSettingsOf(dashboard, conf)} filter={filter} components={components}>
          <TimeZoomContext.Provider value={zoom}>
            <DeviceLinksContext.Provider value={deviceLinks}>
              <DashboardGrid components={components} mode="view" renderCard={liveCardRenderer(dashboard.id)} />
            </DeviceLinksContext.Provider>
          </TimeZoomContext.Provider>
        </LiveDashboard>
      )}
    </Box>
  );
}
