// The dashboard view's one time control (issue 38), as Grafana's: a button naming what the cards are read with, and a
// panel holding an absolute or relative range (Dari / Sampai, "now-7d" or a date), the dashboard's own filters (spec
// 02's filter variables) and the quick ranges; beside it a zoom out that doubles the range. The choice goes to the
// address (viewFilter.ts): the caller turns it into `?filter=` or `?from=&to=`.
import { useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  ListSubheader,
  MenuItem,
  MenuList,
  Popover,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import { CARD_WINDOW_MAX_MS, T, type FilterVariable } from '@sentra/contracts';
import { formatDate } from '../../cards/common/dates.js';
import { QUICK_RANGE_IDS, quickRangeLabel, quickRangeText } from './quickRanges.js';
import { addressText, fieldText, isRelative, resolveRange, type RangeProblem, type TimeRange } from './timeRange.js';
import { DEFAULT_RANGE, type ViewChoice, type ViewFilter } from './viewFilter.js';

const s = T.dashboards.screens;
const t = s.timeRange;

const PROBLEM_TEXT: Record<RangeProblem, string> = {
  from: t.fromUnknown,
  to: t.toUnknown,
  order: T.cards.rangeOrder,
  tooLong: T.cards.rangeTooLong(CARD_WINDOW_MAX_MS / 86_400_000),
};

/** One end of a range on the button: relative text as written, an instant as a short local date. */
const endLabel = (end: string, ms: number) => (isRelative(end) ? end : formatDate(ms, 'DD MMM YY HH:mm'));

/** What the button says: the filter's name, the quick range's, or the range's two ends. */
export function filterLabel(filter: ViewFilter): string {
  if (filter.kind === 'filter') return filter.name;
  if (filter.quick) return quickRangeLabel(filter.quick);
  return t.between(endLabel(filter.from, filter.start), endLabel(filter.to, filter.end));
}

function RangeFields({ filter, onApply }: { filter: ViewFilter; onApply(range: TimeRange): void }) {
  const [range, setRange] = useState<TimeRange>(() =>
    filter.kind === 'range' ? { from: fieldText(filter.from), to: fieldText(filter.to) } : { ...DEFAULT_RANGE },
  );
  const [problem, setProblem] = useState<RangeProblem>();
  const apply = () => {
    const now = Date.now();
    const r = resolveRange(range, now);
    if ('problem' in r) setProblem(r.problem);
    // a typed date goes to the address as epoch ms (what a shared link means wherever it is opened)
    else onApply({ from: addressText(range.from, now, false), to: addressText(range.to, now, true) });
  };
  const field = (end: keyof TimeRange, label: string) => (
    <TextField
      size="small"
      label={label}
      value={range[end]}
      error={problem === end || (problem !== undefined && problem !== 'from' && problem !== 'to')}
      onChange={(e) => {
        setRange((r) => ({ ...r, [end]: e.target.value }));
        setProblem(undefined);
      }}
      onKeyDown={(e) => e.key === 'Enter' && apply()}
      slotProps={{ htmlInput: { 'data-testid': `range-${end}`, maxLength: 40, spellCheck: false } }}
      fullWidth
    />
  );
  return (
    <Stack spacing={1.5} sx={{ p: 2, width: { xs: '100%', sm: 280 } }}>
      <Typography variant="subtitle2">{t.absolute}</Typography>
      {field('from', s.rangeStart)}
      {field('to', s.rangeEnd)}
      <Typography
        variant="caption"
        color={problem ? 'error' : 'text.secondary'}
        role={problem ? 'alert' : undefined}
        data-testid="range-message"
      >
        {problem ? PROBLEM_TEXT[problem] : t.help}
      </Typography>
      <Button variant="contained" size="small" onClick={apply}>
        {t.apply}
      </Button>
    </Stack>
  );
}

export function TimeRangePicker({
  filters,
  filter,
  onChoose,
  onZoomOut,
}: {
  /** the dashboard's filter variables */
  filters: readonly FilterVariable[];
  filter: ViewFilter;
  onChoose(choice: ViewChoice): void;
  /** absent: nothing to zoom out of (a dashboard filter: its window is the gateway's) */
  onZoomOut?: () => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (c: ViewChoice) => {
    setAnchor(null);
    onChoose(c);
  };
  const chosenQuick = filter.kind === 'range' ? filter.quick : undefined;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Button
        variant="outlined"
        size="small"
        startIcon={<AccessTimeIcon />}
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="quick-range"
        aria-haspopup="dialog"
        aria-label={`${s.quickRange}: ${filterLabel(filter)}`}
        sx={{ height: 40, minWidth: 0, '& .label': { overflow: 'hidden', textOverflow: 'ellipsis' } }}
      >
        <span className="label" style={{ whiteSpace: 'nowrap' }}>
          {filterLabel(filter)}
        </span>
      </Button>
      {onZoomOut && (
        <Tooltip title={t.zoomOut}>
          <IconButton aria-label={t.zoomOut} onClick={onZoomOut} data-testid="zoom-out">
            <ZoomOutIcon />
          </IconButton>
        </Tooltip>
      )}
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { 'aria-label': s.quickRange, role: 'dialog', sx: { maxWidth: 'calc(100vw - 16px)' } } }}
      >
        <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' } }}>
          <RangeFields filter={filter} onApply={(range) => choose({ kind: 'range', range })} />
          <MenuList
            dense
            aria-label={s.quickRange}
            sx={{
              borderLeft: { sm: 1 },
              borderTop: { xs: 1, sm: 0 },
              borderColor: 'divider',
              maxHeight: { xs: 260, sm: 380 },
              overflowY: 'auto',
              minWidth: 200,
              py: 0,
            }}
          >
            {filters.length > 0 && <ListSubheader>{t.dashboardFilters}</ListSubheader>}
            {filters.map((f) => (
              <MenuItem
                key={`filter-${f.id}`}
                selected={filter.kind === 'filter' && filter.key === f.id}
                onClick={() => choose({ kind: 'filter', key: f.id })}
                data-testid="view-filter-option"
              >
                {f.name}
              </MenuItem>
            ))}
            <ListSubheader>{t.quickRanges}</ListSubheader>
            {QUICK_RANGE_IDS.map((id) => (
              <MenuItem
                key={id}
                selected={id === chosenQuick}
                onClick={() => choose({ kind: 'range', range: quickRangeText(id) })}
              >
                {quickRangeLabel(id)}
              </MenuItem>
            ))}
          </MenuList>
        </Box>
      </Popover>
    </Stack>
  );
}
