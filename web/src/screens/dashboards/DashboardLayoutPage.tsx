// The edit-layout view (_dashboard_conf_/{path}, title 'Edit {label}', spec 02 sections 2, 4, 9): refresh, save
// layout (windows ≥ 996 px), edit dashboard, add component (Editor or Manual); cards drag and resize at md and lg;
// layouts are kept per breakpoint in local storage by dashboard id; a card's menu edits it or deletes it. The cards are
// the view's own, live on the dashboard's default filter, read-only (issue 28): arranging them sends no command.
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, IconButton, ListSubheader, Menu, Stack, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import SaveIcon from '@mui/icons-material/Save';
import EditIcon from '@mui/icons-material/Edit';
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import TuneIcon from '@mui/icons-material/Tune';
import DataObjectIcon from '@mui/icons-material/DataObject';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  CARD_TYPES,
  cardTypeLabel,
  contracts,
  GRID_BREAKPOINTS,
  T,
  type CardTypeCode,
  type DashboardRecord,
} from '@sentra/contracts';
import { CardsReadOnly, LiveDashboard, liveCardRenderer } from '../../cards/index.js';
import { defaultViewFilter, type ViewFilter } from './viewFilter.js';
import { CallError, callOrThrow, notifyCallFailure } from '../../api/call.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { notices } from '../../ui/snackbar/notices.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { usePageTitle } from '../../shell/pageTitle.js';
import { DashboardGrid, NO_DRAG } from './DashboardGrid.js';
import { AddComponentDialog } from './AddComponentDialog.js';
import { ROUTES, dashboardByPath, useLoadState } from './dashboardCalls.js';
import {
  canArrange,
  canSaveLayout,
  componentsOf,
  editLayouts,
  liveSettingsOf,
  layoutFingerprint,
  readLayouts,
  withLayout,
  writeLayouts,
  type Breakpoint,
  type GridLayouts,
  type StoredComponent,
} from './gridLayout.js';
import type { ListForward } from './DashboardListPage.js';

const s = T.dashboards.screens;
const n = T.dashboards.notify;

/** The breakpoint of a width, as react-grid-layout picks it. */
export function breakpointOf(width: number): Breakpoint {
  const sorted = (Object.entries(GRID_BREAKPOINTS) as [Breakpoint, number][]).sort((a, b) => b[1] - a[1]);
  return sorted.find(([, min]) => width >= min)?.[0] ?? 'xxs';
}

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

function LayoutEditor({ dashboard, onRefresh }: { dashboard: DashboardRecord; onRefresh(): void }) {
  const area = useAppArea();
  const navigate = useNavigate();
  const { busy: acting, act: confirmed } = useConfirmedAction();
  const windowWidth = useWindowWidth();
  // the top bar names the dashboard being arranged, as on its view (issue 28)
  usePageTitle(dashboard.label);
  const conf = dashboard.conf_dashboard as Record<string, unknown>;
  const components = useMemo(() => componentsOf(conf), [conf]);
  const base = useMemo(() => layoutFingerprint(components), [components]);
  const [layouts, setLayouts] = useState<GridLayouts>(() =>
    editLayouts(components, readLayouts(window.localStorage, dashboard.id, base)),
  );
  const [breakpoint, setBreakpoint] = useState<Breakpoint>(() => breakpointOf(window.innerWidth));
  const [saving, setSaving] = useState(false);
  const busy = saving || acting;
  const [choosing, setChoosing] = useState(false);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; c: StoredComponent } | null>(null);
  /** the cards read the dashboard's default filter, as the view opens with it */
  const [filter] = useState<ViewFilter>(() => defaultViewFilter(conf.var, Date.now()));
  const renderCard = useMemo(() => liveCardRenderer(dashboard.id), [dashboard.id]);
  const confPath = area.to(ROUTES.conf, { path: dashboard.path });
  /** "After saving or deleting it returns to the dashboard list, then the config view." */
  const backThroughList = (path = dashboard.path) =>
    navigate(area.to(ROUTES.list), { state: { then: area.to(ROUTES.conf, { path }) } satisfies ListForward });

  const changeLayouts = (next: GridLayouts) => {
    setLayouts(next);
    writeLayouts(window.localStorage, dashboard.id, base, next);
  };

  const saveLayout = async () => {
    const layout = (canArrange(breakpoint) ? layouts[breakpoint] : undefined) ?? layouts.lg ?? layouts.md ?? [];
    const next = withLayout(conf, layout);
    setSaving(true);
    try {
      // spec 02 section 8: a refusal reads 'Simpan posisi dashboard gagal', with where in the document it failed
      const r = await callOrThrow(
        contracts.dashboards.edit,
        { id: dashboard.id, conf_dashboard: next },
        { fallback: n.layoutFailed },
      );
      writeLayouts(window.localStorage, dashboard.id, layoutFingerprint(componentsOf(next)), layouts);
      notices.success(n.layoutSaved);
      backThroughList(r.path);
    } catch (e) {
      const first = e instanceof CallError ? e.problems[0] : undefined;
      if (first) notices.error(`${n.layoutFailed}: ${first.path} ${first.message}`);
      else notifyCallFailure(e, n.layoutFailed);
    } finally {
      setSaving(false);
    }
  };

  const removeCard = (c: StoredComponent) =>
    confirmed({
      ask: { message: s.removeComponentConfirm },
      // spec 02 section 8: every refusal reads 'Hapus component dashboard gagal'
      run: (failed) =>
        callOrThrow(
          contracts.dashboards.removeComponent,
          { id: dashboard.id, dashboard_id: c.key },
          { fallback: failed },
        ),
      success: n.componentRemoved,
      failed: n.componentRemoveFailed,
      done: (r) => backThroughList(r.path),
    });

  const act = (what: (c: StoredComponent) => unknown) => () => {
    const c = menu?.c;
    setMenu(null);
    if (c) void what(c);
  };
  const saveAllowed = canSaveLayout(windowWidth);

  return (
    <Box sx={{ position: 'relative' }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {T.dashboards.layout.editTitle(dashboard.label)}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}>
          <Tooltip title={s.refresh}>
            <IconButton aria-label={s.refresh} onClick={onRefresh}>
              <RefreshIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title={saveAllowed ? '' : s.saveLayoutNarrow}>
            <span>
              <Button
                variant="outlined"
                startIcon={<SaveIcon />}
                onClick={() => void saveLayout()}
                disabled={!saveAllowed || busy}
              >
                {s.saveLayout}
              </Button>
            </span>
          </Tooltip>
          <Button
            variant="outlined"
            startIcon={<EditIcon />}
            onClick={() => navigate(area.to(ROUTES.edit, { id: dashboard.id }))}
          >
            {s.editDashboard}
          </Button>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setChoosing(true)}>
            {s.addComponent}
          </Button>
        </Stack>
      </Stack>
      {components.length === 0 ? (
        <Alert severity="info" variant="outlined">
          {s.emptyDashboard}
        </Alert>
      ) : (
        <CardsReadOnly.Provider value={true}>
          <LiveDashboard {...liveSettingsOf(dashboard, conf)} filter={filter} components={components}>
            <DashboardGrid
              components={components}
              mode="edit"
              layouts={layouts}
              breakpoint={breakpoint}
              onBreakpointChange={setBreakpoint}
              onLayoutsChange={changeLayouts}
              renderCard={renderCard}
              actions={(c) => (
                <IconButton
                  size="small"
                  className={NO_DRAG}
                  aria-label={s.componentMenu(c.key)}
                  onClick={(e) => setMenu({ anchor: e.currentTarget, c })}
                  sx={{ mr: -1, flexShrink: 0 }}
                >
                  <MoreVertIcon fontSize="small" />
                </IconButton>
              )}
            />
          </LiveDashboard>
        </CardsReadOnly.Provider>
      )}
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        {menu && menu.c.cat in CARD_TYPES && (
          <ListSubheader data-testid="card-type-name" sx={{ lineHeight: '32px' }}>
            {cardTypeLabel(menu.c.cat as CardTypeCode, T.dashboards.editor)}
          </ListSubheader>
        )}
        <IconMenuItem
          onClick={act((c) => navigate(area.to(ROUTES.componentEdit, { path: dashboard.path, componentKey: c.key })))}
          icon={<TuneIcon fontSize="small" />}
          text={s.editWithEditor}
        />
        <IconMenuItem
          onClick={act((c) => navigate(area.to(ROUTES.manualEdit, { path: dashboard.path, componentKey: c.key })))}
          icon={<DataObjectIcon fontSize="small" />}
          text={s.editManual}
        />
        <IconMenuItem
          onClick={act(removeCard)}
          icon={<DeleteIcon fontSize="small" color="error" />}
          text={s.removeComponent}
        />
      </Menu>
      <AddComponentDialog
        open={choosing}
        onClose={() => setChoosing(false)}
        onChoose={(how) => {
          setChoosing(false);
          navigate(`${confPath}/${how === 'editor' ? 'add' : 'manual_add'}`);
        }}
      />
      <LoadingOverlay open={busy} />
    </Box>
  );
}

export function DashboardLayoutPage() {
  const { path = '' } = useParams();
  const { state, busy, reload } = useLoadState(() => dashboardByPath(path), [path]);
  return (
    <Box sx={{ position: 'relative', minHeight: 240 }}>
      {state.status === 'ready' && (
        <LayoutEditor
          key={`${state.data.id}:${JSON.stringify(state.data.conf_dashboard)}`}
          dashboard={state.data}
          onRefresh={() => void reload()}
        />
      )}
      {state.status === 'failed' && state.notFound && <Alert severity="warning">{s.dashboardNotFound}</Alert>}
      <LoadingOverlay open={busy} />
    </Box>
  );
}
