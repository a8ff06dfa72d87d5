// A chart's time axis as Plotly reads and writes it: x values as local wall-time text (xOf) and back (msOfX), one
// line's points across empty buckets (lineOf), and drag-to-zoom (zoomableLayout, zoomedRange). Pure, so the rules are
// tested without Plotly.
import { formatDate } from '../common/dates.js';
import { asNumber } from '../common/format.js';

type Row = Record<string, unknown>;

/**
 * The x value of a row: local wall time text (Plotly reads it as local time), written the way Plotly writes a date
 * back (its `c2d`, which a hover event's `x` carries): trailing zero parts dropped ('2024-03-10', '2024-03-10 09:00',
 * '2024-03-10 09:00:05', '2024-03-10 09:00:05.25'), so the hovered x finds its row by plain equality. A fuller text
 * would never match the hover of an hourly bucket.
 */
export const xOf = (ts: number) => {
  const ms = ((ts % 1000) + 1000) % 1000;
  const [date, time] = formatDate(ts, 'YYYY-MM-DD HH:mm:ss').split(' ') as [string, string];
  if (ms !== 0) return `${date} ${time}.${String(ms).padStart(3, '0').replace(/0+$/, '')}`;
  if (!time.endsWith(':00')) return `${date} ${time}`;
  return time === '00:00:00' ? date : `${date} ${time.slice(0, 5)}`;
};

/** An x value Plotly hands back (a zoomed range's ends: local wall time text, any fraction of a second) as epoch ms. */
export function msOfX(x: unknown): number | undefined {
  if (typeof x === 'number') return Number.isFinite(x) ? x : undefined;
  if (typeof x !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?)?$/.exec(x.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '0'] = m;
  const ms = Math.round(Number(`0.${frac}`) * 1000);
  const t = new Date(+y!, +mo! - 1, +d!, +h, +mi, +sec, ms).getTime();
  return Number.isFinite(t) ? t : undefined;
}

/**
 * A chart inside a dashboard view zooms like Grafana's: dragging across it selects a time range (the y axis stays
 * put, so the selection is a band of time), which the view then reads its cards with.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function zoomableLayout(layout: Record<string, any>): Record<string, any> {
  return {
    ...layout,
    dragmode: 'zoom',
    xaxis: { ...layout.xaxis, fixedrange: false },
    yaxis: { ...layout.yaxis, fixedrange: true },
  };
}

/** The range a zoom selected, from Plotly's relayout event; undefined for any other relayout (a reset, a resize). */
export function zoomedRange(ev: unknown): { start: number; end: number } | undefined {
  if (!ev || typeof ev !== 'object') return undefined;
  const e = ev as Record<string, unknown>;
  const pair = Array.isArray(e['xaxis.range'])
    ? (e['xaxis.range'] as unknown[])
    : [e['xaxis.range[0]'], e['xaxis.range[1]']];
  const a = msOfX(pair[0]);
  const b = msOfX(pair[1]);
  if (a === undefined || b === undefined) return undefined;
  const [start, end] = a < b ? [a, b] : [b, a];
  // a click is not a selection: less than a second is no range to read
  return end - start >= 1000 ? { start, end } : undefined;
}

/**
 * One series of a line as Plotly draws it: its readings in order, joined across the empty buckets between them, and a
 * break (a null) where the next reading is further off than GAP_FACTOR times the series' usual spacing. A week cut into
 * 15-minute buckets over readings every 30 minutes alternates value and empty: with every empty bucket a break, no two
 * readings were adjacent and Plotly drew no line at all. A real outage (a device silent for hours) stays a gap.
 */
export function lineOf(rows: readonly Row[], key: string): { x: string[]; y: (number | null)[] } {
  const points: { ts: number; v: number }[] = [];
  for (const r of rows) {
    const v = asNumber(r[key]);
    if (v !== undefined && typeof r.ts === 'number') points.push({ ts: r.ts, v });
  }
  const steps = points
    .slice(1)
    .map((p, i) => p.ts - points[i]!.ts)
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  const usual = steps.length ? steps[Math.floor(steps.length / 2)]! : 0;
  const x: string[] = [];
  const y: (number | null)[] = [];
  points.forEach((p, i) => {
    if (i > 0 && usual > 0 && p.ts - points[i - 1]!.ts > GAP_FACTOR * usual) {
      x.push(xOf(points[i - 1]!.ts + usual));
      y.push(null);
    }
    x.push(xOf(p.ts));
    y.push(p.v);
  });
  return { x, y };
}

/** A pause longer than this many usual spacings between two readings is drawn as a gap. */
export const GAP_FACTOR = 3;
