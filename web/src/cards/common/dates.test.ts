import { describe, expect, it } from 'vitest';
import { DATE_FORMATS } from '@sentra/contracts';
import { chartDateFormats, commandDate, formatDate } from './dates.js';

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
});
