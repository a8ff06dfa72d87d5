// The card grid of a dashboard (spec 02 section 9 "Grid"): breakpoints lg 1200, md 996, sm 768, xs 480, xxs 0; row
// height 60, margin 36; in the view (static) the spec's 4 columns from sm up and one stacked column below sm (issue 28),
// lg 4 md 4 sm 2 xs 2 xxs 1 in the edit layout,
// where cards drag and resize only at md and lg. Cards are drawn by `renderCard` (the cards' live views, in the view
// and in the edit layout, where a card follows its grid item's height while it is resized), else as a placeholder.
import { useMemo, useState, type ReactNode } from 'react';
import { Responsive, WidthProvider, type Layout, type Layouts } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { Box, Chip, Paper, Stack, Typography } from '@mui/material';
import {
  EDIT_GRID_COLUMNS,
  GRID_BREAKPOINTS,
  GRID_MARGIN,
  GRID_ROW_HEIGHT,
  T,
  cardPixelHeight,
} from '@sentra/contracts';
import {
  VIEW_COLUMNS,
  canArrange,
  gridItemOf,
  stackedItems,
  type Breakpoint,
  type GridLayouts,
  type StoredComponent,
} from './gridLayout.js';

const ResponsiveGrid = WidthProvider(Responsive);

/**
 * The view's margins [x, y]: the spec's 36 px, except beside the one stacked column below sm, where 36 px on both
 * sides of a 400 px screen would take a fifth of it. Rows keep 36 px (a card's height in pixels counts on it).
 */
const VIEW_MARGINS: Record<Breakpoint, [number, number]> = {
  lg: [GRID_MARGIN, GRID_MARGIN],
  md: [GRID_MARGIN, GRID_MARGIN],
  sm: [GRID_MARGIN, GRID_MARGIN],
  xs: [16, GRID_MARGIN],
  xxs: [16, GRID_MARGIN],
};

/** Elements inside a card that must not start a drag (menus, buttons). */
export const NO_DRAG = 'sentra-no-drag';

export interface DashboardGridProps {
  components: readonly StoredComponent[];
  mode: 'view' | 'edit';
  /** edit mode: the controlled layouts per breakpoint */
  layouts?: GridLayouts;
  breakpoint?: Breakpoint;
  onLayoutsChange?(layouts: GridLayouts): void;
  onBreakpointChange?(bp: Breakpoint): void;
  /** edit mode: the card's action button */
  actions?(c: StoredComponent): ReactNode;
  /** draws the card (the card registry's live view, web/src/cards) with the edit layout's `actions`; without it, a placeholder */
  renderCard?(c: StoredComponent, h: number, actions?: ReactNode): ReactNode;
}

function DashboardCard({ c, h, actions }: { c: StoredComponent; h: number; actions?: ReactNode }) {
  const title = typeof c.view?.title === 'string' && c.view.title ? c.view.title : c.key;
  return (
    <Paper
      variant="outlined"
      data-testid="dashboard-card"
      data-key={c.key}
      sx={{ height: cardPixelHeight(h), display: 'flex', flexDirection: 'column', overflow: 'hidden', borderRadius: 2 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1.5, pt: 1, pb: 0.5, minWidth: 0 }}>
        <Typography variant="subtitle2" noWrap sx={{ fontWeight: 700, flex: 1, minWidth: 0 }} title={title}>
          {title}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          label={c.cat || '?'}
          sx={{ fontFamily: 'monospace', fontSize: 11, maxWidth: '55%' }}
        />
        {actions}
      </Stack>
      <Box
        data-testid="card-placeholder"
        sx={{
          flex: 1,
          m: 1,
          mt: 0.5,
          minHeight: 0,
          border: 1,
          borderStyle: 'dashed',
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: 'action.hover',
          overflow: 'hidden',
        }}
      >
        <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', px: 1 }}>
          {T.dashboards.screens.cardPlaceholder}
        </Typography>
      </Box>
    </Paper>
  );
}

export function DashboardGrid({
  components,
  mode,
  layouts,
  breakpoint = 'lg',
  onLayoutsChange,
  onBreakpointChange,
  actions,
  renderCard,
}: DashboardGridProps) {
  const edit = mode === 'edit';
  /** the view's own breakpoint (the edit layout's is controlled by its page) */
  const [viewBreakpoint, setViewBreakpoint] = useState<Breakpoint>('lg');
  if (!edit) breakpoint = viewBreakpoint;
  const viewLayouts = useMemo<GridLayouts>(() => {
    const items = components.map((c) => gridItemOf(c, { static: true }));
    const stacked = stackedItems(items);
    return { lg: items, md: items, sm: items, xs: stacked, xxs: stacked };
  }, [components]);
  const shown = edit ? (layouts ?? {}) : viewLayouts;
  /** the card being resized and its height meanwhile: its view follows the handle, not only the dropped size */
  const [resizing, setResizing] = useState<{ key: string; h: number }>();
  const heights = new Map((shown[breakpoint] ?? shown.lg ?? []).map((i) => [i.i, i.h]));
  if (resizing) heights.set(resizing.key, resizing.h);
  const arrange = edit && canArrange(breakpoint);

  return (
    <Box
      data-testid={edit ? 'dashboard-grid-edit' : 'dashboard-grid'}
      data-breakpoint={breakpoint}
      data-arrange={arrange ? 'on' : 'off'}
      sx={{ mx: { xs: -2, sm: -3 } }}
    >
      <ResponsiveGrid
        breakpoints={GRID_BREAKPOINTS}
        cols={edit ? EDIT_GRID_COLUMNS : VIEW_COLUMNS}
        rowHeight={GRID_ROW_HEIGHT}
        margin={edit ? [GRID_MARGIN, GRID_MARGIN] : VIEW_MARGINS}
        layouts={shown as Layouts}
        isDraggable={arrange}
        isResizable={arrange}
        draggableCancel={`.${NO_DRAG}`}
        compactType="vertical"
        onBreakpointChange={(bp) =>
          edit ? onBreakpointChange?.(bp as Breakpoint) : setViewBreakpoint(bp as Breakpoint)
        }
        onResize={(_l: Layout[], _old: Layout, item: Layout) => {
          if (resizing?.key !== item.i || resizing.h !== item.h) setResizing({ key: item.i, h: item.h });
        }}
        onResizeStop={() => setResizing(undefined)}
        onLayoutChange={(_current: Layout[], all: Layouts) => {
          if (edit) onLayoutsChange?.(all as GridLayouts);
        }}
      >
        {components.map((c) => (
          <div key={c.key} data-grid-key={c.key}>
            {renderCard ? (
              renderCard(c, heights.get(c.key) ?? gridItemOf(c).h, edit ? actions?.(c) : undefined)
            ) : (
              <DashboardCard
                c={c}
                h={heights.get(c.key) ?? gridItemOf(c).h}
                actions={edit ? actions?.(c) : undefined}
              />
            )}
          </div>
        ))}
      </ResponsiveGrid>
    </Box>
  );
}
