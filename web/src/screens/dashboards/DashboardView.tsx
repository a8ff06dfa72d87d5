// The dashboard view (spec 02 section 2 "Dashboard view"): a header with refresh and the time filter, then either the
// custom URL page in a frame or the static grid of cards.
import { useMemo, useState } from 'react';
import { Alert, Box, Button, IconButton, Menu, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import RefreshIcon from '@mui/icons-material/Refresh';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { dashboardRefreshMs, T, type DashboardRecord } from '@sentra/contracts';
import { DashboardGrid } from './DashboardGrid.js';
import { LiveDashboard, liveCardRenderer } from '../../cards/index.js';
import { componentsOf } from './gridLayout.js';
import { usePageTitle } from '../../shell/pageTitle.js';
import { QUICK_RANGE_IDS, quickRange, quickRangeLabel } from './quickRanges.js';
import { defaultViewFilter, filterVariables, type ViewFilter } from './viewFilter.js';

const s = T.dashboards.screens;

/** `datetime-local` text of an epoch time, in the browser's zone. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** The Grafana-style quick ranges: a button naming the chosen one, a menu of them. */
function QuickRangePicker({ filter, onChange }: { filter: ViewFilter; onChange(f: ViewFilter): void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const chosen = filter.kind === 'range' ? filter.quick : undefined;
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<AccessTimeIcon />}
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="quick-range"
        aria-haspopup="menu"
        sx={{ whiteSpace: 'nowrap', height: 40 }}
      >
        {chosen ? quickRangeLabel(chosen) : filter.kind === 'range' ? s.customRange : s.quickRange}
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { dense: true, 'aria-label': s.quickRange } }}
      >
        {QUICK_RANGE_IDS.map((id) => (
          <MenuItem
            key={id}
            selected={id === chosen}
            onClick={() => {
              setAnchor(null);
              onChange({ kind: 'range', ...quickRange(id, Date.now()), quick: id });
            }}
          >
            {quickRangeLabel(id)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * The spec's filters (the dashboard's filter variables, else a start/end range) and the quick ranges beside them. A
 * quick range is a start/end range: the start/end inputs show it, except on a dashboard with filter variables, where
 * the picker's button names it.
 */
function FilterBar({ vars, filter, onChange }: { vars: unknown; filter: ViewFilter; onChange(f: ViewFilter): void }) {
  const filters = useMemo(() => filterVariables(vars), [vars]);
  const set = (field: 'start' | 'end') => (e: React.ChangeEvent<HTMLInputElement>) => {
    const ms = new Date(e.target.value).getTime();
    if (Number.isFinite(ms) && filter.kind === 'range')
      onChange({ kind: 'range', start: filter.start, end: filter.end, [field]: ms });
  };
  const showRange = filter.kind === 'range' && (filters.length === 0 || !filter.quick);
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      {filters.length > 0 && (
        <TextField
          select
          size="small"
          label={s.filter}
          value={filter.kind === 'filter' ? filter.key : ''}
          onChange={(e) => {
            const f = filters.find((x) => x.id === e.target.value);
            if (f) onChange({ kind: 'filter', key: f.id, name: f.name });
          }}
          sx={{ minWidth: 200 }}
          slotProps={{ htmlInput: { 'data-testid': 'view-filter' } }}
        >
          {filters.map((f) => (
            <MenuItem key={f.id} value={f.id}>
              {f.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {showRange && filter.kind === 'range' && (
        <>
          <TextField
            type="datetime-local"
            size="small"
            label={s.rangeStart}
            value={localInput(filter.start)}
            onChange={set('start')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            size="small"
            label={s.rangeEnd}
            value={localInput(filter.end)}
            onChange={set('end')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      )}
      <QuickRangePicker filter={filter} onChange={onChange} />
    </Stack>
  );
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
  const [filter, setFilter] = useState<ViewFilter>(() => initialFilter ?? defaultViewFilter(conf.var, Date.now()));
  const customUrl = customUrlOf(conf);
  usePageTitle(dashboard.label);
  /** refresh: the record again, and a quick range ("1 jam terakhir") moved up to now */
  const refresh = () => {
    if (filter.kind === 'range' && filter.quick)
      setFilter({ kind: 'range', ...quickRange(filter.quick, Date.now()), quick: filter.quick });
    onRefresh();
  };

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
          {!customUrl && <FilterBar vars={conf.var} filter={filter} onChange={setFilter} />}
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
        <LiveDashboard
          dashboardId={dashboard.id}
          filter={filter}
          components={components}
          refreshMs={dashboardRefreshMs(conf)}
          globals={conf.var as Record<string, unknown> | undefined}
          decimals={(conf.view as { decimal?: number } | undefined)?.decimal}
        >
          <DashboardGrid components={components} mode="view" renderCard={liveCardRenderer(dashboard.id)} />
        </LiveDashboard>
      )}
    </Box>
  );
}
