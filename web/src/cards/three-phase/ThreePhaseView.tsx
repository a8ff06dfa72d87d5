// THREE_PHASE_CARD: phases R, S and T (value_1..value_3) with the card's unit; a phase without a reading is dimmed.
import { T } from '@sentra/contracts';
import { CARD_CLASS } from '../common/cardStyles.js';
import type { CardViewProps } from '../common/definition.js';
import { formatValue, type UnitView } from '../common/format.js';
import { UpdatedAt } from '../common/UpdatedAt.js';

const PHASE_COLORS = ['#c62828', '#f9a825', '#1565c0'];

export default function ThreePhaseView({
  view,
  data,
  decimals,
  height,
}: CardViewProps<UnitView & { locale?: string }>) {
  const rowH = Math.max(24, (height - 24) / 3);
  return (
    <div className={CARD_CLASS.phases}>
      {([1, 2, 3] as const).map((n) => {
        const value = data?.[`value_${n}`];
        const ok = data?.[`status_${n}`] !== false && value !== null && value !== undefined;
        return (
          <div key={n} className={CARD_CLASS.phase} style={{ opacity: ok ? 1 : 0.45 }} data-testid={`phase-${n}`}>
            <div
              className={CARD_CLASS.phaseBar}
              style={{ height: Math.min(40, rowH * 0.7), background: PHASE_COLORS[n - 1] }}
            />
            <span className={CARD_CLASS.phaseLabel}>{T.cardViews.phase(n)}</span>
            <span className={CARD_CLASS.value} style={{ fontSize: Math.min(32, Math.max(14, rowH * 0.45)) }}>
              {formatValue(value, view, decimals)}
            </span>
          </div>
        );
      })}
      <UpdatedAt time={data?.time} locale={view.locale} />
    </div>
  );
}
