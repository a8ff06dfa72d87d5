// The values command cards send (spec 02 section 4 "Command cards"), pure.
import {
  COMMAND_DATE_DISPLAY_FORMATS,
  COMMAND_TIME_DISPLAY_FORMATS,
  NUMBER_COMMAND_MAX,
  NUMBER_COMMAND_MIN,
  TEXT_COMMAND_MAX_LENGTH,
  T,
} from '@sentra/contracts';
import { commandDate } from '../common/dates.js';
import { asNumber } from '../common/format.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** "The default range is about two days from now." */
export const DEFAULT_RANGE_MS = 2 * DAY_MS;

/** Whether a toggle's reported state is on: true, non-zero, 'ON', 'on', '1', 'true', or the card's on value. */
export function isOn(v: unknown, onValue?: unknown): boolean {
  if (onValue !== undefined && v === onValue) return true;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return ['on', '1', 'true', 'nyala'].includes(v.trim().toLowerCase());
  return false;
}

/** "The value flips on each change": the value sent for the new state. */
export function toggleValue(next: boolean, view: { on_value?: unknown; off_value?: unknown }): unknown {
  return next ? (view.on_value ?? true) : (view.off_value ?? false);
}

export function numberBounds(view: { min?: unknown; max?: unknown }) {
  return { min: asNumber(view.min) ?? NUMBER_COMMAND_MIN, max: asNumber(view.max) ?? NUMBER_COMMAND_MAX };
}

/** The number a number card may send, or the reason it may not. */
export function checkNumber(text: string, view: { min?: unknown; max?: unknown }): { value?: number; error?: string } {
  const { min, max } = numberBounds(view);
  const n = asNumber(text.replace(',', '.'));
  if (n === undefined || n < min || n > max) return { error: T.cardViews.numberRange(String(min), String(max)) };
  return { value: n };
}

/** "Text command max length (default 30)" — the text card's own max when it sets one. */
export const textMax = (view: { max?: unknown }) => {
  const n = asNumber(view.max);
  return n !== undefined && n > 0 ? Math.floor(n) : TEXT_COMMAND_MAX_LENGTH;
};

/** "Date card: only dates later than one day ago." */
export const dateAllowed = (ms: number, now: number) => Number.isFinite(ms) && ms > now - DAY_MS;

export const dateCommand = (ms: number) => commandDate(ms);

/** How a date card prints a date: its date format then its time format, or the date format alone when it carries a time. */
export function dateDisplayFormat(view: { date_format?: unknown; time_format?: unknown }): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const date = text(view.date_format) || COMMAND_DATE_DISPLAY_FORMATS[0];
  if (/HH|mm|ss/.test(date)) return date;
  return `${date} ${text(view.time_format) || COMMAND_TIME_DISPLAY_FORMATS[0]}`;
}
export const rangeCommand = (start: number, end: number) => ({ start: commandDate(start), end: commandDate(end) });

/**
 * An epoch time cut to what `format` shows (no seconds shown: none sent, no time shown: midnight), so the card sends
 * what the user reads: a field showing 09:30 sends 09:30:00, not the seconds of the moment it opened.
 */
export function toShownPrecision(ms: number, format: string): number {
  const d = new Date(ms);
  const shown = format.replace(/\[[^\]]*\]/g, '');
  if (!/[Hh]/.test(shown)) d.setHours(0, 0, 0, 0);
  else if (!/m/.test(shown)) d.setMinutes(0, 0, 0);
  else if (!/s/.test(shown)) d.setSeconds(0, 0);
  else d.setMilliseconds(0);
  return d.getTime();
}

/** The date field's locale for a card's locale: English for an 'en' card, else Indonesian (the default id-ID). */
export const pickerLocale = (locale: unknown): 'en' | 'id' =>
  typeof locale === 'string' && /^en\b/i.test(locale) ? 'en' : 'id';
