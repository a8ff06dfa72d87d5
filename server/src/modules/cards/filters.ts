// Card filters → the window a card is evaluated over: REALTIME (the last N points of each series) or a time range cut
// into buckets (PERIODIC calendar and rolling ranges in the application's time zone, CUSTOM start/end). The bucket
// grid is the filter's period × interval (or 'auto': the finest step keeping a chart at ≤ 700 points), clipped to the
// window: bucket i is [boundaries[i], boundaries[i+1]).
import { zoneOffset } from '../../platform/time/zone.js';
import { ownValue } from '../../platform/own.js';
import {
  CARD_WINDOW_MAX_MS,
  CUSTOM_PERIODS,
  NDATA_MAX,
  NDATA_MIN,
  T,
  isPeriodicRange,
  periodicOptions,
  rangeParams,
  type CardFilterQuery,
  type Period,
  type PeriodIntervals,
} from '@sentra/contracts';

export const AUTO_MAX_POINTS = 700;
/** a chosen period × interval may not cut a window into more buckets than this */
export const MAX_BUCKETS = 5000;
/** a CUSTOM filter without start/end covers the last day */
export const DEFAULT_CUSTOM_SPAN_MS = 86_400_000;
/** the longest window a card reads: a longer CUSTOM range is refused (the calendar ranges are all shorter) */
export const MAX_WINDOW_MS = CARD_WINDOW_MAX_MS;

export class FilterError extends Error {}

export type CardWindow =
  | { type: 'REALTIME'; ndata: number; name?: string }
  | {
      type: 'PERIODIC' | 'CUSTOM';
      start: number;
      /** exclusive */
      end: number;
      period: Period;
      interval: number;
      /** bucket edges: start, the grid points inside the window, end */
      boundaries: number[];
      name?: string;
    };

/** The fields a filter may carry, from a card's filters, a filter variable or the request. */
export interface FilterSpec {
  name?: string;
  type?: 'REALTIME' | 'PERIODIC' | 'CUSTOM';
  range?: string;
  range_param?: number;
  period?: string;
  interval?: number;
  ndata?: number;
  start?: number;
  /** inclusive, as the request layer sends it (last millisecond of the month) */
  end?: number;
  /** without a start: the window is this many ms up to its end (now when there is none), moving with the clock */
  span?: number;
}

// ---- calendar in a time zone ----

export interface LocalTime {
  year: number;
  /** 0-11 */
  month: number;
  day: number;
  /** 0 = Monday … 6 = Sunday */
  weekday: number;
}

export function localDate(ts: number, tz: string): LocalTime {
  const d = new Date(ts + zoneOffset(ts, tz));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate(), weekday: (d.getUTCDay() + 6) % 7 };
}

/** The instant of local midnight of (year, month, day) in the zone (month and day may overflow, as Date.UTC allows). */
export function localMidnight(year: number, month: number, day: number, tz: string): number {
  const wall = Date.UTC(year, month, day);
  // the offset at the wall time itself, then once more at the instant found (a DST change near midnight)
  let ts = wall - zoneOffset(wall, tz);
  ts = wall - zoneOffset(ts, tz);
  return ts;
}

export const startOfLocalDay = (ts: number, tz: string) => {
  const d = localDate(ts, tz);
  return localMidnight(d.year, d.month, d.day, tz);
};

type CalendarUnit = 'day' | 'week' | 'month' | 'year';

/** Start of the calendar unit containing ts; weeks start on Monday (ISO). */
function startOf(unit: CalendarUnit, ts: number, tz: string, interval = 1): number {
  const d = localDate(ts, tz);
  switch (unit) {
    case 'day':
      return localMidnight(d.year, d.month, d.day, tz);
    case 'week':
      return localMidnight(d.year, d.month, d.day - d.weekday, tz);
    case 'month':
      return localMidnight(d.year, d.month - (d.month % interval), 1, tz);
    case 'year':
      return localMidnight(d.year, 0, 1, tz);
  }
}

function addUnits(unit: CalendarUnit, ts: number, n: number, tz: string): number {
  const d = localDate(ts, tz);
  switch (unit) {
    case 'day':
      return localMidnight(d.year, d.month, d.day + n, tz);
    case 'week':
      return localMidnight(d.year, d.month, d.day + 7 * n, tz);
    case 'month':
      return localMidnight(d.year, d.month + n, d.day, tz);
    case 'year':
      return localMidnight(d.year + n, d.month, d.day, tz);
  }
}

const FIXED_MS: Partial<Record<Period, number>> = { second: 1000, minute: 60_000, hour: 3_600_000 };

/** The grid points of period × interval strictly inside (start, end), plus start and end. */
export function bucketBoundaries(start: number, end: number, period: Period, interval: number, tz: string): number[] {
  const out = [start];
  const fixed = FIXED_MS[period];
  if (fixed) {
    const step = fixed * interval;
    // fixed steps are laid from local midnight, so 3-hour buckets are 00, 03, 06 … on the wall clock
    const origin = startOfLocalDay(start, tz);
    let b = origin + (Math.floor((start - origin) / step) + 1) * step;
    if ((end - start) / step > MAX_BUCKETS) throw new FilterError(T.cards.tooManyBuckets(MAX_BUCKETS));
    for (; b < end; b += step) out.push(b);
  } else {
    const unit = period as CalendarUnit;
    let b = startOf(unit, start, tz, unit === 'month' ? interval : 1);
    let guard = 0;
    while (b <= start) b = addUnits(unit, b, interval, tz);
    for (; b < end; b = addUnits(unit, b, interval, tz)) {
      out.push(b);
      if (++guard > MAX_BUCKETS) throw new FilterError(T.cards.tooManyBuckets(MAX_BUCKETS));
    }
  }
  out.push(end);
  return out;
}

/** 'auto' steps, finest first: the first giving ≤ 700 buckets over the span is taken. */
const AUTO_LADDER: [Period, number][] = [
  ['second', 10],
  ['second', 30],
  ['minute', 1],
  ['minute', 5],
  ['minute', 10],
  ['minute', 15],
  ['minute', 30],
  ['hour', 1],
  ['hour', 2],
  ['hour', 3],
  ['hour', 6],
  ['hour', 12],
  ['day', 1],
  ['week', 1],
  ['month', 1],
  ['month', 2],
  ['year', 1],
];
const APPROX_MS: Record<Period, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30.44 * 86_400_000,
  year: 365.25 * 86_400_000,
};

/** The bucket step 'auto' chooses: among the allowed options (when given) the finest within 700 points. */
export function autoStep(span: number, allowed?: PeriodIntervals): [Period, number] {
  const fits = ([p, i]: [Period, number]) => Math.ceil(span / (APPROX_MS[p] * i)) <= AUTO_MAX_POINTS;
  if (allowed) {
    const options = (Object.entries(allowed) as [Period, readonly number[]][]).flatMap(([p, is]) =>
      is.map((i): [Period, number] => [p, i]),
    );
    options.sort((a, b) => APPROX_MS[a[0]] * a[1] - APPROX_MS[b[0]] * b[1]);
    const hit = options.find(fits);
    if (hit) return hit;
  }
  return AUTO_LADDER.find(fits) ?? ['year', 1];
}

/** The fixed months the request layer names ('march' | 'april' | 'may' of 2020). */
const NAMED_MONTHS: Record<string, number> = { march: 2, april: 3, may: 4 };

/**
 * The window of a filter at `now` in zone `tz`. `bucketed` false (single values) keeps the exact range and one
 * bucket; true (charts) cuts it with the period × interval grid.
 */
export function resolveWindow(f: FilterSpec, now: number, tz: string, bucketed: boolean): CardWindow {
  const type =
    f.type ??
    (f.ndata !== undefined ? 'REALTIME' : f.range !== undefined && isPeriodicRange(f.range) ? 'PERIODIC' : 'CUSTOM');
  if (type === 'REALTIME') {
    const n = Math.trunc(f.ndata ?? NaN);
    if (!(n >= NDATA_MIN && n <= NDATA_MAX)) throw new FilterError(T.dashboards.variables.ndata);
    return { type, ndata: n, name: f.name };
  }
  let start: number;
  let end: number;
  let allowed: PeriodIntervals | undefined;
  let period: string | undefined = f.period;
  if (type === 'PERIODIC') {
    if (!isPeriodicRange(f.range)) throw new FilterError(T.cards.unknownFilter);
    const params = rangeParams(f.range);
    const param = params.length ? (f.range_param ?? params[0]!) : undefined;
    if (param !== undefined && !params.includes(param)) throw new FilterError(T.dashboards.variables.optionNotOffered);
    allowed = periodicOptions(f.range, param);
    [start, end] = periodicRange(f.range, param, now, tz);
  } else {
    const month = period ? ownValue(NAMED_MONTHS, period) : undefined;
    if (month !== undefined) {
      start = localMidnight(2020, month, 1, tz);
      end = localMidnight(2020, month + 1, 1, tz);
      period = undefined;
    } else {
      end = f.end !== undefined ? f.end + 1 : now + 1;
      start = f.start ?? end - (f.span ?? DEFAULT_CUSTOM_SPAN_MS);
    }
    allowed = undefined;
    if (!(end > start)) throw new FilterError(T.cards.rangeOrder);
    if (end - start > MAX_WINDOW_MS) throw new FilterError(T.cards.rangeTooLong(MAX_WINDOW_MS / 86_400_000));
  }
  let step: [Period, number];
  if (period && period !== 'auto') {
    const options = type === 'PERIODIC' ? allowed! : CUSTOM_PERIODS;
    const intervals = ownValue(options, period);
    const interval = f.interval ?? intervals?.[0];
    if (!intervals || interval === undefined || !intervals.includes(interval))
      throw new FilterError(T.dashboards.variables.optionNotOffered);
    step = [period as Period, interval];
  } else step = autoStep(end - start, allowed);
  const boundaries = bucketed ? bucketBoundaries(start, end, step[0], step[1], tz) : [start, end];
  return { type, start, end, period: step[0], interval: step[1], boundaries, name: f.name };
}

function periodicRange(range: string, param: number | undefined, now: number, tz: string): [number, number] {
  const day = (offset: number) => addUnits('day', startOf('day', now, tz), offset, tz);
  switch (range) {
    case 'LAST_MINUTE':
      return [now + 1 - param! * 60_000, now + 1];
    case 'LAST_HOUR':
      return [now + 1 - param! * 3_600_000, now + 1];
    case 'LAST_DAY':
      return [day(-1), day(0)];
    case 'TODAY':
      return [day(0), day(1)];
    case 'LAST_WEEK': {
      const w = startOf('week', now, tz);
      return [addUnits('week', w, -1, tz), w];
    }
    case 'THIS_WEEK': {
      const w = startOf('week', now, tz);
      return [w, addUnits('week', w, 1, tz)];
    }
    case 'LAST_MONTH': {
      const m = startOf('month', now, tz);
      return [addUnits('month', m, -1, tz), m];
    }
    case 'THIS_MONTH': {
      const m = startOf('month', now, tz);
      return [m, addUnits('month', m, 1, tz)];
    }
    case 'LAST_YEAR': {
      const y = startOf('year', now, tz);
      return [addUnits('year', y, -1, tz), y];
    }
    default: {
      const y = startOf('year', now, tz);
      return [y, addUnits('year', y, 1, tz)];
    }
  }
}

/** The request's filter fields, when it sent any (else the card's or the dashboard's filter applies). */
export function requestFilter(q: CardFilterQuery): FilterSpec | undefined {
  const has = q.type ?? q.range ?? q.ndata ?? q.start ?? q.end ?? q.span ?? q.period;
  if (has === undefined) return undefined;
  return {
    type: q.type,
    range: q.range,
    range_param: q.range_param,
    period: q.period,
    interval: q.interval,
    ndata: q.ndata,
    start: q.start,
    end: q.end,
    span: q.span,
  };
}
