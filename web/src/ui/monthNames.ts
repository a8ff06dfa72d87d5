// Month names of a locale as the browser's Intl gives them (id-ID: 'Agu', 'Mei'; short names without a trailing dot),
// cached per locale: the cards, their tooltips and the date fields print the same names.
import { DEFAULT_CARD_LOCALE } from '@sentra/contracts';

export interface MonthNames {
  short: string[];
  long: string[];
}

const cache = new Map<string, MonthNames>();

/** The 12 short and long month names of `locale` (the default card locale when the browser does not know it). */
export function monthNames(locale: string): MonthNames {
  let m = cache.get(locale);
  if (!m) {
    let short: Intl.DateTimeFormat, long: Intl.DateTimeFormat;
    try {
      short = new Intl.DateTimeFormat(locale, { month: 'short' });
      long = new Intl.DateTimeFormat(locale, { month: 'long' });
    } catch {
      short = new Intl.DateTimeFormat(DEFAULT_CARD_LOCALE, { month: 'short' });
      long = new Intl.DateTimeFormat(DEFAULT_CARD_LOCALE, { month: 'long' });
    }
    const at = (i: number) => new Date(2024, i, 15);
    m = {
      short: Array.from({ length: 12 }, (_, i) => short.format(at(i)).replace('.', '')),
      long: Array.from({ length: 12 }, (_, i) => long.format(at(i))),
    };
    cache.set(locale, m);
  }
  return m;
}
