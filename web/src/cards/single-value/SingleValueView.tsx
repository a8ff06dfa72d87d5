// SINGLE_VALUE_CARD: one reading, formatted with the card's unit subtype (spec 02 section 3 "Category subtypes"),
// decimals and k/M/B/T abbreviation, its icon and when it was read.
import { CARD_CLASS } from '../common/cardStyles.js';
import type { CardViewProps } from '../common/definition.js';
import { formatValue, type UnitView } from '../common/format.js';
import { CardIcon } from '../common/icons.js';
import { UpdatedAt } from '../common/UpdatedAt.js';
import { useElementSize } from '../common/useElementSize.js';
import { ValueText } from '../common/ValueText.js';

export default function SingleValueView({
  view,
  data,
  decimals,
  height,
}: CardViewProps<UnitView & { pict?: string; locale?: string }>) {
  const { ref, width } = useElementSize();
  const text = formatValue(data?.value, view, decimals);
  const iconSize = Math.min(40, Math.max(20, height * 0.3));
  return (
    <div ref={ref} className={CARD_CLASS.row}>
      <CardIcon pict={view.pict} fallback={view.type ?? 'CUSTOM'} size={iconSize} />
      <div className={CARD_CLASS.grow}>
        <ValueText text={text} width={Math.max(0, width - iconSize - 12)} height={height * 0.8} />
        <UpdatedAt time={data?.time} locale={view.locale} />
      </div>
    </div>
  );
}
