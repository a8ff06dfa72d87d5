// Business constants and limits of dashboards (spec 02 section 9; section 5 for refresh, decimals and keys).
export const DASHBOARD_VERSION = '2';

/** "Refresh minimum 500 ms; 0 means auto; the default in the forms is 0." */
export const REFRESH_MIN_MS = 500;
export const REFRESH_AUTO = 0;
/** "Default auto refresh for a dashboard is 1000 ms times the component count if there are more than 5 components." */
export function defaultDashboardRefresh(componentCount: number): number {
  return componentCount > 5 ? 1000 * componentCount : 0;
}

/** "Decimals 0 to 5, default 2 (also in tooltips)." */
export const DECIMALS_MIN = 0;
export const DECIMALS_MAX = 5;
export const DECIMALS_DEFAULT = 2;

export const COMPONENT_KEY_MAX = 30;
/** "A name pattern allows a letter first, then up to 29 letters, digits, underscores or spaces"; keys have no spaces. */
export const COMPONENT_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,29}$/;

/** Subparam labels: a lowercase letter, then up to 15 letters, digits, underscores or spaces. */
export const SUBPARAM_LABEL_MAX = 16;
export const SUBPARAM_LABEL_PATTERN = /^[a-z][A-Za-z0-9_ ]{0,15}$/;
/** "Tags are added with Tab or Enter." */
export const SUBPARAM_LABEL_ADD_KEYS = ['Tab', 'Enter'] as const;

/** Command cards. */
export const TEXT_COMMAND_MAX_LENGTH = 30;
export const NUMBER_COMMAND_MIN = 0;
export const NUMBER_COMMAND_MAX = 100;
export const COMMAND_DATE_FORMAT = 'DD-MM-YYYY HH:mm:ss';
/**
 * How the date cards print the chosen date ("Locale id-ID, date display 'DD MMM YYYY'", the first the default) and
 * its time; a date format that carries a time is printed alone.
 */
export const COMMAND_DATE_DISPLAY_FORMATS = [
  'DD MMM YYYY',
  'DD MMMM YYYY',
  'DD MMM YY',
  'DD-MM-YYYY',
  'DD/MM/YYYY',
  'YYYY-MM-DD',
] as const;
export const COMMAND_TIME_DISPLAY_FORMATS = ['HH:mm', 'HH:mm:ss'] as const;
/** "Width w: 2 maps to 6 columns, 4 to 12 columns, otherwise 3." */
export function commandCardColumns(w: number): 3 | 6 | 12 {
  return w === 2 ? 6 : w === 4 ? 12 : 3;
}

/** Grid (section 9 "Grid"). */
export const GRID_BREAKPOINTS = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 } as const;
export const VIEW_GRID_COLUMNS = { lg: 4, md: 4, sm: 4, xs: 4, xxs: 4 } as const;
export const EDIT_GRID_COLUMNS = { lg: 4, md: 4, sm: 2, xs: 2, xxs: 1 } as const;
export const SAVED_BREAKPOINTS = ['md', 'lg'] as const;
export const LAYOUT_SAVE_MIN_WIDTH = 996;
export const GRID_ROW_HEIGHT = 60;
export const GRID_MARGIN = 36;
/** "Card height = 60*h + 36*(h-1) - 2." */
export function cardPixelHeight(h: number): number {
  return GRID_ROW_HEIGHT * h + GRID_MARGIN * (h - 1) - 2;
}

/** Display (section 9 "Display"). */
export const DEFAULT_CARD_LOCALE = 'id-ID';
// "Default min 0 and max 1000000" bounds nothing a card draws: see docs/decisions/card-views.md.
export const NUMBER_ABBREVIATIONS = [
  { at: 1e12, suffix: 'T' },
  { at: 1e9, suffix: 'B' },
  { at: 1e6, suffix: 'M' },
  { at: 1e3, suffix: 'k' },
] as const;
export const CHART_PALETTE_SIZE = 7;
export const FUEL_FILL_ALERT_LITRES = 300;
/** "Fuel product names in tooltips: Premium, Pertamax, Pertalite, Biosolar, Pertamax Turbo." */
export const FUEL_PRODUCTS = ['Premium', 'Pertamax', 'Pertalite', 'Biosolar', 'Pertamax Turbo'] as const;
export type FuelProduct = (typeof FUEL_PRODUCTS)[number];
/**
 * "Fixed totalizer offsets exist for three fuel shift products (hard-coded demo numbers)": litres the pumps' totalizer
 * had counted for the product before the data began; the shift tooltip shows offset + the shift's litres as the
 * totalizer reading. The three products every demo station sells; the numbers are demo numbers.
 */
export const FUEL_SHIFT_TOTALIZER_OFFSETS: Readonly<Partial<Record<FuelProduct, number>>> = {
  Pertalite: 125_430,
  Pertamax: 48_215,
  Biosolar: 76_980,
};

/**
 * The fuel product a series or query names ('Pertalite', 'pertamax_turbo', 'sisa_biosolar'), by whole words and the
 * longest name first ('Pertamax Turbo' before 'Pertamax'); undefined when it names none.
 */
export function fuelProductOf(name: unknown): FuelProduct | undefined {
  if (typeof name !== 'string') return undefined;
  const words = ` ${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
  return [...FUEL_PRODUCTS].sort((a, b) => b.length - a.length).find((p) => words.includes(` ${p.toLowerCase()} `));
}

/** Which tooltip a chart card shows (`view.tooltip`, spec 02 section 2 "Chart tooltips"); generic when absent. */
export const CHART_TOOLTIP_KINDS = ['generic', 'fuel', 'fuel_shift', 'laundry_usage', 'vending'] as const;
export type ChartTooltipKind = (typeof CHART_TOOLTIP_KINDS)[number];
export const DATE_FORMATS = [
  'HH:mm:ss',
  'HH:mm',
  'HH:mm:ss, DD MMM YY',
  'HH:mm, DD MMM YY',
  'DD MMM',
  'DD MMM YY',
  'MMMM',
  'MMMM YYYY',
  'YYYY',
] as const;
