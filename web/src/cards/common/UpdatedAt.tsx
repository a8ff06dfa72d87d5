// "Diperbarui HH:mm:ss, DD MMM YY" under a value: when the shown reading was taken.
import { Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { formatDate } from './dates.js';

export function UpdatedAt({ time, locale }: { time?: number | null; locale?: string }) {
  if (typeof time !== 'number') return null;
  return (
    <Typography variant="caption" color="text.secondary" noWrap data-testid="card-time">
      {T.cardViews.updatedAt(formatDate(time, 'HH:mm:ss, DD MMM YY', locale))}
    </Typography>
  );
}
