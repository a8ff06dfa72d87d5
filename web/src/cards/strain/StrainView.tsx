// STRAIN_CARD: one gauge per reading with its label (strain_labels), curve (strain_curves: how the gauge's reading
// is drawn — 'linear' bar by default, 'log' for gauges spanning decades) and colour (strain_colors); the bar grows
// from the centre, tension right and compression left, as thick as the card's height allows (common/gauges.ts), over a
// scale from −max to +max in the card's unit.
import { Box, Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { formatCardNumber } from '../common/format.js';
import { seriesColors } from '../common/palette.js';
import { readingsOf } from '../common/values.js';
import { gaugeThickness } from '../common/gauges.js';

/** the scale line under the gauges */
const SCALE_PX = 22;

interface StrainViewFields {
  unit?: string;
  strain_labels?: string[];
  strain_curves?: string[];
  strain_colors?: string[];
  decimal?: number;
  locale?: string;
}

/** The share of half the bar a reading fills, by the gauge's curve. */
export function strainShare(value: number, max: number, curve?: string): number {
  if (max <= 0) return 0;
  const r = curve === 'log' ? Math.log10(1 + Math.abs(value)) / Math.log10(1 + max) : Math.abs(value) / max;
  return Math.min(1, r);
}

export default function StrainView({ view, data, decimals, height }: CardViewProps<StrainViewFields>) {
  const readings = readingsOf(data);
  const colors = seriesColors(view.strain_colors, readings.length);
  const max = Math.max(1, ...readings.map((r) => Math.abs(r.value ?? 0)));
  if (readings.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {T.cardViews.noData}
      </Typography>
    );
  const thickness = gaugeThickness(height, readings.length, SCALE_PX);
  const number = (n: number) =>
    `${formatCardNumber(n, { decimals: view.decimal ?? decimals, locale: view.locale, fullNumber: true })}${view.unit ? ` ${view.unit}` : ''}`;
  return (
    <Stack spacing={1} sx={{ height: '100%', justifyContent: 'space-evenly', overflow: 'auto' }}>
      {readings.map((r, i) => {
        const label = view.strain_labels?.[i] ?? r.key;
        const curve = view.strain_curves?.[i];
        const share = r.value === undefined ? 0 : strainShare(r.value, max, curve);
        const text = r.value === undefined ? T.cardViews.noValue : number(r.value);
        return (
          <Box key={r.key} data-testid={`strain-${i}`}>
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography variant="caption" color="text.secondary">
                {T.cardViews.strain(label)}
                {curve ? ` · ${curve}` : ''}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
                {text}
              </Typography>
            </Stack>
            <Box
              data-testid="strain-bar"
              sx={{ position: 'relative', height: thickness, bgcolor: 'action.hover', borderRadius: 1 }}
            >
              <Box
                sx={{ position: 'absolute', left: '50%', top: -2, bottom: -2, width: '1px', bgcolor: 'text.disabled' }}
              />
              <Box
                data-color={colors[i]}
                sx={{
                  position: 'absolute',
                  top: 0,
                  bottom: 0,
                  borderRadius: 1,
                  bgcolor: colors[i],
                  width: `${share * 50}%`,
                  left: (r.value ?? 0) >= 0 ? '50%' : `${50 - share * 50}%`,
                }}
              />
            </Box>
          </Box>
        );
      })}
      <Stack
        direction="row"
        data-testid="strain-scale"
        sx={{ justifyContent: 'space-between', color: 'text.secondary', typography: 'caption' }}
      >
        <span>{number(-max)}</span>
        <span>0</span>
        <span>{number(max)}</span>
      </Stack>
    </Stack>
  );
}
