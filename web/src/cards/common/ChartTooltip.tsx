// Draws any tooltip model (tooltips.ts) beside the pointer: the time, one row per series with its colour, the total,
// and the fuel fraud hint with its red warning dot.
import { Box, Paper, Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { TooltipModel } from './tooltips.js';
import { WARNING_RED } from './palette.js';

export function ChartTooltip({
  model,
  x,
  y,
  boundsWidth,
}: {
  model: TooltipModel;
  x: number;
  y: number;
  boundsWidth: number;
}) {
  const left = x > boundsWidth / 2 ? undefined : x + 14;
  const right = x > boundsWidth / 2 ? boundsWidth - x + 14 : undefined;
  return (
    <Paper
      elevation={4}
      role="tooltip"
      data-testid="chart-tooltip"
      sx={{
        position: 'absolute',
        top: Math.max(0, y - 10),
        left,
        right,
        zIndex: 10,
        px: 1.25,
        py: 0.75,
        pointerEvents: 'none',
        minWidth: 140,
        maxWidth: 280,
      }}
    >
      <Typography variant="caption" sx={{ fontWeight: 700, display: 'block' }} data-testid="tooltip-title">
        {model.title}
      </Typography>
      {model.rows.map((r, i) => (
        <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="tooltip-row">
          <Box
            sx={{
              width: 8,
              height: 8,
              borderRadius: '50%',
              bgcolor: r.warning ? WARNING_RED : (r.color ?? 'text.secondary'),
              flexShrink: 0,
            }}
            data-warning={r.warning ? 'true' : undefined}
          />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" sx={{ display: 'block' }} noWrap>
              {r.label}
            </Typography>
            {r.detail && (
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ display: 'block', fontSize: '0.65rem' }}
                noWrap
                data-testid="tooltip-detail"
              >
                {r.detail}
              </Typography>
            )}
          </Box>
          <Typography
            variant="caption"
            sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', color: r.warning ? WARNING_RED : undefined }}
          >
            {r.value}
          </Typography>
        </Stack>
      ))}
      {model.total !== undefined && (
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', borderTop: 1, borderColor: 'divider', mt: 0.5, pt: 0.25 }}
          data-testid="tooltip-total"
        >
          <Typography variant="caption" sx={{ fontWeight: 700 }}>
            {T.cardViews.total}
          </Typography>
          <Typography variant="caption" sx={{ fontWeight: 700 }}>
            {model.total}
          </Typography>
        </Stack>
      )}
      {model.alert && (
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', mt: 0.5 }} data-testid="tooltip-alert">
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: WARNING_RED }} />
          <Typography variant="caption" sx={{ color: WARNING_RED, fontWeight: 700 }}>
            {model.alert}
          </Typography>
        </Stack>
      )}
    </Paper>
  );
}
