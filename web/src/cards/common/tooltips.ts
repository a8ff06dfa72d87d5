// Chart tooltips (spec 02 section 2 "Chart tooltips", section 9 "Display") as data: a title (the time), rows, an
// optional total and an alert. Pure builders, so every tooltip is unit-tested; ChartTooltip.tsx draws any of them.
import {
  DEFAULT_CARD_LOCALE,
  FUEL_FILL_ALERT_LITRES,
  FUEL_SHIFT_TOTALIZER_OFFSETS,
  T,
  fuelProductOf,
  type ChartTooltipKind,
  type FuelProduct,
} from '@sentra/contracts';
import { formatDate } from './dates.js';
import { asNumber, formatCardNumber, formatPercent, withUnit } from './format.js';

export interface TooltipRow {
  label: string;
  value: string;
  color?: string;
  /** a second line under the label (a fuel product's totalizer reading) */
  detail?: string;
  /** drawn with the red warning dot */
  warning?: boolean;
}
export interface TooltipModel {
  title: string;
  rows: TooltipRow[];
  total?: string;
  alert?: string;
}

/** Which tooltip a chart card shows (`view.tooltip`, contracts' CHART_TOOLTIP_KINDS; generic when absent). */
export type TooltipKind = ChartTooltipKind;

export interface TooltipSeries {
  key: string;
  label?: string;
  value: unknown;
  color?: string;
}

export interface TooltipContext {
  ts: number;
  dateFormat: string;
  decimals?: number;
  locale?: string;
  unit?: string;
  fullNumber?: boolean;
}

const title = (c: TooltipContext) => formatDate(c.ts, c.dateFormat, c.locale || DEFAULT_CARD_LOCALE);
const num = (v: unknown, c: TooltipContext, full = c.fullNumber) => {
  const n = asNumber(v);
  return n === undefined
    ? v === null || v === undefined
      ? T.cardViews.noValue
      : String(v)
    : formatCardNumber(n, { decimals: c.decimals, fullNumber: full, locale: c.locale });
};

/** Generic: "time label, series values with unit, optional total". */
export function genericTooltip(c: TooltipContext, series: readonly TooltipSeries[], withTotal = false): TooltipModel {
  const rows = series.map((s) => ({
    label: s.label ?? s.key,
    value: withUnit(num(s.value, c), c.unit ?? '', false),
    color: s.color,
  }));
  const model: TooltipModel = { title: title(c), rows };
  if (withTotal) {
    const values = series.map((s) => asNumber(s.value)).filter((v): v is number => v !== undefined);
    model.total = withUnit(
      formatCardNumber(
        values.reduce((a, v) => a + v, 0),
        { decimals: c.decimals, fullNumber: c.fullNumber, locale: c.locale },
      ),
      c.unit ?? '',
      false,
    );
  }
  return model;
}

/** Each slice's share of a pie's whole (the positive values: a pie draws no negative slice); undefined when nothing to divide. */
export function sliceShares(slices: readonly TooltipSeries[]): { whole: number; shares: (number | undefined)[] } {
  const values = slices.map((s) => Math.max(0, asNumber(s.value) ?? 0));
  const whole = values.reduce((a, v) => a + v, 0);
  return { whole, shares: values.map((v) => (whole > 0 ? v / whole : undefined)) };
}

/** A value with its share of the whole ("300 kWh · 30%"), the value alone when there is no share */
export const withShare = (text: string, share: number | undefined, locale?: string): string =>
  share === undefined ? text : `${text} · ${formatPercent(share, locale)}`;

/**
 * A pie slice, the generic tooltip of one series: its value with unit and its share of the whole ("300 kWh · 30%"),
 * and the whole as the total when the card shows totals (`with_summary`).
 */
export function sliceTooltip(
  c: TooltipContext,
  slices: readonly TooltipSeries[],
  index: number,
  withTotal = false,
): TooltipModel {
  const s = slices[index];
  const { whole, shares } = sliceShares(slices);
  const model: TooltipModel = { title: title(c), rows: [] };
  if (s) {
    const value = withUnit(num(s.value, c), c.unit ?? '', false);
    const share = asNumber(s.value) === undefined ? undefined : shares[index];
    model.rows.push({ label: s.label ?? s.key, value: withShare(value, share, c.locale), color: s.color });
  }
  if (withTotal)
    model.total = withUnit(
      formatCardNumber(whole, { decimals: c.decimals, fullNumber: c.fullNumber, locale: c.locale }),
      c.unit ?? '',
      false,
    );
  return model;
}

/** "Fuel-fill alert: when tank fill is below 300 L and non-zero". */
export const isSuspiciousFill = (fill: unknown): boolean => {
  const n = asNumber(fill);
  return n !== undefined && n > 0 && n < FUEL_FILL_ALERT_LITRES;
};

const litres = (v: unknown, c: TooltipContext) =>
  asNumber(v) === undefined ? T.cardViews.noValue : T.cardViews.litres(num(v, c, true));

/**
 * Fuel station: time (and the tank's product), remaining fuel in L, tank fill in L, and the fraud hint for a small
 * fill.
 */
export function fuelTooltip(
  c: TooltipContext,
  remaining: unknown,
  fill: unknown,
  colors: { remaining?: string; fill?: string } = {},
  product?: FuelProduct,
): TooltipModel {
  const suspicious = isSuspiciousFill(fill);
  const model: TooltipModel = {
    title: product ? `${title(c)} · ${product}` : title(c),
    rows: [
      { label: T.cardViews.tank, value: litres(remaining, c), color: colors.remaining },
      {
        label: T.cardViews.fill,
        value: litres(fill, c),
        color: suspicious ? undefined : colors.fill,
        warning: suspicious,
      },
    ],
  };
  if (suspicious) model.alert = T.dashboards.tooltips.fraudHint;
  return model;
}

/**
 * Which series of a fuel chart is the tank fill: the card's `fill_key`, else the series named a fill (fill, isi,
 * pengisian, refuel, delivery), else the last of two or more (a tank query lists volume, then fill). Never a guess
 * that silently finds nothing: with two series there is always a fill, so the fraud hint cannot vanish.
 */
export function fuelFillKey(keys: readonly string[], own?: unknown): string | undefined {
  if (typeof own === 'string' && keys.includes(own)) return own;
  return keys.find((k) => /fill|isi|refuel|delivery/i.test(k)) ?? (keys.length >= 2 ? keys.at(-1) : undefined);
}

/**
 * Fuel shift totals: the litres sold per product in the shift, named by the product (Premium, Pertamax, Pertalite,
 * Biosolar, Pertamax Turbo), with the pumps' totalizer reading (the product's fixed offset plus the shift's litres)
 * for the three products that have an offset, and the shift's total.
 */
export function fuelShiftTooltip(c: TooltipContext, series: readonly TooltipSeries[]): TooltipModel {
  let sum = 0;
  const rows = series.map((s): TooltipRow => {
    const name = s.label ?? s.key;
    const product = fuelProductOf(name) ?? fuelProductOf(s.key);
    const sold = asNumber(s.value);
    const offset = product ? FUEL_SHIFT_TOTALIZER_OFFSETS[product] : undefined;
    if (sold !== undefined) sum += sold;
    const row: TooltipRow = {
      label: product ?? name,
      value: sold === undefined ? T.cardViews.noValue : T.cardViews.litres(num(sold, c, true)),
      color: s.color,
    };
    if (offset !== undefined && sold !== undefined)
      row.detail = T.cardViews.totalizer(T.cardViews.litres(num(offset + sold, c, true)));
    return row;
  });
  return { title: title(c), rows, total: T.cardViews.litres(num(sum, c, true)) };
}

/** Laundry usage count: how many times each machine ran in the bucket. */
export function laundryUsageTooltip(c: TooltipContext, series: readonly TooltipSeries[]): TooltipModel {
  const rows = series.map((s) => {
    const n = asNumber(s.value);
    return {
      label: s.label ?? s.key,
      value:
        n === undefined
          ? T.cardViews.noValue
          : T.cardViews.usageTimes(formatCardNumber(n, { decimals: 0, fullNumber: true, locale: c.locale })),
      color: s.color,
    };
  });
  const total = rows.length > 1 ? series.reduce((a, s) => a + (asNumber(s.value) ?? 0), 0) : undefined;
  return {
    title: `${title(c)} · ${T.cardViews.usageCount}`,
    rows,
    total:
      total === undefined
        ? undefined
        : T.cardViews.usageTimes(formatCardNumber(total, { decimals: 0, fullNumber: true, locale: c.locale })),
  };
}

/**
 * Laundry/dryer on/off vending: each series is a machine's duty ratio (share of the bucket it was on, 0..1, what a
 * boolean AVG gives); the tooltip shows on and off as percentages with 0 or 2 decimals.
 */
export function vendingTooltip(c: TooltipContext, series: readonly TooltipSeries[]): TooltipModel {
  const rows: TooltipRow[] = [];
  for (const s of series) {
    const ratio = asNumber(s.value);
    const name = s.label ?? s.key;
    if (ratio === undefined) {
      rows.push({ label: name, value: T.cardViews.noValue, color: s.color });
      continue;
    }
    const on = Math.min(1, Math.max(0, ratio));
    rows.push({
      label: name,
      value: `${T.cardViews.vendingOn} ${formatPercent(on, c.locale)} · ${T.cardViews.vendingOff} ${formatPercent(1 - on, c.locale)}`,
      color: s.color,
    });
  }
  return { title: title(c), rows };
}
