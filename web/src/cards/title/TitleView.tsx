// TITLE: a heading across the grid ('Title' by default), with the device fact its query reads (label, SN, ...).
import { Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';

export default function TitleView({ view, data, height }: CardViewProps<{ title?: string }>) {
  const title = typeof view.title === 'string' && view.title ? view.title : T.dashboards.component.titleDefault;
  const fact = data?.value !== undefined && data.value !== null && data.value !== '' ? String(data.value) : undefined;
  return (
    <Stack direction="row" spacing={1.5} sx={{ height: '100%', alignItems: 'center', px: 2, minWidth: 0 }}>
      <Typography
        data-testid="card-title"
        variant="h6"
        noWrap
        sx={{ fontWeight: 700, fontSize: Math.min(24, Math.max(14, height * 0.4)) }}
      >
        {title}
      </Typography>
      {fact && (
        <Typography
          data-testid="card-value"
          color="text.secondary"
          noWrap
          sx={{ fontSize: Math.min(18, Math.max(12, height * 0.3)) }}
        >
          {fact}
        </Typography>
      )}
    </Stack>
  );
}
