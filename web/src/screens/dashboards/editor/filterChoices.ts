// The filter variable's choices (spec 02 section 9 "Variables and filters"): ranges, their parameters, and the periods
// and intervals the chosen range (or a custom filter) allows. "Periodic options depend on the chosen range."
import {
  AUTO_PERIOD,
  CUSTOM_PERIODS,
  CUSTOM_PERIOD_CHOICES,
  FILTER_TYPES,
  PERIODIC_RANGES,
  PERIODIC_RANGE_CODES,
  periodicOptions,
  rangeParams,
  type PeriodicRange,
  type PeriodIntervals,
} from '@sentra/contracts';
import type { FilterChoice } from './variableDialog.js';

export const filterTypeChoices = () => [...FILTER_TYPES];

export function rangeChoices(): { value: string; label: string }[] {
  return PERIODIC_RANGE_CODES.map((value) => ({
    value,
    label: (PERIODIC_RANGES[value] as PeriodicRange).label ?? value,
  }));
}

export function rangeParamChoices(filter: FilterChoice): readonly number[] {
  return filter.type === 'PERIODIC' && filter.range ? rangeParams(filter.range) : [];
}

function allowed(filter: FilterChoice): PeriodIntervals {
  if (filter.type === 'CUSTOM') return CUSTOM_PERIODS;
  if (filter.type !== 'PERIODIC' || !filter.range) return {};
  if (rangeParams(filter.range).length > 0 && filter.range_param === undefined) return {};
  return periodicOptions(filter.range, filter.range_param);
}

/** Periods offered: those the range allows; a custom filter also offers auto. */
export function periodChoices(filter: FilterChoice): string[] {
  const periods = Object.keys(allowed(filter));
  return filter.type === 'CUSTOM' ? [...CUSTOM_PERIOD_CHOICES] : periods;
}

export function intervalChoices(filter: FilterChoice): readonly number[] {
  if (!filter.period || filter.period === AUTO_PERIOD) return [];
  return allowed(filter)[filter.period as keyof PeriodIntervals] ?? [];
}

/** REALTIME asks N Data; PERIODIC a range; both PERIODIC and CUSTOM a period and interval. */
export function filterFields(filter: FilterChoice): ('ndata' | 'range' | 'range_param' | 'period' | 'interval')[] {
  if (filter.type === 'REALTIME') return ['ndata'];
  if (filter.type === 'CUSTOM') return ['period', 'interval'];
  if (filter.type !== 'PERIODIC') return [];
  return rangeParamChoices(filter).length > 0
    ? ['range', 'range_param', 'period', 'interval']
    : ['range', 'period', 'interval'];
}
