// The Plotly chart cards (line, area, bar, pie; monitoring and smart variants). A full frame redraws with
// Plotly.react; REALTIME appends extend the traces (Plotly.extendTraces, keeping N data) without redrawing from
// scratch. Draws go through chartDraws.ts (Plotly loaded after the first values, one chart per task, only in view);
// the summary strip shows at once. Plotly's own hover label is off: the card draws the tooltip of its kind.
import { useEffect, useMemo, useRef, useState } from 'react';
import { T, type CardTypeCode } from '@sentra/contracts';
import { CARD_CLASS } from '../common/cardStyles.js';
import type { CardViewProps } from '../common/definition.js';
import { ChartTooltip } from '../common/ChartTooltip.js';
import { MAX_CHART_ROWS } from '../../dashboards/live/cardFeed.js';
import { asNumber, formatCardNumber, withUnit } from '../common/format.js';
import { sliceShares, withShare, type TooltipModel } from '../common/tooltips.js';
import { useElementSize } from '../common/useElementSize.js';
import { chartFuelProduct, pieSlices, tooltipForRow, tooltipForSlice } from './hover.js';
import { releaseChart, requestChartDraw, type ChartLibrary } from './chartDraws.js';
import { useTimeZoom } from '../../dashboards/live/timeZoom.js';
import {
  buildFigure,
  extension,
  seriesName,
  zoomableLayout,
  zoomedRange,
  seriesSummary,
  xOf,
  type ChartView as ChartViewFields,
  type PlotFigure,
  type Row,
} from './series.js';

type Variant = 'plain' | 'monitoring' | 'smart';

const variantOf = (cat: string): Variant =>
  cat.includes('MONITORING') ? 'monitoring' : cat === 'LINE_SMART_CHART_CARD' ? 'smart' : 'plain';

/** A number of a summary strip: the card's decimals (else the dashboard's), k/M/B/T unless full_number, its unit. */
const summaryNumber = (n: number | undefined, view: ChartViewFields, decimals?: number) =>
  n === undefined
    ? T.cardViews.noValue
    : withUnit(
        formatCardNumber(n, { decimals: view.decimal ?? decimals, fullNumber: view.full_number, locale: view.locale }),
        view.graph_unit ?? '',
        false,
      );

function SummaryStrip({
  fig,
  rows,
  latest,
  view,
  decimals,
  variant,
}: {
  fig: PlotFigure;
  rows: Row[];
  /** each series' newest reading (the gateway's, for charts of levels): the headline, else the last row */
  latest?: Record<string, { value?: unknown }>;
  view: ChartViewFields;
  decimals?: number;
  variant: Variant;
}) {
  const summary = seriesSummary(rows, fig.keys);
  const headline = (k: string) => (latest && k in latest ? asNumber(latest[k]!.value) : summary[k]?.last);
  const fmt = (n: number | undefined) => summaryNumber(n, view, decimals);
  return (
    <div className={CARD_CLASS.summary} data-testid="chart-summary">
      {fig.keys.map((k, i) => (
        <div key={k} className={CARD_CLASS.summaryItem}>
          <div>
            <span className={CARD_CLASS.summaryDot} style={{ background: fig.colors[i] }} />
            <span className={CARD_CLASS.caption}>{seriesName(view, k)}</span>
          </div>
          {variant === 'monitoring' ? (
            <div className={CARD_CLASS.summaryLast} data-testid="chart-last">
              {fmt(headline(k))}
            </div>
          ) : (
            <span className={CARD_CLASS.caption} style={{ color: 'inherit', fontVariantNumeric: 'tabular-nums' }}>
              min {fmt(summary[k]?.min)} · avg {fmt(summary[k]?.avg)} · max {fmt(summary[k]?.max)}
            </span>
          )}
        </div>
      ))}
    </div>
  );
}

/** A pie's summary (`with_summary`): each slice's value and share of the whole, then the whole. */
function PieSummary({
  data,
  fig,
  view,
  decimals,
}: {
  data: CardViewProps['data'];
  fig: PlotFigure;
  view: ChartViewFields;
  decimals?: number;
}) {
  const slices = pieSlices(data, fig, view);
  const { whole, shares } = sliceShares(slices);
  const fmt = (n: number | undefined) => summaryNumber(n, view, decimals);
  return (
    <div className={CARD_CLASS.summary} data-testid="chart-summary">
      {slices.map((s, i) => (
        <div key={s.key} className={CARD_CLASS.summaryItem} data-testid="pie-slice">
          <div>
            <span className={CARD_CLASS.summaryDot} style={{ background: s.color }} />
            <span className={CARD_CLASS.caption}>{s.label}</span>
          </div>
          <span className={CARD_CLASS.caption} style={{ color: 'inherit', fontVariantNumeric: 'tabular-nums' }}>
            {withShare(fmt(asNumber(s.value)), asNumber(s.value) === undefined ? undefined : shares[i], view.locale)}
          </span>
        </div>
      ))}
      <div className={CARD_CLASS.summaryItem} data-testid="pie-total">
        <span className={CARD_CLASS.caption}>{T.cardViews.total}</span>
        <span
          className={CARD_CLASS.caption}
          style={{ color: 'inherit', fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}
        >
          {fmt(whole)}
        </span>
      </div>
    </div>
  );
}

export default function ChartView({ component, view, data, state, decimals }: CardViewProps<ChartViewFields>) {
  const cat = component.cat as CardTypeCode;
  const variant = variantOf(cat);
  const host = useRef<HTMLDivElement>(null);
  const { ref: box, width, height } = useElementSize();
  const viewKey = JSON.stringify(view);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fig = useMemo(() => buildFigure(cat, data, view), [cat, state?.frame, viewKey, data?.chart_keys?.join('|')]);
  const drawn = useRef<{ frame: number; seq: number; fig: PlotFigure; size: string } | null>(null);
  const [tip, setTip] = useState<{ model: TooltipModel; x: number; y: number } | null>(null);
  const rows = ((data?.chart_data as Row[] | undefined) ?? []) as Row[];
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const figRef = useRef(fig);
  figRef.current = fig;

  // inside a dashboard view, with a mouse (a drag on a phone scrolls the page), a time chart zooms by dragging
  const zoom = useTimeZoom();
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  const zoomable = !!zoom && CHART_NOT_PIE(cat) && rows.length > 1 && finePointer();
  const latest = useRef({ fig, data, view, state, width, height, zoomable });
  latest.current = { fig, data, view, state, width, height, zoomable };
  const sizeOf = (w: number, h: number) => `${Math.round(w)}x${Math.round(h)}`;
  /** Whether the chart on screen already shows this frame, append, size and figure. */
  const isDrawn = (s: typeof state, size: string, f: PlotFigure) => {
    const prev = drawn.current;
    return (
      !!prev && prev.frame === (s?.frame ?? 0) && prev.seq === (s?.seq ?? 0) && prev.size === size && prev.fig === f
    );
  };

  /** Draws what the card holds now (it may have changed since the draw was asked for). */
  /** a button held down on the chart (a zoom being dragged): pushes wait, a redraw would drop the selection */
  const held = useRef(false);
  const draw = (el: HTMLDivElement, { plotly: P, locale }: ChartLibrary) => {
    if (held.current) return;
    const { fig, data, view, state, width, height, zoomable } = latest.current;
    const size = sizeOf(width, height);
    if (isDrawn(state, size, fig)) return;
    const prev = drawn.current;
    const frame = state?.frame ?? 0;
    const seq = state?.seq ?? 0;
    const appended =
      prev &&
      prev.frame === frame &&
      prev.size === size &&
      prev.fig === fig &&
      seq > prev.seq &&
      view.tooltip !== 'fuel'
        ? state!.appends.filter((a) => a.seq > prev.seq)
        : null;
    const complete = appended && appended.length === seq - prev!.seq;
    const ext = complete
      ? extension(
          appended!.flatMap((a) => a.rows),
          fig,
        )
      : null;
    if (ext) {
      const keep = Math.min(MAX_CHART_ROWS, data?.window?.ndata ?? MAX_CHART_ROWS);
      void P.extendTraces(el, { x: ext.x, y: ext.y } as never, ext.indices, keep);
    } else {
      // a new frame, a new size, or appends we missed: redraw from the card's full (bounded) rows
      const full = buildFigure(cat, data, view);
      figRef.current = full;
      const layout = zoomable ? zoomableLayout(full.layout) : full.layout;
      void P.react(
        el,
        full.traces as never,
        { ...layout, width, height } as never,
        // a double click would only reset Plotly's own view of the axis, not the dashboard's range
        {
          displayModeBar: false,
          responsive: false,
          locale,
          staticPlot: false,
          doubleClick: false,
          showTips: false,
        } as never,
      ).then(() => {
        attachHover(el);
        // the window this drawing shows (ms): a test or a screenshot waits for the range it chose
        const w = data?.window;
        el.dataset.drawnSpan = w?.start !== undefined && w.end !== undefined ? String(w.end - w.start) : '';
      });
    }
    drawn.current = { frame, seq, fig, size };
  };

  useEffect(() => {
    const el = host.current;
    // a re-render with nothing new to draw (a tooltip shown, a parent render) asks for no draw
    if (!el || width <= 0 || height <= 0 || isDrawn(state, sizeOf(width, height), fig)) return;
    requestChartDraw(el, (lib) => draw(el, lib));
  });

  const hoverRef = useRef({ data, view, decimals, product: chartFuelProduct(component.model) });
  hoverRef.current = { data, view, decimals, product: chartFuelProduct(component.model) };
  const attached = useRef(false);
  /** Plotly's hover events, bound once after the first draw; they read the latest data through refs. */
  const attachHover = (el: HTMLDivElement & { on?: (ev: string, fn: (e: unknown) => void) => void }) => {
    if (attached.current || !el.on) return;
    attached.current = true;
    el.on('plotly_hover', (e: unknown) => {
      const ev = e as {
        points?: { x?: unknown; pointNumber?: number; data?: { type?: string } }[];
        event?: MouseEvent;
      };
      const pt = ev.points?.[0];
      if (!pt) return;
      const rect = el.getBoundingClientRect();
      const x = (ev.event?.clientX ?? rect.left) - rect.left;
      const y = (ev.event?.clientY ?? rect.top) - rect.top;
      const f = figRef.current;
      const { data: d, view: v, decimals: dec, product } = hoverRef.current;
      let model: TooltipModel | undefined;
      if (pt.data?.type === 'pie') model = tooltipForSlice(d, pt.pointNumber ?? 0, f, v, dec);
      else {
        const row = rowsRef.current.find((r) => typeof r.ts === 'number' && xOf(r.ts) === pt.x);
        if (row) model = tooltipForRow(row, f, v, dec, product);
      }
      if (model) setTip({ model, x, y });
    });
    el.on('plotly_unhover', () => setTip(null));
    el.on('plotly_relayout', (e: unknown) => {
      const range = zoomedRange(e);
      if (range && zoomRef.current) {
        setTip(null);
        zoomRef.current(range.start, range.end);
      }
    });
  };

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const press = () => void (held.current = true);
    // released anywhere (a drag may end outside the chart): what came meanwhile is drawn
    const release = () => {
      if (!held.current) return;
      held.current = false;
      requestChartDraw(el, (lib) => draw(el, lib));
    };
    el.addEventListener('pointerdown', press, true);
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    return () => {
      el.removeEventListener('pointerdown', press, true);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      releaseChart(el);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className={CARD_CLASS.column}>
      {(variant !== 'plain' || view.with_summary) && fig.keys.length > 0 && CHART_NOT_PIE(cat) && (
        <SummaryStrip
          fig={fig}
          rows={rows}
          latest={data?.latest}
          view={view}
          decimals={decimals}
          variant={variant === 'plain' ? 'smart' : variant}
        />
      )}
      {view.with_summary && fig.keys.length > 0 && !CHART_NOT_PIE(cat) && (
        <PieSummary data={data} fig={fig} view={view} decimals={decimals} />
      )}
      <div ref={box} className={CARD_CLASS.chartBox} onMouseLeave={() => setTip(null)}>
        <div
          ref={host}
          data-testid="chart"
          data-points={rows.length}
          data-series={fig.keys.length}
          style={{ position: 'absolute', inset: 0 }}
        />
        {(rows.length === 0 || fig.empty || fig.allZero) && (
          <div className={CARD_CLASS.chartEmpty} data-testid="chart-empty">
            {rows.length === 0 || fig.empty ? T.cardViews.noData : T.cardViews.allZero}
          </div>
        )}
        {tip && <ChartTooltip model={tip.model} x={tip.x} y={tip.y} boundsWidth={width} />}
      </div>
    </div>
  );
}

const CHART_NOT_PIE = (cat: string) => !cat.startsWith('PIE_');

/** A mouse or a pen: dragging selects. A finger's drag stays the page's scroll. */
const finePointer = () => typeof matchMedia === 'function' && matchMedia('(pointer: fine)').matches;
