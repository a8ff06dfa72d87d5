// Plotly in its own lazy chunk (never in the initial bundle; chartDraws.ts imports it once the first values are
// drawn), with the Indonesian month and day names so axis labels read like the rest of the card (section 9 date
// formats in id-ID). The basic distribution (scatter, bar, pie: every trace our chart cards draw) is a quarter of
// the full one.
import Plotly from 'plotly.js-basic-dist-min';
import { DEFAULT_CARD_LOCALE } from '@sentra/contracts';

function names(locale: string, opts: Intl.DateTimeFormatOptions, n: number, at: (i: number) => Date): string[] {
  const f = new Intl.DateTimeFormat(locale, opts);
  return Array.from({ length: n }, (_, i) => f.format(at(i)).replace('.', ''));
}

let registered = false;
export const PLOTLY_LOCALE = 'id';

export type PlotlyApi = typeof Plotly;

export function plotly(): PlotlyApi {
  if (!registered) {
    registered = true;
    const month = (i: number) => new Date(2024, i, 15);
    const day = (i: number) => new Date(2024, 8, 1 + i); // 1 Sep 2024 is a Sunday
    Plotly.register({
      moduleType: 'locale',
      name: PLOTLY_LOCALE,
      dictionary: {},
      format: {
        days: names(DEFAULT_CARD_LOCALE, { weekday: 'long' }, 7, day),
        shortDays: names(DEFAULT_CARD_LOCALE, { weekday: 'short' }, 7, day),
        months: names(DEFAULT_CARD_LOCALE, { month: 'long' }, 12, month),
        shortMonths: names(DEFAULT_CARD_LOCALE, { month: 'short' }, 12, month),
        decimal: ',',
        thousands: '.',
        date: '%d/%m/%Y',
      },
    } as never);
  }
  return Plotly;
}
