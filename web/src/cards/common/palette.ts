// The chart palette (spec 02 section 9 "Chart palette: 7 colours") and the warning colours cards share.
import { CHART_PALETTE_SIZE } from '@sentra/contracts';

export const CHART_PALETTE = ['#1565c0', '#ef6c00', '#2e7d32', '#8e24aa', '#00838f', '#c62828', '#6d4c41'] as const;
if (CHART_PALETTE.length !== CHART_PALETTE_SIZE) throw new Error('chart palette must have 7 colours');

export const WARNING_RED = '#d32f2f';
export const OK_GREEN = '#2e7d32';

/** The colours of a chart: the card's own `graph_colors` first, then the palette, cycling. */
export function seriesColors(own: unknown, count: number): string[] {
  const mine = Array.isArray(own) ? own.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
  return Array.from(
    { length: count },
    (_, i) => mine[i] ?? CHART_PALETTE[(i - mine.length + CHART_PALETTE.length * 10) % CHART_PALETTE.length]!,
  );
}
