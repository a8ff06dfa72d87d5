// The dashboard view's starting filter (spec 02 section 2 "Dashboard view"): the global filter variable flagged
// default, else the first periodic one, else a start/end range (the last 24 hours).
import { FilterVariable, initialViewFilter } from '@sentra/contracts';
import type { QuickRangeId } from './quickRanges.js';

export const DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000;

/** `quick`: the range came from a quick choice ("1 jam terakhir"), recomputed when the view refreshes. */
export type ViewFilter =
  { kind: 'filter'; key: string; name: string } | { kind: 'range'; start: number; end: number; quick?: QuickRangeId };

/** The filter variables among a stored `var` map, in key order; malformed ones are skipped. */
export function filterVariables(vars: unknown): FilterVariable[] {
  if (typeof vars !== 'object' || vars === null) return [];
  return Object.entries(vars as Record<string, unknown>).flatMap(([key, value]) => {
    const parsed = FilterVariable.safeParse(value);
    return parsed.success && parsed.data.id === key ? [parsed.data] : [];
  });
}

export function defaultViewFilter(vars: unknown, now: number): ViewFilter {
  const chosen = initialViewFilter(filterVariables(vars));
  return chosen
    ? { kind: 'filter', key: chosen.id, name: chosen.name }
    : { kind: 'range', start: now - DEFAULT_RANGE_MS, end: now };
}
