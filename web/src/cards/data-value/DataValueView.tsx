// DATA_VALUE_CARD, the three-value card: value_1..value_3 under their labels (`view.labels`, else 'Data n').
import { Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { formatValue, type UnitView } from '../common/format.js';
import { UpdatedAt } from '../common/UpdatedAt.js';

export default function DataValueView({
  view,
  data,
  decimals,
  height,
}: CardViewProps<UnitView & { labels?: string[] }>) {
  const rowH = Math.max(24, (height - 24) / 3);
  return (
    <Stack sx={{ height: '100%', justifyContent: 'space-around' }}>
      {([1, 2, 3] as const).map((n) => (
        <Stack key={n} data-testid={`data-value-${n}`}>
          <Typography variant="caption" color="text.secondary" noWrap>
            {view.labels?.[n - 1] ?? T.cardViews.dataValue(n)}
          </Typography>
          <Typography
            noWrap
            sx={{
              fontWeight: 700,
              fontSize: Math.min(30, Math.max(14, rowH * 0.4)),
              fontVariantNumeric: 'tabular-nums',
            }}
          >
            {formatValue(data?.[`value_${n}`], view, decimals)}
          </Typography>
        </Stack>
      ))}
      <UpdatedAt time={data?.time} />
    </Stack>
  );
}
