// A card's main value, as large as its cell allows without wrapping.
import { CARD_CLASS } from './cardStyles.js';

export function fitFontSize(text: string, width: number, height: number, max = 56, min = 12): number {
  const byHeight = height * 0.5;
  const byWidth = width > 0 ? width / Math.max(1, text.length * 0.6) : max;
  return Math.round(Math.max(min, Math.min(max, byHeight, byWidth)));
}

export function ValueText({
  text,
  width,
  height,
  color,
  testId = 'card-value',
}: {
  text: string;
  width: number;
  height: number;
  color?: string;
  testId?: string;
}) {
  return (
    <div
      data-testid={testId}
      className={CARD_CLASS.value}
      title={text}
      style={{ fontSize: fitFontSize(text, width, height), color }}
    >
      {text}
    </div>
  );
}
