// The tooltip of a hovered chart row (or pie slice), by the card's tooltip kind.
import { fuelProductOf, type CardData, type FuelProduct } from '@sentra/contracts';
import {
  fuelFillKey,
  fuelShiftTooltip,
  fuelTooltip,
  genericTooltip,
  laundryUsageTooltip,
  sliceTooltip,
  vendingTooltip,
  type TooltipContext,
  type TooltipModel,
  type TooltipSeries,
} from '../common/tooltips.js';
import { seriesName, type ChartView, type PlotFigure, type Row } from './series.js';

/** The fuel product a fuel chart's tank is: the product its value query reads (the demo's param 'Pertalite'). */
export function chartFuelProduct(model: Record<string, unknown> | undefined): FuelProduct | undefined {
  const q = model?.value as { param?: unknown; param_label?: unknown; subparam?: unknown } | undefined;
  return fuelProductOf(q?.param) ?? fuelProductOf(q?.param_label) ?? fuelProductOf(q?.subparam);
}

/** A tooltip's time and number rules: the chart's tooltip date format, the card's decimals (else the dashboard's), unit. */
const contextOf = (
  ts: unknown,
  fig: Pick<PlotFigure, 'formats'>,
  view: ChartView,
  decimals?: number,
): TooltipContext => ({
  ts: typeof ts === 'number' ? ts : Date.now(),
  dateFormat: fig.formats.tooltip,
  decimals: view.decimal ?? decimals,
  locale: view.locale,
  unit: view.graph_unit,
  fullNumber: view.full_number,
});

export function tooltipForRow(
  row: Row,
  fig: Pick<PlotFigure, 'keys' | 'colors' | 'formats'>,
  view: ChartView,
  decimals?: number,
  product?: FuelProduct,
): TooltipModel {
  const ctx = contextOf(row.ts, fig, view, decimals);
  const series: TooltipSeries[] = fig.keys.map((k, i) => ({
    key: k,
    label: seriesName(view, k),
    value: row[k],
    color: fig.colors[i],
  }));
  switch (view.tooltip) {
    case 'fuel': {
      const fill = fuelFillKey(fig.keys, view.fill_key);
      const tank = fig.keys.find((k) => k !== fill);
      return fuelTooltip(
        ctx,
        tank ? row[tank] : undefined,
        fill ? row[fill] : undefined,
        {
          remaining: tank ? fig.colors[fig.keys.indexOf(tank)] : undefined,
          fill: fill ? fig.colors[fig.keys.indexOf(fill)] : undefined,
        },
        product,
      );
    }
    case 'fuel_shift':
      return fuelShiftTooltip(ctx, series);
    case 'laundry_usage':
      return laundryUsageTooltip(ctx, series);
    case 'vending':
      return vendingTooltip(ctx, series);
    default:
      return genericTooltip(ctx, series, view.with_summary === true);
  }
}

/** A pie slice: the slice's value and share of the whole, and the whole when the card shows totals. */
export function tooltipForSlice(
  data: CardData | undefined,
  index: number,
  fig: Pick<PlotFigure, 'keys' | 'colors' | 'formats'>,
  view: ChartView,
  decimals?: number,
): TooltipModel {
  return sliceTooltip(
    contextOf(data?.time, fig, view, decimals),
    pieSlices(data, fig, view),
    index,
    view.with_summary === true,
  );
}

/** The slices of a pie card's data: one per row (`key`, `value`), named by the card's labels, in the figure's colours. */
export function pieSlices(
  data: CardData | undefined,
  fig: Pick<PlotFigure, 'colors'>,
  view: ChartView,
): TooltipSeries[] {
  const rows = (data?.chart_data as Row[] | undefined) ?? [];
  return rows.map((r, i) => ({
    key: String(r.key),
    label: seriesName(view, String(r.key)),
    value: r.value,
    color: fig.colors[i],
  }));
}
