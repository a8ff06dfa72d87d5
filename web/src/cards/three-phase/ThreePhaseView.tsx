// THREE_PHASE_CARD: phases R, S and T (value_1..value_3) with the card's unit; a phase without a reading is dimmed.
import { Box, Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { formatValue, type UnitView } from '../common/format.js';
import { UpdatedAt } from '../common/UpdatedAt.js';

const PHASE_COLORS = ['#c62828', '#f9a825', '#1565c0'];

export default function ThreePhaseView({ view, data, decimals, height }: CardViewProps<UnitView & { locale?: string }>) {
  const rowH = Math.max(24, (height - 24) / 3);
  return (
    <Stack sx={{ height: '100%', justifyContent: 'space-around' }}>
      {([1, 2, 3] as const).map((n) => {
        const value = data?.[`value_${n}`];
        const ok = data?.[`status_${n}`] !== false && value !== null && value !== undefined;
        return (
          <Stack key={n} direction="row" spacing={1.5} sx={{ alignItems: 'center', opacity: ok ? 1 : 0.45 }} data-testid={`phase-${n}`}>
            <Box sx={{ width: 10, height: Math.min(40, rowH * 0.7), borderRadius: 1, bgcolor: PHASE_COLORS[n - 1], flexShrink: 0 }} />
            <Typography variant="body2" color="text.secondary" sx={{ width: 56, flexShrink: 0 }}>{T.cardViews.phase(n)}</Typography>
            <Typography noWrap sx={{ fontWeight: 700, fontSize: Math.min(32, Math.max(14, rowH * 0.45)), fontVariantNumeric: 'tabular-nums' }}>{formatValue(value, view, decimals)}</Typography>
          </Stack>
        );
      })}
      <UpdatedAt time={data?.time} locale={view.locale} />
    </Stack>
  );
}
