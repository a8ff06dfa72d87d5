// COORDINATE_CARD: x/y pairs (coord_data) as dots on labelled axes (axis_x, axis_y with unit_x, unit_y), the newest
// dot larger; drawn as SVG (a few hundred dots need no chart library).
import { Box, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { asNumber, formatCardNumber } from '../common/format.js';
import { CHART_PALETTE } from '../common/palette.js';
import { useElementSize } from '../common/useElementSize.js';

interface CoordView {
  axis_x?: string;
  axis_y?: string;
  unit_x?: string;
  unit_y?: string;
  color_dot?: string;
  decimal?: number;
  locale?: string;
}

const PAD = { l: 44, r: 10, t: 8, b: 30 };

export function extent(values: number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) ((lo -= 1), (hi += 1));
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

export default function CoordinateView({ view, data, decimals }: CardViewProps<CoordView>) {
  const { ref, width, height } = useElementSize();
  const points = (data?.coord_data ?? []).flatMap((p) => {
    const x = asNumber(p.x);
    const y = asNumber(p.y);
    return x === undefined || y === undefined ? [] : [{ x, y, ts: p.ts }];
  });
  const [x0, x1] = extent(points.map((p) => p.x));
  const [y0, y1] = extent(points.map((p) => p.y));
  const w = Math.max(0, width - PAD.l - PAD.r);
  const h = Math.max(0, height - PAD.t - PAD.b);
  const sx = (x: number) => PAD.l + ((x - x0) / (x1 - x0)) * w;
  const sy = (y: number) => PAD.t + h - ((y - y0) / (y1 - y0)) * h;
  const color = view.color_dot || CHART_PALETTE[0];
  const fmt = (n: number) => formatCardNumber(n, { decimals: view.decimal ?? decimals, locale: view.locale });
  const label = (axis: string | undefined, unit: string | undefined, fallback: string) =>
    `${axis || fallback}${unit ? ` (${unit})` : ''}`;
  const last = points.at(-1);
  return (
    <Box ref={ref} sx={{ height: '100%', position: 'relative' }}>
      {points.length === 0 && (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        >
          {T.cardViews.noData}
        </Typography>
      )}
      {width > 0 && (
        <svg
          width={width}
          height={height}
          role="img"
          aria-label={label(view.axis_x, view.unit_x, 'X') + ' / ' + label(view.axis_y, view.unit_y, 'Y')}
        >
          <line x1={PAD.l} y1={PAD.t + h} x2={PAD.l + w} y2={PAD.t + h} stroke="#9e9e9e" />
          <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={PAD.t + h} stroke="#9e9e9e" />
          <text x={PAD.l} y={height - 4} fontSize={10} fill="#616161">
            {fmt(x0)}
          </text>
          <text x={PAD.l + w} y={height - 4} fontSize={10} fill="#616161" textAnchor="end">
            {fmt(x1)}
          </text>
          <text x={PAD.l + w / 2} y={height - 4} fontSize={11} fill="#424242" textAnchor="middle" data-testid="axis-x">
            {label(view.axis_x, view.unit_x, 'X')}
          </text>
          <text x={4} y={PAD.t + 10} fontSize={10} fill="#616161">
            {fmt(y1)}
          </text>
          <text x={4} y={PAD.t + h} fontSize={10} fill="#616161">
            {fmt(y0)}
          </text>
          <text
            x={12}
            y={PAD.t + h / 2}
            fontSize={11}
            fill="#424242"
            textAnchor="middle"
            transform={`rotate(-90 12 ${PAD.t + h / 2})`}
            data-testid="axis-y"
          >
            {label(view.axis_y, view.unit_y, 'Y')}
          </text>
          {points.map((p, i) => (
            <circle
              key={`${p.ts}-${i}`}
              cx={sx(p.x)}
              cy={sy(p.y)}
              r={p === last ? 5 : 3}
              fill={color}
              fillOpacity={p === last ? 1 : 0.55}
              data-testid={p === last ? 'coord-last' : undefined}
            >
              <title>{`${fmt(p.x)}${view.unit_x ? ` ${view.unit_x}` : ''}, ${fmt(p.y)}${view.unit_y ? ` ${view.unit_y}` : ''}`}</title>
            </circle>
          ))}
        </svg>
      )}
    </Box>
  );
}
