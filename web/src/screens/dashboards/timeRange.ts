// A dashboard view's time range as Grafana users write it, in the address (`?from=now-7d&to=now`): each end is
// `now` with optional steps and a rounding (`now-7d`, `now-1d/d`, `now/w`), or an instant (epoch ms, or a local
// 'YYYY-MM-DD HH:mm[:ss]' date, or an ISO date with its zone). Rounding goes down to the unit's start for `from` and
// up to the unit's last millisecond for `to`, in the browser's clock as the charts show time (weeks from Monday).
// Pure, so the rules are tested without a page.
import { CARD_WINDOW_MAX_MS } from '@sentra/contracts';

export type TimeUnit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

const UNIT_MS: Partial<Record<TimeUnit, number>> = { s: 1000, m: 60_000, h: 3_600_000 };
const RELATIVE = /^now((?:[+-]\d{1,6}[smhdwMy])*)(?:\/([smhdwMy]))?$/;
const STEP = /([+-])(\d{1,6})([smhdwMy])/g;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;
/** instants a range may name: the years a card reads at all */
const INSTANT_MIN = Date.UTC(1970, 0, 1);
const INSTANT_MAX = Date.UTC(2200, 0, 1);

/** `n` units after `t` (calendar units in local time: a day is a calendar day across a DST change). */
function add(t: number, n: number, unit: TimeUnit): number {
  const ms = UNIT_MS[unit];
  if (ms !== undefined) return t + n * ms;
  const d = new Date(t);
  if (unit === 'd') d.setDate(d.getDate() + n);
  else if (unit === 'w') d.setDate(d.getDate() + 7 * n);
  else if (unit === 'M') d.setMonth(d.getMonth() + n);
  else d.setFullYear(d.getFullYear() + n);
  return d.getTime();
}

/** The start of the unit `t` lies in (local time; weeks start on Monday). */
function startOf(t: number, unit: TimeUnit): number {
  const d = new Date(t);
  switch (unit) {
    case 's':
      d.setMilliseconds(0);
      break;
    case 'm':
      d.setSeconds(0, 0);
      break;
    case 'h':
      d.setMinutes(0, 0, 0);
      break;
    default:
      d.setHours(0, 0, 0, 0);
      if (unit === 'w') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
      if (unit === 'M' || unit === 'y') d.setDate(1);
      if (unit === 'y') d.setMonth(0);
  }
  return d.getTime();
}

/** Whether an end of a range is written relative to now (it moves with the clock). */
export const isRelative = (text: string) => RELATIVE.test(text.trim());

/**
 * The instant an end of a range names at `now`; `end` rounds up (the unit's last millisecond), as a range's `to`
 * does. Undefined for text that is neither.
 */
export function parseTimeExpr(text: string, now: number, end = false): number | undefined {
  const s = text.trim();
  const rel = RELATIVE.exec(s);
  if (rel) {
    let t = now;
    for (const [, sign, n, unit] of rel[1]!.matchAll(STEP))
      t = add(t, (sign === '-' ? -1 : 1) * Number(n), unit as TimeUnit);
    const round = rel[2] as TimeUnit | undefined;
    if (round) t = end ? add(startOf(t, round), 1, round) - 1 : startOf(t, round);
    return t;
  }
  let t: number;
  if (/^\d{9,15}$/.test(s)) t = Number(s);
  else {
    const local = LOCAL_DATE.exec(s);
    if (local) {
      const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '0'] = local;
      const date = new Date(+y!, +mo! - 1, +d!, +h, +mi, +sec, Number(frac.padEnd(3, '0')));
      // 2024-02-31 is not a date (Date would roll it into March)
      if (date.getMonth() !== +mo! - 1 || date.getDate() !== +d!) return undefined;
      t = date.getTime();
    } else if (/^\d{4}-\d{2}-\d{2}T.+(Z|[+-]\d{2}:?\d{2})$/.test(s)) t = Date.parse(s);
    else return undefined;
  }
  return Number.isFinite(t) && t >= INSTANT_MIN && t <= INSTANT_MAX ? t : undefined;
}

/** A range as written: its two ends (relative or instants). */
export interface TimeRange {
  from: string;
  to: string;
}

export type RangeProblem = 'from' | 'to' | 'order' | 'tooLong';

/** The instants of a range at `now`, or what is wrong with it (an end not understood, from not before to, too long). */
export function resolveRange(
  range: TimeRange,
  now: number,
): { start: number; end: number } | { problem: RangeProblem } {
  const start = parseTimeExpr(range.from, now);
  if (start === undefined) return { problem: 'from' };
  const end = parseTimeExpr(range.to, now, true);
  if (end === undefined) return { problem: 'to' };
  if (!(start < end)) return { problem: 'order' };
  if (end - start > CARD_WINDOW_MAX_MS) return { problem: 'tooLong' };
  return { start, end };
}

/**
 * What the gateway is asked for a resolved range: a window that keeps ending now (`span`, sliding with the clock as
 * the spec's "last hour" does) when the range is `now-<steps>` to `now`; from a fixed start up to now when only `to` is
 * now (`now/d` → now: today so far); else both instants (`end` inclusive, as the card calls take it).
 */
export function rangeQuery(
  range: TimeRange,
  resolved: { start: number; end: number },
): { span: number } | { start: number } | { start: number; end: number } {
  const to = range.to.trim();
  const from = range.from.trim();
  if (to === 'now' && /^now(?:[+-]\d{1,6}[smhdwMy])+$/.test(from)) return { span: resolved.end - resolved.start };
  if (to === 'now') return { start: resolved.start };
  return { start: resolved.start, end: resolved.end };
}

/** Twice as long around the same middle (Grafana's zoom out), not reaching past `now` when it ended before. */
export function zoomedOut(start: number, end: number, now: number): { start: number; end: number } {
  const span = end - start;
  const next = Math.min(span * 2, CARD_WINDOW_MAX_MS);
  let s = start - (next - span) / 2;
  let e = s + next;
  if (end <= now && e > now) ((e = now), (s = now - next));
  return { start: Math.round(s), end: Math.round(e) };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** An instant as the range fields show it: local 'YYYY-MM-DD HH:mm:ss' (what parseTimeExpr reads back). */
export function instantText(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** An end as a field shows it: relative text as written, an epoch instant as a local date. */
export const fieldText = (end: string) => (/^\d{9,15}$/.test(end.trim()) ? instantText(Number(end)) : end);

/** An end as the address carries it: relative text as written, an instant as epoch ms (Grafana's form). */
export function addressText(end: string, now: number, isEnd: boolean): string {
  const s = end.trim();
  if (isRelative(s) || /^\d{9,15}$/.test(s)) return s;
  const t = parseTimeExpr(s, now, isEnd);
  return t === undefined ? s : String(t);
}
