// Quick time ranges in the style Grafana users know ("1 jam terakhir", "Hari ini"…), beside the spec's filters: each
// resolves to the start/end range the view already sends as a CUSTOM filter. Relative ranges end now; calendar ranges
// follow the browser's clock (its day, its Monday-first week, its month). Pure, so the rules are tested without a page.
import { T } from '@sentra/contracts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export type QuickRangeId = keyof typeof T.dashboards.screens.quickRanges;

const startOfDay = (t: number) => {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
};

/** [start, end] of each quick range at `now`, in menu order (relative ones first, as Grafana lists them). */
const RANGES: Record<QuickRangeId, (now: number) => [number, number]> = {
  last5m: (now) => [now - 5 * MIN, now],
  last15m: (now) => [now - 15 * MIN, now],
  last30m: (now) => [now - 30 * MIN, now],
  last1h: (now) => [now - HOUR, now],
  last3h: (now) => [now - 3 * HOUR, now],
  last6h: (now) => [now - 6 * HOUR, now],
  last12h: (now) => [now - 12 * HOUR, now],
  last24h: (now) => [now - DAY, now],
  last2d: (now) => [now - 2 * DAY, now],
  last7d: (now) => [now - 7 * DAY, now],
  last30d: (now) => [now - 30 * DAY, now],
  today: (now) => [startOfDay(now), now],
  yesterday: (now) => {
    const today = startOfDay(now);
    return [startOfDay(today - 1), today - 1];
  },
  thisWeek: (now) => {
    const d = new Date(startOfDay(now));
    d.setDate(d.getDate() - ((d.getDay() + 6) % 7)); // back to Monday
    return [d.getTime(), now];
  },
  thisMonth: (now) => {
    const d = new Date(startOfDay(now));
    d.setDate(1);
    return [d.getTime(), now];
  },
};

export const QUICK_RANGE_IDS = Object.keys(RANGES) as QuickRangeId[];

export const isQuickRangeId = (id: unknown): id is QuickRangeId => typeof id === 'string' && Object.hasOwn(RANGES, id);

/** The range a quick choice stands for at `now`. */
export function quickRange(id: QuickRangeId, now: number): { start: number; end: number } {
  const [start, end] = RANGES[id](now);
  return { start, end };
}

export const quickRangeLabel = (id: QuickRangeId) => T.dashboards.screens.quickRanges[id];
