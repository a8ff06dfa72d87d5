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

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The axis label format of a chart and the tooltip's (which always carries the date when the axis does not):
 * seconds for live and minute buckets, minutes within a day, day and month across days, months across a year.
 */
export function chartDateFormats(
  w: TimeWindow | undefined,
  firstTs?: number,
  lastTs?: number,
): { axis: DateFormat; tooltip: DateFormat } {
  const span =
    w?.start !== undefined && w?.end !== undefined
      ? w.end - w.start
      : firstTs !== undefined && lastTs !== undefined
        ? lastTs - firstTs
        : 0;
  const period = w?.period;
  if (w?.type === 'REALTIME' || period === 'minute' || (!period && span <= HOUR))
    return { axis: 'HH:mm:ss', tooltip: 'HH:mm:ss, DD MMM YY' };
  if (period === 'year') return { axis: 'YYYY', tooltip: 'YYYY' };
  if (period === 'month')
    return span > 366 * DAY ? { axis: 'MMMM YYYY', tooltip: 'MMMM YYYY' } : { axis: 'MMMM', tooltip: 'MMMM YYYY' };
  if (period === 'day' || period === 'week')
    return span > 366 * DAY ? { axis: 'DD MMM YY', tooltip: 'DD MMM YY' } : { axis: 'DD MMM', tooltip: 'DD MMM YY' };
  if (span <= DAY) return { axis: 'HH:mm', tooltip: 'HH:mm, DD MMM YY' };
  return { axis: 'DD MMM', tooltip: 'HH:mm, DD MMM YY' };
}

/** A card's own `date_format` when it is one of the section 9 formats (or a token pattern), else the chosen one. */
export function pickFormat(own: unknown, chosen: string): string {
  return typeof own === 'string' && own.trim() !== '' && /YYYY|YY|MMM|MM|DD|HH|mm|ss/.test(own) ? own : chosen;
}
