// What a card prints for a number (spec 02 section 9 "Display"): id-ID by default, 0–5 decimals, k/M/B/T above
// 1e3/1e6/1e9/1e12 unless the card asks for the full number, and the unit of its single-value subtype in front or
// behind. Pure: the render tests and the tooltips use the same functions.
import {
  DECIMALS_DEFAULT,
  DECIMALS_MAX,
  DECIMALS_MIN,
  DEFAULT_CARD_LOCALE,
  NUMBER_ABBREVIATIONS,
  T,
  type UnitCode,
} from '@sentra/contracts';

export interface NumberStyle {
  decimals?: number;
  /** "full number": no k/M/B/T */
  fullNumber?: boolean;
  locale?: string;
}

/** The unit a subtype prints and where it goes by default (the card's `unit_front` / `unit` override it). */
export const UNIT_SYMBOLS: Record<UnitCode, { symbol: string; front?: boolean; text?: boolean }> = {
  DEGREE: { symbol: '°' },
  TEMP_CELCIUS: { symbol: '°C' },
  TEMP_FAHRENHEIT: { symbol: '°F' },
  TEMP_KELVIN: { symbol: 'K' },
  // a firmware version is text ("v1.2.3"), never abbreviated nor rounded
  VERSION: { symbol: 'v', front: true, text: true },
  VOLT: { symbol: 'V' },
  AMPERE: { symbol: 'A' },
  WATT: { symbol: 'W' },
  OHM: { symbol: 'Ω' },
  KWH: { symbol: 'kWh' },
  KW: { symbol: 'kW' },
  PRESSURE_WATER: { symbol: 'bar' },
  PRESSURE_AIR: { symbol: 'psi' },
  HUMIDITY: { symbol: '%RH' },
  CUSTOM: { symbol: '' },
  RUPIAH: { symbol: 'Rp', front: true },
  PERCENTAGE: { symbol: '%' },
};

export const clampDecimals = (d: unknown): number =>
  typeof d === 'number' && Number.isFinite(d)
    ? Math.min(DECIMALS_MAX, Math.max(DECIMALS_MIN, Math.round(d)))
    : DECIMALS_DEFAULT;

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${decimals}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    } catch {
      f = new Intl.NumberFormat(DEFAULT_CARD_LOCALE, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      });
    }
    formatters.set(key, f);
  }
  return f;
}

/**
 * A non-negative number rounded as Intl.NumberFormat prints it: half up on its shortest decimal text (999.995 → 1000
 * with 2 decimals, where `toFixed` gives 999.99 from the binary value just below).
 */
function roundHalfUp(x: number, decimals: number): number {
  const text = String(x);
  // tiny and huge numbers print with an exponent; there the binary value rounds the same
  if (text.includes('e')) return Number(x.toFixed(decimals));
  return Number(`${Math.round(Number(`${text}e${decimals}`))}e-${decimals}`);
}

/** 1234567 → "1,23M" (id-ID, 2 decimals); with `fullNumber` "1.234.567,00". */
export function formatCardNumber(n: number, style: NumberStyle = {}): string {
  const decimals = clampDecimals(style.decimals);
  const locale = style.locale || DEFAULT_CARD_LOCALE;
  if (!Number.isFinite(n)) return String(n);
  if (!style.fullNumber) {
    // the step is chosen by the number as printed: 999.995 rounds to 1000,00 and prints "1,00k", and 999 999 prints
    // "1,00M", never "1.000,00" or "1.000,00k"
    const abs = Math.abs(n);
    const rounded = (x: number) => roundHalfUp(x, decimals);
    const steps = [...NUMBER_ABBREVIATIONS].sort((a, b) => a.at - b.at);
    let i = steps.findLastIndex((s) => rounded(abs) >= s.at);
    if (i >= 0) {
      let scaled = rounded(abs / steps[i]!.at);
      while (scaled >= 1000 && i < steps.length - 1) scaled = rounded(abs / steps[++i]!.at);
      return numberFormat(locale, decimals).format(Math.sign(n) * scaled) + steps[i]!.suffix;
    }
  }
  return numberFormat(locale, decimals).format(n);
}

/** A number that arrived as a number or as numeric text ("12.5"); anything else is not a number. */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v.trim()))
    return Number(v);
  return undefined;
}

export interface UnitView {
  type?: string;
  unit?: string;
  unit_front?: boolean;
  decimal?: number;
  full_number?: boolean;
  locale?: string;
}

/** The unit a card prints: its own `unit` text, else its subtype's symbol; in front when `unit_front` or the subtype says so. */
export function unitOf(view: UnitView | undefined): { symbol: string; front: boolean; text: boolean } {
  const code = (view?.type && view.type in UNIT_SYMBOLS ? view.type : 'CUSTOM') as UnitCode;
  const base = UNIT_SYMBOLS[code];
  const own = typeof view?.unit === 'string' && view.unit.trim() !== '' ? view.unit.trim() : undefined;
  return { symbol: own ?? base.symbol, front: view?.unit_front ?? base.front ?? false, text: base.text ?? false };
}

/** Joins a number text and its unit: "Rp 1,25M", "23,50 °C", "50,00%". */
export function withUnit(text: string, symbol: string, front: boolean): string {
  if (!symbol) return text;
  if (front) return symbol === 'v' ? `${symbol}${text}` : `${symbol} ${text}`;
  return symbol === '%' || symbol === '°' ? `${text}${symbol}` : `${text} ${symbol}`;
}

/** What a card prints for a live value: numbers formatted with the card's decimals and unit, text as it came. */
export function formatValue(value: unknown, view: UnitView | undefined, dashboardDecimals?: number): string {
  const unit = unitOf(view);
  if (value === null || value === undefined || value === '') return T.cardViews.noValue;
  if (typeof value === 'boolean') return value ? T.cardViews.on : T.cardViews.off;
  const n = unit.text ? undefined : asNumber(value);
  if (n === undefined) {
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return unit.text ? withUnit(text.replace(/^v/i, ''), unit.symbol, true) : withUnit(text, unit.symbol, unit.front);
  }
  const text = formatCardNumber(n, {
    decimals: view?.decimal ?? dashboardDecimals,
    fullNumber: view?.full_number,
    locale: view?.locale,
  });
  return withUnit(text, unit.symbol, unit.front);
}

/** "Percentage display: ratio times 100 with 0 or 2 decimals" — whole percentages (as printed) without decimals. */
export function formatPercent(ratio: number, locale = DEFAULT_CARD_LOCALE): string {
  // rounded to the 2 decimals first: 99,9999 % prints "100%", not "100,00%"
  const pct = Math.sign(ratio) * roundHalfUp(Math.abs(ratio * 100), 2);
  const whole = Number.isInteger(pct);
  return `${numberFormat(locale, whole ? 0 : 2).format(pct)}%`;
}
