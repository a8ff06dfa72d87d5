// Card type codes (spec 02 section 3 "Card type codes"): each code once, with its group, the query kind that decides
// its Query options and how it is queried (the editor's query rows on the web, the evaluation on the server: one table
// per side, by kind), its minimum size (section 5 "Minimum card size"), and where the component editor offers it
// (section 3 "Component category", "Category subtypes"; editorCategories.ts derives the selectors from it). Sizes are
// grid units as the editor shows them. One line per card type (docs/conventions.md "One card type, one folder").
import type { QueryKind } from './queries.js';

export const CARD_GROUPS = ['single', 'list', 'chart', 'control', 'controlVariant', 'other'] as const;
export type CardGroup = (typeof CARD_GROUPS)[number];

export interface CardSize {
  minW: number;
  minH: number;
  /** exactly this size (download card), or exactly this height (title card) */
  fixedW?: number;
  fixedH?: number;
}

/**
 * Where the component editor offers a card type: its category, the subtype label within it, and for Control the
 * Manual / By All/Tags toggle. A code without one is written with the manual JSON form.
 */
export interface CardEditorPlace {
  category: string;
  subtype?: string;
  mode?: 'manual' | 'byTags';
}
export interface CardTypeInfo {
  group: CardGroup;
  kind: QueryKind;
  size: CardSize;
  editor?: CardEditorPlace;
}

// "List cards and graph cards: width at least 2, height at least 4"; "Other cards: width 2, height 4, and some width 1,
// height 2" — values, commands and uploads are the small ones, pictures and embedded pages the large ones.
const WIDE: CardSize = { minW: 2, minH: 4 };
const SMALL: CardSize = { minW: 1, minH: 2 };
const TALL: CardSize = { minW: 1, minH: 4 };

export const CARD_TYPES = {
  SINGLE_VALUE_CARD: { group: 'single', kind: 'single', size: SMALL, editor: { category: 'Single Value' } },
  SINGLE_IMAGE_CARD: { group: 'single', kind: 'single', size: WIDE },
  EMBEDDED_DASHBOARD: { group: 'single', kind: 'none', size: WIDE },
  THREE_PHASE_CARD: { group: 'single', kind: 'threePhase', size: TALL, editor: { category: 'Three Phase' } },
  COORDINATE_CARD: { group: 'single', kind: 'coordinate', size: TALL },
  STRAIN_CARD: { group: 'single', kind: 'single', size: TALL },
  CRACK_CARD: { group: 'single', kind: 'single', size: TALL },
  MAP_CARD: { group: 'single', kind: 'map', size: { minW: 1, minH: 2 }, editor: { category: 'Map' } },
  DROPDOWN_SELECTOR: {
    group: 'single',
    kind: 'none',
    size: { minW: 2, minH: 1 },
    editor: { category: 'Dropdown Selector' },
  },
  TITLE: { group: 'single', kind: 'title', size: { minW: 1, minH: 1, fixedH: 1 }, editor: { category: 'Title' } },
  /** the three-value card (value_1 to value_3): "Three-value card: height 4" */
  DATA_VALUE_CARD: { group: 'single', kind: 'threeValue', size: TALL },

  LIST_CARD: { group: 'list', kind: 'list', size: WIDE, editor: { category: 'List', subtype: 'Auto (by all/tags)' } },
  LIST_CUSTOM_CARD: { group: 'list', kind: 'list', size: WIDE, editor: { category: 'List', subtype: 'Manual' } },
  LIST_TRANSACTION_CARD: {
    group: 'list',
    kind: 'list',
    size: WIDE,
    editor: { category: 'List', subtype: 'Transaction' },
  },
  LIST_PAYMENT_CARD: { group: 'list', kind: 'list', size: WIDE },

  CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },
  BAR_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE, editor: { category: 'Chart', subtype: 'Bar' } },
  BAR_MONITORING_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },
  LINE_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE, editor: { category: 'Chart', subtype: 'Line' } },
  TEXT_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },
  LINE_MONITORING_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },
  LINE_SMART_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },
  PIE_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE, editor: { category: 'Chart', subtype: 'Pie' } },
  PIE_MONITORING_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },
  AREA_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE, editor: { category: 'Chart', subtype: 'Area' } },
  AREA_MONITORING_CHART_CARD: { group: 'chart', kind: 'chart', size: WIDE },

  // Command cards command their target (one device, or every device of the card's tags) and query only their status
  // line, with the single-value functions.
  BUTTON_CARD: {
    group: 'control',
    kind: 'command',
    size: SMALL,
    editor: { category: 'Control', subtype: 'Without Input', mode: 'manual' },
  },
  INPUT_NUMBER_CARD: {
    group: 'control',
    kind: 'command',
    size: SMALL,
    editor: { category: 'Control', subtype: 'Integer Input', mode: 'manual' },
  },
  INPUT_TEXT_CARD: {
    group: 'control',
    kind: 'command',
    size: SMALL,
    editor: { category: 'Control', subtype: 'String Input', mode: 'manual' },
  },
  INPUT_TOGGLE_CARD: {
    group: 'control',
    kind: 'command',
    size: SMALL,
    editor: { category: 'Control', subtype: 'Boolean Input', mode: 'manual' },
  },
  INPUT_DATE_CARD: { group: 'control', kind: 'command', size: SMALL },
  INPUT_DATE_RANGE_CARD: { group: 'control', kind: 'command', size: SMALL },
  /** "Download card: fixed at width 1, height 2"; it downloads a series, so it queries like a chart */
  DOWNLOAD_DATA_CARD: { group: 'control', kind: 'chart', size: { minW: 1, minH: 2, fixedW: 1, fixedH: 2 } },
  UPLOAD_CSV_CARD: { group: 'control', kind: 'none', size: SMALL },

  BUTTON_TAGS_CARD: {
    group: 'controlVariant',
    kind: 'tagCommand',
    size: SMALL,
    editor: { category: 'Control', subtype: 'Without Input', mode: 'byTags' },
  },
  INPUT_TOGGLE_TAGS_CARD: {
    group: 'controlVariant',
    kind: 'tagCommand',
    size: SMALL,
    editor: { category: 'Control', subtype: 'Boolean Input', mode: 'byTags' },
  },
  INPUT_TEXT_TAGS_CARD: {
    group: 'controlVariant',
    kind: 'tagCommand',
    size: SMALL,
    editor: { category: 'Control', subtype: 'String Input', mode: 'byTags' },
  },
  INPUT_NUMBER_TAGS_CARD: {
    group: 'controlVariant',
    kind: 'tagCommand',
    size: SMALL,
    editor: { category: 'Control', subtype: 'Integer Input', mode: 'byTags' },
  },
  BUTTON_CUSTOM_CARD: { group: 'controlVariant', kind: 'command', size: SMALL },
  INPUT_TOGGLE_CUSTOM_CARD: { group: 'controlVariant', kind: 'command', size: SMALL },
  INPUT_TEXT_CUSTOM_CARD: { group: 'controlVariant', kind: 'command', size: SMALL },
  INPUT_NUMBER_CUSTOM_CARD: { group: 'controlVariant', kind: 'command', size: SMALL },

  WEBSERVICE: { group: 'other', kind: 'none', size: WIDE },
  WEBSERVICE_FETCH: { group: 'other', kind: 'none', size: WIDE },
} as const satisfies Record<string, CardTypeInfo>;

export type CardTypeCode = keyof typeof CARD_TYPES;
export const CARD_TYPE_CODES = Object.keys(CARD_TYPES) as CardTypeCode[];

export function isCardType(code: unknown): code is CardTypeCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CARD_TYPES, code);
}

/** Cards whose height is not doubled on load nor halved on save (section 4 "Saving and layout"). */
export const UNSCALED_HEIGHT_CARDS: readonly CardTypeCode[] = ['TITLE', 'DROPDOWN_SELECTOR'];

/** Height as stored in conf_dashboard: "Heights of 2 or more are halved on save", except title and dropdown cards. */
export function storedHeight(cat: CardTypeCode, gridH: number): number {
  return UNSCALED_HEIGHT_CARDS.includes(cat) || gridH < 2 ? gridH : gridH / 2;
}
/** Height on the grid: "Card heights are doubled when loaded, except for title and dropdown-selector cards." */
export function gridHeight(cat: CardTypeCode, h: number): number {
  return UNSCALED_HEIGHT_CARDS.includes(cat) ? h : h * 2;
}

/** Columns of the grid at md and lg, the only widths whose layout is saved (section 9 "Grid"). */
export const GRID_COLUMNS = 4;
