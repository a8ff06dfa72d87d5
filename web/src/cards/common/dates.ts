// Dates on cards and tooltips (spec 02 section 9 "Date formats"), commands ('DD-MM-YYYY HH:mm:ss') and the choice of
// a chart's time label by the window it shows. Local time of the browser, month names of the card's locale (id-ID).
import { COMMAND_DATE_FORMAT, DATE_FORMATS, DEFAULT_CARD_LOCALE } from '@sentra/contracts';
import { monthNames } from '../../ui/monthNames.js';

export type DateFormat = (typeof DATE_FORMATS)[number];

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const TOKENS = /YYYY|YY|MMMM|MMM|MM|DD|HH|mm|ss/g;

/** Formats epoch ms with the tokens YYYY YY MMMM MMM MM DD HH mm ss (moment-style); other characters stay. */
export function formatDate(ms: number, pattern: string, locale: string = DEFAULT_CARD_LOCALE): string {
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return '';
  const months = monthNames(locale);
  return pattern.replace(TOKENS, (t) => {
    switch (t) {
      case 'YYYY':
        return String(d.getFullYear());
      case 'YY':
        return pad(d.getFullYear() % 100);
      case 'MMMM':
        return months.long[d.getMonth()]!;
      case 'MMM':
        return months.short[d.getMonth()]!;
      case 'MM':
        return pad(d.getMonth() + 1);
      case 'DD':
        return pad(d.getDate());
      case 'HH':
        return pad(d.getHours());
      case 'mm':
        return pad(d.getMinutes());
      default:
        return pad(d.getSeconds());
    }
  });
}

/** "Date cards send the date formatted 'DD-MM-YYYY HH:mm:ss'". */
export const commandDate = (ms: number) => formatDate(ms, COMMAND_DATE_FORMAT);

export interface TimeWindow {
  type?: string;
  start?: number;
  end?: number;
  period?: string;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** beyond this a chart's day labels carry the year */
const YEAR = 366 * DAY;

/**
 * How long a chart's window is: the window the gateway evaluated (start to end), else the rows' own span (REALTIME:
 * the last N points, which may reach over days when a device reports rarely).
 */
export function windowSpan(w: TimeWindow | undefined, firstTs?: number, lastTs?: number): number {
  if (w?.type !== 'REALTIME' && w?.start !== undefined && w?.end !== undefined) return w.end - w.start;
  return firstTs !== undefined && lastTs !== undefined ? Math.abs(lastTs - firstTs) : 0;
}

/**
 * The axis label format of a chart and the tooltip's (which always carries the date when the axis does not), chosen
 * by how long the window is, not by its buckets: five-minute buckets over seven days are day labels, not 00:00:00.
 * Seconds within an hour, minutes within a day, day and month across days, months across a year; a window of month
 * or year buckets is labelled by its months or years.
 */
export function chartDateFormats(
  w: TimeWindow | undefined,
  firstTs?: number,
  lastTs?: number,
): { axis: DateFormat; tooltip: DateFormat } {
  const span = windowSpan(w, firstTs, lastTs);
  const period = w?.period;
  if (period === 'year') return { axis: 'YYYY', tooltip: 'YYYY' };
  if (period === 'month')
    return span > YEAR ? { axis: 'MMMM YYYY', tooltip: 'MMMM YYYY' } : { axis: 'MMMM', tooltip: 'MMMM YYYY' };
  const fine = w?.type === 'REALTIME' || period === 'minute' || span <= HOUR;
  const tooltip: DateFormat =
    period === 'day' || period === 'week' ? 'DD MMM YY' : fine ? 'HH:mm:ss, DD MMM YY' : 'HH:mm, DD MMM YY';
  if (span <= HOUR) return { axis: 'HH:mm:ss', tooltip };
  if (span <= DAY) return { axis: 'HH:mm', tooltip };
  return { axis: span > YEAR ? 'DD MMM YY' : 'DD MMM', tooltip };
}

/** One Plotly tick format stop: `value` labels the ticks while their step lies in `dtickrange` (ms, or 'M1' months). */
export interface TickFormatStop {
  dtickrange: [number | string | null, number | string | null];
  value: string;
}

/**
 * The x axis's tick labels (d3 formats) by the step Plotly picks for the chart's width, chosen for the window's span:
 * within a day the time alone; across days every label below a day's step carries its date ("05 Agu 14:00"), day
 * steps read "05 Agu" ("05 Agu 24" beyond a year), month steps the month, year steps the year. A card's own
 * `date_format` replaces them (`pickFormat`).
 */
export function tickFormatStops(span: number): TickFormatStop[] {
  const acrossDays = span > DAY;
  const date = span > YEAR ? '%d %b %y' : '%d %b';
  // Plotly takes the first stop whose range holds the step, both ends included: the longest steps first, so a step
  // of exactly one day reads as a day, one month as a month
  return [
    { dtickrange: ['M12', null], value: '%Y' },
    { dtickrange: ['M1', 'M12'], value: span > YEAR ? '%b %Y' : '%B' },
    { dtickrange: [DAY, 'M1'], value: date },
    { dtickrange: [MINUTE, DAY], value: acrossDays ? `${date} %H:%M` : '%H:%M' },
    { dtickrange: [null, MINUTE], value: acrossDays ? `${date} %H:%M:%S` : '%H:%M:%S' },
  ];
}

/** A card's own `date_format` when it is one of the section 9 formats (or a token pattern), else the chosen one. */
export function pickFormat(own: unknown, chosen: string): string {
  return typeof own === 'string' && own.trim() !== '' && /YYYY|YY|MMM|MM|DD|HH|mm|ss/.test(own) ? own : chosen;
}
