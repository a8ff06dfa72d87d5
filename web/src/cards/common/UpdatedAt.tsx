// "Diperbarui HH:mm:ss, DD MMM YY" under a value: when the shown reading was taken.
import { T } from '@sentra/contracts';
import { formatDate } from './dates.js';
import { CARD_CLASS } from './cardStyles.js';

export function UpdatedAt({ time, locale }: { time?: number | null; locale?: string }) {
  if (typeof time !== 'number') return null;
  return (
    <span className={CARD_CLASS.caption} data-testid="card-time">
      {T.cardViews.updatedAt(formatDate(time, 'HH:mm:ss, DD MMM YY', locale))}
    </span>
  );
}
