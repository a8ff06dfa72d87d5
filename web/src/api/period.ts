// The spec's fixed demo periods: 'march', 'april' and 'may' become start/end timestamps in 2020 (spec 01 section 7).
// Months are calendar months in the platform's default time zone, Asia/Jakarta (UTC+7, no daylight saving).

const JAKARTA_OFFSET_MS = 7 * 3600_000;

function monthRange(monthIndex: number): { start: number; end: number } {
  const start = Date.UTC(2020, monthIndex, 1) - JAKARTA_OFFSET_MS;
  const end = Date.UTC(2020, monthIndex + 1, 1) - JAKARTA_OFFSET_MS - 1;
  return { start, end };
}

export const FIXED_PERIODS: Readonly<Record<string, { start: number; end: number }>> = {
  march: monthRange(2),
  april: monthRange(3),
  may: monthRange(4),
};

/** Replaces `period: 'march' | 'april' | 'may'` by `start` and `end` (epoch ms); other params pass unchanged. */
export function convertPeriod(params: Record<string, unknown>): Record<string, unknown> {
  const period = params.period;
  if (typeof period !== 'string' || !(period in FIXED_PERIODS)) return params;
  const { period: _dropped, ...rest } = params;
  return { ...rest, ...FIXED_PERIODS[period] };
}
