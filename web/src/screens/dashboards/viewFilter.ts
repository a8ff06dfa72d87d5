// The dashboard view's time filter and its place in the address. Spec 02 section 2 "Dashboard view": the global
// filter variable flagged default, else the first periodic one, else a start/end range (the last 24 hours). Beyond the
// spec, one time control chooses among the dashboard's filters (`?filter=<id>`) and any range, relative or absolute
// (`?from=now-7d&to=now`, `?from=<ms>&to=<ms>`): the address says which, so a reload or a shared link shows the
// same, and the browser's back returns to the previous choice.
import { FilterVariable, initialViewFilter } from '@sentra/contracts';
import { quickRangeOf, type QuickRangeId } from './quickRanges.js';
import { rangeQuery, resolveRange, type TimeRange } from './timeRange.js';

/** the range of a dashboard without filter variables: the last 24 hours */
export const DEFAULT_RANGE: TimeRange = { from: 'now-24h', to: 'now' };
export const DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000;

/**
 * A dashboard filter variable, or a range: as written (`from`, `to`), resolved at `now` (`start`, `end`), the quick
 * range it is when it is one. A relative range is resolved again when the view refreshes.
 */
export type ViewFilter =
  | { kind: 'filter'; key: string; name: string }
  | { kind: 'range'; from: string; to: string; start: number; end: number; quick?: QuickRangeId };

/** What the address names: a filter by id, a range as written, or nothing (the dashboard's default). */
export type ViewChoice = { kind: 'filter'; key: string } | { kind: 'range'; range: TimeRange } | { kind: 'default' };

/** The filter variables among a stored `var` map, in key order; malformed ones are skipped. */
export function filterVariables(vars: unknown): FilterVariable[] {
  if (typeof vars !== 'object' || vars === null) return [];
  return Object.entries(vars as Record<string, unknown>).flatMap(([key, value]) => {
    const parsed = FilterVariable.safeParse(value);
    return parsed.success && parsed.data.id === key ? [parsed.data] : [];
  });
}

/** A range resolved at `now`; undefined when it cannot be (an end not understood, the wrong order, too long). */
export function rangeFilter(range: TimeRange, now: number): Extract<ViewFilter, { kind: 'range' }> | undefined {
  const r = resolveRange(range, now);
  if ('problem' in r) return undefined;
  const quick = quickRangeOf(range);
  return { kind: 'range', from: range.from.trim(), to: range.to.trim(), ...r, ...(quick ? { quick } : {}) };
}

export function defaultViewFilter(vars: unknown, now: number): ViewFilter {
  const chosen = initialViewFilter(filterVariables(vars));
  return chosen ? { kind: 'filter', key: chosen.id, name: chosen.name } : rangeFilter(DEFAULT_RANGE, now)!;
}

/** The choice an address carries (`?filter=`, or `?from=&to=`); anything else is the default. */
export function choiceOf(search: URLSearchParams): ViewChoice {
  const filter = search.get('filter');
  if (filter) return { kind: 'filter', key: filter };
  const from = search.get('from');
  const to = search.get('to');
  if (from && to) return { kind: 'range', range: { from, to } };
  return { kind: 'default' };
}

/**
 * The filter the view reads with: the address's choice, at `now`; a filter the dashboard does not have or a range
 * that cannot be read falls back to the dashboard's default (the picker then shows what is really read).
 */
export function viewFilterOf(choice: ViewChoice, vars: unknown, now: number): ViewFilter {
  if (choice.kind === 'filter') {
    const f = filterVariables(vars).find((x) => x.id === choice.key);
    if (f) return { kind: 'filter', key: f.id, name: f.name };
  } else if (choice.kind === 'range') {
    const r = rangeFilter(choice.range, now);
    if (r) return r;
  }
  return defaultViewFilter(vars, now);
}

/** The address's query for a choice: `filter=<id>`, or `from=…&to=…` as written. */
export function searchOf(choice: ViewChoice): URLSearchParams {
  if (choice.kind === 'filter') return new URLSearchParams({ filter: choice.key });
  if (choice.kind === 'range') return new URLSearchParams({ from: choice.range.from, to: choice.range.to });
  return new URLSearchParams();
}

/** What the gateway is asked for this filter (the card calls' and the live channel's filter fields). */
export function filterQuery(
  filter: ViewFilter | undefined,
): { filter: string } | ({ type: 'CUSTOM' } & ReturnType<typeof rangeQuery>) | Record<string, never> {
  if (!filter) return {};
  if (filter.kind === 'filter') return { filter: filter.key };
  return { type: 'CUSTOM', ...rangeQuery(filter, filter) };
}
