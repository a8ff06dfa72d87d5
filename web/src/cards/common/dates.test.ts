import { describe, expect, it } from 'vitest';
import { DATE_FORMATS } from '@sentra/contracts';
import { chartDateFormats, commandDate, formatDate, tickFormatStops, windowSpan } from './dates.js';

// 5 August 2024, 07:08:09 local time
const t = new Date(2024, 7, 5, 7, 8, 9).getTime();

describe('date formats of section 9', () => {
  const expected: Record<(typeof DATE_FORMATS)[number], string> = {
    'HH:mm:ss': '07:08:09',
    'HH:mm': '07:08',
    'HH:mm:ss, DD MMM YY': '07:08:09, 05 Agu 24',
    'HH:mm, DD MMM YY': '07:08, 05 Agu 24',
    'DD MMM': '05 Agu',
    'DD MMM YY': '05 Agu 24',
    MMMM: 'Agustus',
    'MMMM YYYY': 'Agustus 2024',
    YYYY: '2024',
  };
  it.each(DATE_FORMATS.map((f) => [f]))('%s', (f) => {
    expect(formatDate(t, f)).toBe(expected[f]);
  });

  it("sends commands as 'DD-MM-YYYY HH:mm:ss'", () => {
    expect(commandDate(t)).toBe('05-08-2024 07:08:09');
  });

  it("shows date cards as 'DD MMM YYYY'", () => {
    expect(formatDate(t, 'DD MMM YYYY')).toBe('05 Agu 2024');
  });

  it('chooses a chart axis format by the window', () => {
    expect(chartDateFormats({ type: 'REALTIME' }).axis).toBe('HH:mm:ss');
    expect(chartDateFormats({ type: 'PERIODIC', start: 0, end: 6 * 3600_000, period: 'hour' }).axis).toBe('HH:mm');
    expect(chartDateFormats({ type: 'PERIODIC', start: 0, end: 30 * 86400_000, period: 'day' })).toEqual({
      axis: 'DD MMM',
      tooltip: 'DD MMM YY',
    });
    expect(chartDateFormats({ type: 'PERIODIC', start: 0, end: 300 * 86400_000, period: 'month' }).axis).toBe('MMMM');
    expect(chartDateFormats({ type: 'PERIODIC', start: 0, end: 800 * 86400_000, period: 'month' }).axis).toBe(
      'MMMM YYYY',
    );
    expect(chartDateFormats({ type: 'PERIODIC', start: 0, end: 800 * 86400_000, period: 'year' }).axis).toBe('YYYY');
    expect(chartDateFormats({ type: 'CUSTOM', start: 0, end: 3 * 86400_000 }).tooltip).toBe('HH:mm, DD MMM YY');
  });

  it('labels a week of five-minute buckets by day, not by the bucket (every tick read 00:00:00)', () => {
    const week = { type: 'CUSTOM', start: 0, end: 7 * 86400_000, period: 'minute', interval: 15 };
    expect(chartDateFormats(week)).toEqual({ axis: 'DD MMM', tooltip: 'HH:mm:ss, DD MMM YY' });
    expect(chartDateFormats({ type: 'PERIODIC', start: 0, end: 3600_000, period: 'minute' }).axis).toBe('HH:mm:ss');
  });

  it('takes a REALTIME chart span from its rows: 120 hourly points are days', () => {
    expect(windowSpan({ type: 'REALTIME' }, 0, 120 * 3600_000)).toBe(120 * 3600_000);
    expect(chartDateFormats({ type: 'REALTIME' }, 0, 5 * 86400_000).axis).toBe('DD MMM');
    expect(windowSpan({ type: 'CUSTOM', start: 10, end: 70 }, 0, 5)).toBe(60);
  });
});

describe('x tick labels by the window span (Plotly tickformatstops)', () => {
  /** the d3 format Plotly uses for a tick step of `dtick` (as Plotly's getTickFormat: the first stop, ends included) */
  const at = (span: number, dtick: number | string) =>
    tickFormatStops(span).find(({ dtickrange: [lo, hi] }) => {
      const v = (x: number | string) => (typeof x === 'string' ? Number(x.slice(1)) * 30 * 86400_000 : x);
      const d = v(dtick);
      return (lo === null || v(lo) <= d) && (hi === null || v(hi) >= d);
    })?.value;
  const HOUR = 3600_000;
  const DAY = 24 * HOUR;

  it('within a day: the time alone', () => {
    expect(at(6 * HOUR, HOUR)).toBe('%H:%M');
    expect(at(HOUR, 10_000)).toBe('%H:%M:%S');
    expect(at(HOUR, 60_000)).toBe('%H:%M');
    expect(at(DAY, DAY)).toBe('%d %b');
  });

  it('across days every tick carries its date: hour steps with the time, day steps the day', () => {
    expect(at(7 * DAY, DAY)).toBe('%d %b');
    expect(at(7 * DAY, 2 * DAY)).toBe('%d %b');
    expect(at(7 * DAY, 12 * HOUR)).toBe('%d %b %H:%M');
    expect(at(2 * DAY, 6 * HOUR)).toBe('%d %b %H:%M');
    expect(at(30 * DAY, 7 * DAY)).toBe('%d %b');
  });

  it('months and years on long windows, the year on day labels beyond a year', () => {
    expect(at(300 * DAY, 'M1')).toBe('%B');
    expect(at(3000 * DAY, 'M12')).toBe('%Y');
    expect(at(800 * DAY, 'M3')).toBe('%b %Y');
    expect(at(800 * DAY, 14 * DAY)).toBe('%d %b %y');
    expect(at(3000 * DAY, 'M12')).toBe('%Y');
  });
});
