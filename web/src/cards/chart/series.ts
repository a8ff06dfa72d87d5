// A chart card as Plotly data, without Plotly: traces per card type (line, area, bar, pie; monitoring and smart
// variants), the view options (xlabel, ylabel, is_stack, has_dot, is_dashed, graph_unit, graph_colors, graph_from_zero,
// y-axis min/max 'auto' unless numeric, reference line value and label, color_dot) and the fuel warning dots.
// Times are local wall-clock strings, so the axis shows the browser's time like every other card (timeAxis.ts).
import type { CardData, CardTypeCode } from '@sentra/contracts';
import { chartDateFormats, pickFormat, tickFormatStops, windowSpan, type TickFormatStop } from '../common/dates.js';
import { asNumber } from '../common/format.js';
import { seriesColors, WARNING_RED } from '../common/palette.js';
import { plotlyText } from '../../ui/plainText.js';
import { lineOf, xOf } from './timeAxis.js';
import { fuelFillKey, isSuspiciousFill, type TooltipKind } from '../common/tooltips.js';

export type ChartStyle = 'line' | 'area' | 'bar' | 'pie';

export const CHART_STYLE: Partial<Record<CardTypeCode, ChartStyle>> = {
  CHART_CARD: 'line',
  LINE_CHART_CARD: 'line',
  LINE_MONITORING_CHART_CARD: 'line',
  LINE_SMART_CHART_CARD: 'line',
  AREA_CHART_CARD: 'area',
  AREA_MONITORING_CHART_CARD: 'area',
  BAR_CHART_CARD: 'bar',
  BAR_MONITORING_CHART_CARD: 'bar',
  PIE_CHART_CARD: 'pie',
  PIE_MONITORING_CHART_CARD: 'pie',
};

export interface ChartView {
  xlabel?: string;
  ylabel?: string;
  is_stack?: boolean;
  has_dot?: boolean;
  is_dashed?: boolean;
  graph_unit?: string;
  graph_colors?: string[];
  graph_from_zero?: boolean;
  graph_yaxis_min?: number | 'auto';
  graph_yaxis_max?: number | 'auto';
  reference_line_value?: number;
  reference_line_label?: string;
  with_summary?: boolean;
  color_dot?: string;
  date_format?: string;
  locale?: string;
  decimal?: number;
  full_number?: boolean;
  tooltip?: TooltipKind;
  fill_key?: string;
  /** display names of the series keys */
  labels?: Record<string, string>;
}

export type Row = Record<string, unknown>;

export { GAP_FACTOR, lineOf, msOfX, xOf, zoomableLayout, zoomedRange } from './timeAxis.js';

/** moment-style tokens → d3 time format (Plotly axes). */
export function d3Format(pattern: string): string {
  return pattern.replace(
    /YYYY|YY|MMMM|MMM|MM|DD|HH|mm|ss/g,
    (t) => ({ YYYY: '%Y', YY: '%y', MMMM: '%B', MMM: '%b', MM: '%m', DD: '%d', HH: '%H', mm: '%M', ss: '%S' })[t]!,
  );
}

/**
 * A series' display name. Spec 02's query labels are identifiers (lower-case start, at most 16 characters: "sisa_bbm",
 * "fasa r"), so a chart shows them as words: underscores as spaces, the first letter capital, a word without vowels
 * (an abbreviation or a phase letter: "bbm", "r", "kwh") in capitals: "Sisa BBM", "Fasa R". The view's own `labels`
 * name wins; other text (a device's name in a pie) is shown as it is once it starts with a capital or is not a label.
 */
export function seriesName(view: Pick<ChartView, 'labels'> | undefined, key: string): string {
  const own = view?.labels?.[key];
  if (typeof own === 'string' && own !== '') return own;
  if (!/^[a-z][a-z0-9_ ]*$/.test(key)) return key;
  const words = key.split(/[_ ]+/).filter((w) => w !== '');
  return words
    .map((w, i) =>
      /^[a-z]+$/.test(w) && !/[aeiou]/.test(w) ? w.toUpperCase() : i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w,
    )
    .join(' ');
}

export function seriesKeys(data: CardData | undefined): string[] {
  if (Array.isArray(data?.chart_keys) && data!.chart_keys.length > 0) return data!.chart_keys;
  const first = (data?.chart_data as Row[] | undefined)?.[0];
  return first ? Object.keys(first).filter((k) => k !== 'ts' && k !== 'key' && k !== 'value') : [];
}

const axisBound = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PlotTrace = Record<string, any>;

export interface PlotFigure {
  traces: PlotTrace[];
  /** trace index of each series key (for extendTraces) */
  traceOf: Record<string, number>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  layout: Record<string, any>;
  keys: string[];
  colors: string[];
  /** `axis`: the labels' format (moment-style) as a card's date shows it; `ticks`: what the x axis draws */
  formats: { axis: string; tooltip: string };
  /** a pie whose every slice is 0 or missing: there is nothing to divide, so no pie is drawn */
  allZero?: boolean;
  /** rows (buckets) but not one reading in them: the card says so instead of drawing axes around nothing */
  empty?: boolean;
}

/** Fuel charts: the suspicious fills as red dots on the tank line. */
export function warningPoints(
  rows: readonly Row[],
  keys: readonly string[],
  view: ChartView,
): { x: string[]; y: number[]; ts: number[] } {
  const out = { x: [] as string[], y: [] as number[], ts: [] as number[] };
  if (view.tooltip !== 'fuel') return out;
  const fill = fuelFillKey(keys, view.fill_key);
  const tank = keys.find((k) => k !== fill);
  if (!fill) return out;
  for (const r of rows) {
    if (!isSuspiciousFill(r[fill])) continue;
    const y = asNumber(tank ? r[tank] : r[fill]);
    if (y === undefined || typeof r.ts !== 'number') continue;
    out.x.push(xOf(r.ts));
    out.y.push(y);
    out.ts.push(r.ts);
  }
  return out;
}

export function buildFigure(cat: CardTypeCode, data: CardData | undefined, view: ChartView): PlotFigure {
  const style = CHART_STYLE[cat] ?? 'line';
  const rows = ((data?.chart_data as Row[] | undefined) ?? []).filter((r) => r && typeof r === 'object');
  const keys = style === 'pie' ? rows.map((r) => String(r.key)) : seriesKeys(data);
  const colors = seriesColors(view.graph_colors, keys.length);
  // a series' name in Plotly's legend: the card's label for it or the device's own key, both shown as text
  const label = (k: string) => plotlyText(seriesName(view, k));
  const firstTs = typeof rows[0]?.ts === 'number' ? (rows[0]!.ts as number) : undefined;
  const lastTs = typeof rows.at(-1)?.ts === 'number' ? (rows.at(-1)!.ts as number) : undefined;
  const chosen = chartDateFormats(data?.window, firstTs, lastTs);
  const formats = { axis: pickFormat(view.date_format, chosen.axis), tooltip: chosen.tooltip };
  const ticks = xTicks(view, windowSpan(data?.window, firstTs, lastTs));
  const traceOf: Record<string, number> = {};
  const traces: PlotTrace[] = [];

  if (style === 'pie') {
    traces.push({
      type: 'pie',
      labels: keys.map(label),
      values: rows.map((r) => asNumber(r.value) ?? 0),
      marker: { colors },
      hole: 0.45,
      sort: false,
      textinfo: 'percent',
      hoverinfo: 'none',
    });
    const layout = baseLayout(view, style, ticks);
    layout.showlegend = showsLegend(cat, keys);
    const allZero = rows.length > 0 && rows.every((r) => !asNumber(r.value));
    return { traces, traceOf, layout, keys, colors, formats, allZero };
  }

  const x = rows.map((r) => (typeof r.ts === 'number' ? xOf(r.ts) : ''));
  keys.forEach((k, i) => {
    traceOf[k] = traces.length;
    const y = rows.map((r) => asNumber(r[k]) ?? null);
    // a plain line joins its readings across empty buckets, broken only where readings really stop (stacked series
    // keep the shared grid their sums need)
    const own = style !== 'bar' && !view.is_stack ? lineOf(rows, k) : { x, y };
    const common = {
      name: label(k),
      x: own.x,
      y: own.y,
      hoverinfo: 'none',
      marker: { color: view.has_dot && view.color_dot ? view.color_dot : colors[i] },
    };
    if (style === 'bar') traces.push({ ...common, type: 'bar' });
    else
      traces.push({
        ...common,
        type: 'scatter',
        // a single reading (the first hour of a day) draws no line: its dot shows until a frame brings a second
        mode: view.has_dot || y.filter((v) => v !== null).length === 1 ? 'lines+markers' : 'lines',
        line: { color: colors[i], width: 2, dash: view.is_dashed ? 'dash' : 'solid', shape: 'linear' },
        connectgaps: false,
        ...(style === 'area'
          ? view.is_stack
            ? { stackgroup: 'one' }
            : { fill: i === 0 ? 'tozeroy' : 'tonexty' }
          : view.is_stack
            ? { stackgroup: 'one', fill: 'none' }
            : {}),
      });
  });
  const warn = warningPoints(rows, keys, view);
  if (view.tooltip === 'fuel') {
    traces.push({
      type: 'scatter',
      mode: 'markers',
      name: 'warning',
      x: warn.x,
      y: warn.y,
      hoverinfo: 'none',
      showlegend: false,
      marker: { color: WARNING_RED, size: 11, line: { color: '#ffffff', width: 2 } },
    });
  }
  const layout = baseLayout(view, style, ticks);
  layout.showlegend = showsLegend(cat, keys);
  // bars and filled areas reach down to zero
  layout.margin = chartMargins(
    view,
    valueRange(rows, keys, view.is_stack === true, style === 'bar' || style === 'area'),
    layout.showlegend,
  );
  // (a live chart's frame is followed by appends: only its rows say whether it is empty)
  const empty =
    rows.length === 0 ||
    (data?.window?.type !== 'REALTIME' && !rows.some((r) => keys.some((k) => asNumber(r[k]) !== undefined)));
  if (empty) emptyAxes(layout);
  // a line over buckets spans its whole grid (the window up to now), not only the buckets holding readings: a week
  // with one day of data still reads as a week; live (REALTIME) lines follow their points as they are appended
  else if (style !== 'bar' && rows.length > 1 && data?.window?.type !== 'REALTIME' && x[0] && x.at(-1))
    layout.xaxis = { ...layout.xaxis, autorange: false, range: [x[0], x.at(-1)] };
  return { traces, traceOf, layout, keys, colors, formats, empty };
}

/**
 * A chart with no readings (no rows, or buckets all empty): Plotly would run its autorange from −1 to 1 (over a
 * year-2000 date axis without rows). The axes keep their
 * place (the card's "no data" text sits over them) without numbers or dates that mean nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function emptyAxes(layout: Record<string, any>) {
  layout.yaxis = { ...layout.yaxis, autorange: false, range: [0, 1], showticklabels: false, ticksuffix: undefined };
  layout.xaxis = { ...layout.xaxis, showticklabels: false };
}

/** The summary strip names the series already: Plotly's legend only for several series of a plain chart. */
const showsLegend = (cat: CardTypeCode, keys: readonly string[]) =>
  keys.length >= 2 && !cat.includes('MONITORING') && cat !== 'LINE_SMART_CHART_CARD';

/** The smallest and largest value the y axis shows (stacked series add up), over the rows and the view's bounds. */
export function valueRange(
  rows: readonly Row[],
  keys: readonly string[],
  stacked: boolean,
  fromZero = false,
): { min: number; max: number } | undefined {
  let min = fromZero ? 0 : Infinity;
  let max = fromZero ? 0 : -Infinity;
  for (const r of rows) {
    let up = 0;
    let down = 0;
    for (const k of keys) {
      const v = asNumber(r[k]);
      if (v === undefined) continue;
      if (stacked) v >= 0 ? (up += v) : (down += v);
      else ((min = Math.min(min, v)), (max = Math.max(max, v)));
    }
    if (stacked) ((min = Math.min(min, down)), (max = Math.max(max, up)));
  }
  return min <= max ? { min, max } : undefined;
}

/** Average advance of the axis font (11 px Roboto) per character of a tick label, a little generous. */
const CHAR_PX = 7;

/**
 * Margins wide enough for the y tick labels with their unit, the axis titles and the legend row above the plot. The
 * axes' automargin is off: it measured every axis's labels after drawing them (a fifth of a chart's first draw in the
 * 30-card profile) and drew the chart again when they did not fit. These margins are what keeps the labels inside
 * instead; e2e/cards-perf.spec.ts checks that no tick label of the 30-card dashboard passes its chart's edge.
 */
export function chartMargins(
  view: ChartView,
  range: { min: number; max: number } | undefined,
  legend: boolean,
): { l: number; r: number; t: number; b: number } {
  const lo = Math.min(axisBound(view.graph_yaxis_min) ?? range?.min ?? 0, view.graph_from_zero ? 0 : Infinity);
  const hi = Math.max(axisBound(view.graph_yaxis_max) ?? range?.max ?? 0, view.graph_from_zero ? 0 : -Infinity);
  const span = hi - lo;
  // tick steps are about a fifth of the span: as many decimals as such a step needs
  const decimals = span > 0 ? Math.min(6, Math.max(0, Math.ceil(-Math.log10(span / 5)))) : 0;
  const widest = Math.max(Math.abs(lo), Math.abs(hi)) * 1.1;
  const digits = Math.max(1, Math.floor(Math.log10(Math.max(1, widest))) + 1);
  const chars =
    digits +
    Math.floor((digits - 1) / 3) +
    (decimals ? decimals + 1 : 0) +
    (lo < 0 ? 1 : 0) +
    (view.graph_unit ? view.graph_unit.length + 1 : 0);
  return {
    l: Math.max(48, Math.ceil(chars * CHAR_PX) + 18 + (view.ylabel ? 18 : 0)),
    // the last date label may reach past the plot's right edge, the top tick label half its height above it
    r: 20,
    t: legend ? 48 : 20,
    b: 36 + (view.xlabel ? 18 : 0),
  };
}

/**
 * The x axis's labels: the card's own `date_format` on every tick, else formats by the step Plotly picks, chosen for
 * the window's span (a week's ticks carry their dates: tickFormatStops).
 */
function xTicks(view: ChartView, span: number): { tickformat?: string; tickformatstops?: TickFormatStop[] } {
  const own = pickFormat(view.date_format, '');
  return own ? { tickformat: d3Format(own) } : { tickformatstops: tickFormatStops(span) };
}

function baseLayout(view: ChartView, style: ChartStyle, ticks: ReturnType<typeof xTicks>) {
  const min = axisBound(view.graph_yaxis_min);
  const max = axisBound(view.graph_yaxis_max);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const layout: Record<string, any> = {
    autosize: true,
    margin: { l: 48, r: 12, t: 8, b: 36 },
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    font: { family: 'Roboto, Helvetica, Arial, sans-serif', size: 11, color: '#424242' },
    showlegend: true,
    legend: { orientation: 'h', x: 0, y: 1.02, yanchor: 'bottom', font: { size: 10 } },
    hovermode: style === 'pie' ? 'closest' : 'x',
    // every x along a line has its tooltip: the nearest row however far its point is (Plotly looks only 20 px away by
    // default, so between the points of a sparse line, or beside a gap, nothing was hovered)
    hoverdistance: -1,
    dragmode: false,
  };
  if (style === 'pie') {
    layout.margin = { l: 8, r: 8, t: 8, b: 8 };
    layout.legend = { orientation: 'v', font: { size: 10 } };
    return layout;
  }
  layout.barmode = view.is_stack ? 'stack' : 'group';
  // Nothing measured after drawing (each measure forces a layout): ticklabeloverflow 'allow' (Plotly otherwise measures
  // every tick label to hide those past the chart's edge), tickangle 0 (an 'auto' angle measures them all to see
  // whether they overlap; date labels are short and Plotly spaces ticks by the axis length) and automargin off
  // (chartMargins leaves the room). Together a first draw took ~40 → ~26 ms in the 30-card measurement.
  layout.xaxis = {
    type: 'date',
    ...ticks,
    title: view.xlabel ? { text: plotlyText(view.xlabel), standoff: 4 } : undefined,
    showgrid: false,
    automargin: false,
    ticklabeloverflow: 'allow',
    tickangle: 0,
  };
  layout.yaxis = {
    title: view.ylabel ? { text: plotlyText(view.ylabel), standoff: 4 } : undefined,
    ticksuffix: view.graph_unit ? ` ${plotlyText(view.graph_unit)}` : undefined,
    rangemode: view.graph_from_zero ? 'tozero' : 'normal',
    autorange:
      min === undefined && max === undefined ? true : min === undefined ? 'min' : max === undefined ? 'max' : false,
    range: min !== undefined || max !== undefined ? [min ?? null, max ?? null] : undefined,
    gridcolor: '#eeeeee',
    automargin: false,
    ticklabeloverflow: 'allow',
    tickangle: 0,
    separatethousands: true,
    // the cards' number rule (spec 02 section 9 "Display") on the axis too: k/M/B/T from 1e3, full numbers when the
    // card asks for them, so an axis never says "20k L" beside a summary's "20.000 L" (issue 28)
    exponentformat: view.full_number ? 'none' : 'B',
    minexponent: 3,
  };
  const ref = axisBound(view.reference_line_value);
  if (ref !== undefined) {
    layout.shapes = [
      {
        type: 'line',
        xref: 'paper',
        x0: 0,
        x1: 1,
        y0: ref,
        y1: ref,
        line: { color: WARNING_RED, width: 1.5, dash: 'dot' },
      },
    ];
    if (view.reference_line_label)
      layout.annotations = [
        {
          xref: 'paper',
          x: 1,
          xanchor: 'right',
          y: ref,
          yanchor: 'bottom',
          text: plotlyText(view.reference_line_label),
          showarrow: false,
          font: { color: WARNING_RED, size: 10 },
        },
      ];
  }
  return layout;
}

/** Rows appended to a REALTIME chart as extendTraces input, or null when they bring a series the chart lacks. */
export function extension(
  rows: readonly Row[],
  fig: Pick<PlotFigure, 'keys' | 'traceOf'>,
): { x: string[][]; y: (number | null)[][]; indices: number[] } | null {
  for (const r of rows) for (const k of Object.keys(r)) if (k !== 'ts' && !(k in fig.traceOf)) return null;
  const x = fig.keys.map(() => rows.map((r) => xOf(Number(r.ts))));
  const y = fig.keys.map((k) => rows.map((r) => asNumber(r[k]) ?? null));
  return { x, y, indices: fig.keys.map((k) => fig.traceOf[k]!) };
}

/** Per series: the latest value and min/avg/max over the shown rows (monitoring and smart charts, text chart). */
export function seriesSummary(
  rows: readonly Row[],
  keys: readonly string[],
): Record<string, { last?: number; lastTs?: number; min?: number; max?: number; avg?: number }> {
  const out: Record<string, { last?: number; lastTs?: number; min?: number; max?: number; avg?: number }> = {};
  for (const k of keys) {
    let n = 0;
    let sum = 0;
    const s: { last?: number; lastTs?: number; min?: number; max?: number; avg?: number } = {};
    for (const r of rows) {
      const v = asNumber(r[k]);
      if (v === undefined) continue;
      n++;
      sum += v;
      s.last = v;
      s.lastTs = typeof r.ts === 'number' ? r.ts : s.lastTs;
      s.min = s.min === undefined ? v : Math.min(s.min, v);
      s.max = s.max === undefined ? v : Math.max(s.max, v);
    }
    if (n) s.avg = sum / n;
    out[k] = s;
  }
  return out;
}
