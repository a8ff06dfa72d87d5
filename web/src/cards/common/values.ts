// The readings of a multi-value card (strain gauges, cracks): a number, a list, or an object of subparams
// (`{"1": 0.4, "2": 0.6}`) in `value`, else value_1..value_3.
import type { CardData } from '@sentra/contracts';
import { asNumber } from './format.js';

export interface Reading {
  key: string;
  value: number | undefined;
}

export function readingsOf(data: CardData | undefined): Reading[] {
  const v = data?.value;
  if (Array.isArray(v)) return v.map((x, i) => ({ key: String(i + 1), value: asNumber(x) }));
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>).map(([key, x]) => ({ key, value: asNumber(x) }));
  if (v !== undefined && v !== null) return [{ key: '1', value: asNumber(v) }];
  return ([1, 2, 3] as const).flatMap((n) =>
    data && data[`value_${n}`] !== undefined ? [{ key: String(n), value: asNumber(data[`value_${n}`]) }] : [],
  );
}

export const listOf = <T>(v: unknown, guard: (x: unknown) => x is T): T[] => (Array.isArray(v) ? v.filter(guard) : []);
export const isString = (x: unknown): x is string => typeof x === 'string';
export const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
