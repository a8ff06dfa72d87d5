// Time filters (spec 02 section 3 "Variable", "Filter config on a card"; section 9 "Variables and filters"): the
// periodic ranges with their parameters, and the aggregation periods and intervals each range or custom filter allows.
export const FILTER_TYPES = ['REALTIME', 'PERIODIC', 'CUSTOM'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** REALTIME "N Data is an integer 1 to 120". */
export const NDATA_MIN = 1;
export const NDATA_MAX = 120;

/**
 * The longest time range a card is read over (not in the spec): a CUSTOM range (start/end, or a span ending now)
 * longer than this is refused; 400 days holds a year with its comparison month.
 */
export const CARD_WINDOW_MAX_MS = 400 * 86_400_000;
/** The shortest span ending now a card may ask for. */
export const CARD_SPAN_MIN_MS = 1000;

export const PERIODS = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;
export type Period = (typeof PERIODS)[number];
/** "A period of auto is removed from the stored filter": auto is the absence of a period. */
export const AUTO_PERIOD = 'auto';

/** Allowed aggregation periods → intervals. */
export type PeriodIntervals = Partial<Record<Period, readonly number[]>>;

/** "Allowed units and intervals" by the span of the range. */
const BY_SPAN = {
  year: { month: [1, 2], week: [1] },
  month: { day: [1] },
  week: { day: [1], hour: [2, 3, 4, 6, 12] },
  day: { hour: [1, 2, 3, 4, 6], minute: [15, 30, 60] },
  hour: { minute: [1, 5, 10, 15, 20, 30] },
  minute: { second: [10, 20, 30] },
} as const satisfies Record<string, PeriodIntervals>;
/** "hour: minutes 1, 5, 10, 15 (range 1) or 1, 5, 10, 15, 20, 30 (range 3, 6, 12)" */
const ONE_HOUR: PeriodIntervals = { minute: [1, 5, 10, 15] };

export interface PeriodicRange {
  /** the label shown where it differs from the code */
  label?: string;
  /** the range's parameter choices (LAST_MINUTE: minutes, LAST_HOUR: hours); absent when it takes none */
  params?: readonly number[];
  span: keyof typeof BY_SPAN;
}

export const PERIODIC_RANGES = {
  LAST_MINUTE: { params: [15, 30], span: 'minute' },
  LAST_HOUR: { params: [1, 3, 6, 12], span: 'hour' },
  LAST_DAY: { label: 'Yesterday', span: 'day' },
  TODAY: { span: 'day' },
  LAST_WEEK: { span: 'week' },
  THIS_WEEK: { span: 'week' },
  LAST_MONTH: { span: 'month' },
  THIS_MONTH: { span: 'month' },
  LAST_YEAR: { span: 'year' },
  THIS_YEAR: { span: 'year' },
} as const satisfies Record<string, PeriodicRange>;
export type PeriodicRangeCode = keyof typeof PERIODIC_RANGES;
export const PERIODIC_RANGE_CODES = Object.keys(PERIODIC_RANGES) as PeriodicRangeCode[];

export function isPeriodicRange(range: unknown): range is PeriodicRangeCode {
  return typeof range === 'string' && Object.prototype.hasOwnProperty.call(PERIODIC_RANGES, range);
}

/** Parameter choices of a periodic range ([] when it takes none). */
export function rangeParams(range: PeriodicRangeCode): readonly number[] {
  const def: PeriodicRange = PERIODIC_RANGES[range];
  return def.params ?? [];
}

/** "Periodic options depend on the chosen range": the periods and intervals a periodic filter may choose. */
export function periodicOptions(range: PeriodicRangeCode, rangeParam?: number): PeriodIntervals {
  if (range === 'LAST_HOUR' && rangeParam === 1) return ONE_HOUR;
  return BY_SPAN[PERIODIC_RANGES[range].span];
}

/**
 * "Custom filter periods: auto, month, week, day, hour, minute. Intervals: month 1 or 2; hour 1, 2, 3, 4, 6, 12;
 * minute 5, 10, 15, 20, 30." Week and day take interval 1 (the spec lists none for them). Auto takes no interval.
 */
export const CUSTOM_PERIODS: PeriodIntervals = {
  month: [1, 2],
  week: [1],
  day: [1],
  hour: [1, 2, 3, 4, 6, 12],
  minute: [5, 10, 15, 20, 30],
};
export const CUSTOM_PERIOD_CHOICES = [AUTO_PERIOD, 'month', 'week', 'day', 'hour', 'minute'] as const;

/** Source selection modes and time range presets (section 3 "Other enumerations"). */
export const TIME_RANGE_PRESETS = ['REALTIME', 'LAST_DAY', 'LAST_WEEK', 'BEGINNING_OF_DAY', 'NOW'] as const;

/** The card filter keys: "The 'default' filter is the first. Others are keyed by id. If none exists, a 'custom' filter is added." */
export const DEFAULT_FILTER_KEY = 'default';
export const CUSTOM_FILTER_KEY = 'custom';
