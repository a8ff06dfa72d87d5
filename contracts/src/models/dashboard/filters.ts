// Time filters as stored: filter variables (spec 02 section 3 "Variable") and a card's filter config ("Filter config on
// a card"), with the options section 9 allows per range and the N Data bound of section 5.
import { z } from 'zod';
import { T } from '../../text/id.js';
import {
  AUTO_PERIOD,
  CUSTOM_FILTER_KEY,
  CUSTOM_PERIODS,
  DEFAULT_FILTER_KEY,
  FILTER_TYPES,
  NDATA_MAX,
  NDATA_MIN,
  PERIODS,
  isPeriodicRange,
  periodicOptions,
  rangeParams,
  type FilterType,
  type PeriodIntervals,
} from '../../catalogue/filters.js';

const t = T.dashboards.variables;

const ndata = z.number({ error: t.ndata }).int(t.ndata).min(NDATA_MIN, t.ndata).max(NDATA_MAX, t.ndata);

/** The fields every time filter shares; `period` 'auto' is dropped ("A period of auto is removed"). */
const filterFields = {
  range: z.string().optional(),
  range_param: z.number().optional(),
  period: z.union([z.enum(PERIODS), z.literal(AUTO_PERIOD)]).optional(),
  interval: z.number().optional(),
  ndata: ndata.optional(),
};

type FilterFields = { range?: string; range_param?: number; period?: string; interval?: number; ndata?: number };

function dropAutoPeriod<F extends FilterFields>(filter: F): F {
  if (filter.period !== AUTO_PERIOD) return filter;
  const { period: _auto, ...rest } = filter;
  return rest as F;
}

/** The options of section 9 a filter of this type must respect; issues at the offending field. */
function checkFilterOptions(type: FilterType, f: FilterFields, ctx: z.RefinementCtx) {
  const notOffered = (path: string) => ctx.addIssue({ code: 'custom', path: [path], message: t.optionNotOffered });
  if (type === 'REALTIME') {
    if (f.ndata === undefined) ctx.addIssue({ code: 'custom', path: ['ndata'], message: t.ndata });
    return;
  }
  let allowed: PeriodIntervals = CUSTOM_PERIODS;
  if (type === 'PERIODIC') {
    if (!isPeriodicRange(f.range)) return notOffered('range');
    const params = rangeParams(f.range);
    if (params.length > 0 ? !params.includes(f.range_param as number) : f.range_param !== undefined)
      return notOffered('range_param');
    allowed = periodicOptions(f.range, f.range_param);
  }
  if (f.period === undefined || f.period === AUTO_PERIOD) {
    if (f.interval !== undefined) notOffered('interval');
    return;
  }
  const intervals = allowed[f.period as keyof PeriodIntervals];
  if (!intervals) return notOffered('period');
  if (!intervals.includes(f.interval as number)) notOffered('interval');
}

/** A filter variable: `id` is its key, `name` its label (checked where the variable map knows the key). */
export const FilterVariable = z
  .object({
    _varType: z.literal('filter'),
    id: z.string(),
    name: z.string({ error: t.labelRequired }).refine((s) => s.trim() !== '', t.labelRequired),
    type: z.enum(FILTER_TYPES, { error: T.common.invalidInput }),
    ...filterFields,
    is_default: z.boolean().optional(),
  })
  .superRefine((f, ctx) => checkFilterOptions(f.type, f, ctx))
  .transform(dropAutoPeriod);
export type FilterVariable = z.output<typeof FilterVariable>;

/** The type a card filter implies: N Data makes it realtime, a range periodic, else custom. */
export function cardFilterType(f: FilterFields): FilterType {
  return f.ndata !== undefined ? 'REALTIME' : f.range !== undefined ? 'PERIODIC' : 'CUSTOM';
}

/**
 * A card's filter. `fixed` (beyond the spec's fields): the card keeps this window whatever filter or range the view
 * asks for — a "today" figure stays today's when the viewer picks the last 7 days (as a Grafana panel's relative time
 * or a ThingsBoard widget's own time window). Only the card's first filter may fix it.
 */
export const CardFilter = z
  .looseObject({ name: z.string().optional(), ...filterFields, fixed: z.boolean().optional() })
  .superRefine((f, ctx) => checkFilterOptions(cardFilterType(f), f, ctx))
  .transform(dropAutoPeriod);
export type CardFilter = z.output<typeof CardFilter>;

/** A card's filters: 'default' first, others keyed by id. */
export const CardFilters = z.record(z.string().min(1), CardFilter);
export type CardFilters = z.output<typeof CardFilters>;

/** The filters a card offers, in order: 'default' first, then by id; a 'custom' filter when it has none. */
export function cardFilterList(filters: CardFilters | undefined): { key: string; filter: CardFilter }[] {
  const entries = Object.entries(filters ?? {});
  if (entries.length === 0) return [{ key: CUSTOM_FILTER_KEY, filter: {} }];
  entries.sort(([a], [b]) => (a === DEFAULT_FILTER_KEY ? -1 : b === DEFAULT_FILTER_KEY ? 1 : 0));
  return entries.map(([key, filter]) => ({ key, filter }));
}

/** The filter a card is fixed to (its first, flagged `fixed`, with a window of its own), else undefined. */
export function fixedCardFilter(filters: CardFilters | undefined): CardFilter | undefined {
  const first = cardFilterList(filters)[0]!.filter;
  return first.fixed === true && (first.range !== undefined || first.ndata !== undefined || first.period !== undefined)
    ? first
    : undefined;
}

/**
 * The dashboard view's starting filter among its filter variables: one flagged default wins, else the first periodic
 * one; undefined means a start/end range.
 */
export function initialViewFilter(filters: readonly FilterVariable[]): FilterVariable | undefined {
  return filters.find((f) => f.is_default) ?? filters.find((f) => f.type === 'PERIODIC');
}
