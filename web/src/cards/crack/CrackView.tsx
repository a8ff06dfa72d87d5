// CRACK_CARD: one crack per reading — its label (crack_labels), a jagged line as long as its length (crack_lengths,
// relative to the longest, printed in crack_length_unit) and as wide as its opening, in its colour (crack_colors); the
// opening printed with the card's unit. The drawing takes the height the card gives it (common/gauges.ts).
import { Box, Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { formatCardNumber } from '../common/format.js';
import { seriesColors } from '../common/palette.js';
import { readingsOf } from '../common/values.js';
import { gaugeThickness } from '../common/gauges.js';

interface CrackViewFields {
  unit?: string;
  crack_labels?: string[];
  crack_lengths?: number[];
  crack_length_unit?: string;
  crack_colors?: string[];
  decimal?: number;
  locale?: string;
}

/** The zigzag of a crack `share` (0..1) of the width long, `amplitude` px above and below its middle `y`. */
export function crackPath(width: number, share: number, y: number, amplitude = 4): string {
  const len = Math.max(8, width * share);
  const steps = Math.max(3, Math.round(len / 14));
  const pts = Array.from(
    { length: steps + 1 },
    (_, i) => `${((i / steps) * len).toFixed(1)},${(y + (i % 2 === 0 ? -amplitude : amplitude)).toFixed(1)}`,
  );
  return `M ${pts.join(' L ')}`;
}

export default function CrackView({ view, data, decimals, height }: CardViewProps<CrackViewFields>) {
  const readings = readingsOf(data);
  const colors = seriesColors(view.crack_colors, readings.length);
  const lengths = readings.map((_, i) => (typeof view.crack_lengths?.[i] === 'number' ? view.crack_lengths[i]! : 1));
  const longest = Math.max(...lengths, 1);
  const widest = Math.max(...readings.map((r) => Math.abs(r.value ?? 0)), 0);
  if (readings.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {T.cardViews.noData}
      </Typography>
    );
  const drawn = gaugeThickness(height, readings.length) + 4;
  const lengthUnit = view.crack_length_unit ?? view.unit;
  return (
    <Stack spacing={1.25} sx={{ height: '100%', justifyContent: 'space-evenly', overflow: 'auto' }}>
      {readings.map((r, i) => {
        const label = view.crack_labels?.[i] ?? r.key;
        const text =
          r.value === undefined
            ? T.cardViews.noValue
            : `${formatCardNumber(r.value, { decimals: view.decimal ?? decimals, locale: view.locale, fullNumber: true })}${view.unit ? ` ${view.unit}` : ''}`;
        const stroke = 1.5 + (widest > 0 ? (Math.abs(r.value ?? 0) / widest) * 4 : 0);
        return (
          <Box key={r.key} data-testid={`crack-${i}`}>
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="caption" color="text.secondary">
                {T.cardViews.crack(label)} · {T.cardViews.length}{' '}
                {formatCardNumber(lengths[i]!, { decimals: 0, fullNumber: true })}
                {lengthUnit ? ` ${lengthUnit}` : ''}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
                {text}
              </Typography>
            </Stack>
            <svg
              width="100%"
              height={drawn}
              viewBox={`0 0 200 ${drawn}`}
              preserveAspectRatio="none"
              aria-hidden
              data-testid="crack-drawing"
            >
              <path
                d={crackPath(200, lengths[i]! / longest, drawn / 2, Math.max(4, drawn / 2 - 3))}
                fill="none"
                stroke={colors[i]}
                strokeWidth={stroke}
                strokeLinejoin="round"
                // the opening's width in pixels, however wide the card stretches the drawing
                vectorEffect="non-scaling-stroke"
                data-color={colors[i]}
              />
            </svg>
          </Box>
        );
      })}
    </Stack>
  );
}
