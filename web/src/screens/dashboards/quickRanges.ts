// Quick time ranges in the style Grafana users know ("1 jam terakhir", "Hari ini"…), written as Grafana writes them
// (`now-1h` to `now`, `now/d` to `now`), so a chosen one is what the address carries and a reload or a shared link
// finds the same choice. Relative ranges end now; calendar ones follow the browser's clock (its day, its Monday-first
// week, its month): timeRange.ts resolves them. Pure, so the rules are tested without a page.
import { T } from '@sentra/contracts';
import { resolveRange, type TimeRange } from './timeRange.js';

export type QuickRangeId = keyof typeof T.dashboards.screens.quickRanges;

/** Each quick range as written, in menu order (relative ones first, as Grafana lists them). */
const RANGES: Record<QuickRangeId, TimeRange> = {
  last5m: { from: 'now-5m', to: 'now' },
  last15m: { from: 'now-15m', to: 'now' },
  last30m: { from: 'now-30m', to: 'now' },
  last1h: { from: 'now-1h', to: 'now' },
  last3h: { from: 'now-3h', to: 'now' },
  last6h: { from: 'now-6h', to: 'now' },
  last12h: { from: 'now-12h', to: 'now' },
  last24h: { from: 'now-24h', to: 'now' },
  last2d: { from: 'now-2d', to: 'now' },
  last7d: { from: 'now-7d', to: 'now' },
  last30d: { from: 'now-30d', to: 'now' },
  today: { from: 'now/d', to: 'now' },
  yesterday: { from: 'now-1d/d', to: 'now-1d/d' },
  thisWeek: { from: 'now/w', to: 'now' },
  thisMonth: { from: 'now/M', to: 'now' },
};

export const QUICK_RANGE_IDS = Object.keys(RANGES) as QuickRangeId[];

export const isQuickRangeId = (id: unknown): id is QuickRangeId => typeof id === 'string' && Object.hasOwn(RANGES, id);

/** How a quick range is written (its address form). */
export const quickRangeText = (id: QuickRangeId): TimeRange => RANGES[id];

/** The quick range a written range is, if it is one ("now-7d" to "now" is "7 hari terakhir"). */
export function quickRangeOf(range: TimeRange): QuickRangeId | undefined {
  const from = range.from.trim();
  const to = range.to.trim();
  return QUICK_RANGE_IDS.find((id) => RANGES[id].from === from && RANGES[id].to === to);
}

/** The range a quick choice stands for at `now`. */
export function quickRange(id: QuickRangeId, now: number): { start: number; end: number } {
  const r = resolveRange(RANGES[id], now);
  if ('problem' in r) throw new Error(`quick range ${id}: ${r.problem}`);
  return r;
}

export const quickRangeLabel = (id: QuickRangeId) => T.dashboards.screens.quickRanges[id];
