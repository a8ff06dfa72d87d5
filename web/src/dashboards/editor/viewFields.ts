// The Visualisasi dialog as data (spec 02 section 3 "Component" view fields; STYLE.md "Editors are data drawn by one
// form renderer"): the view fields each card type offers, their kinds and defaults, and the conversion between the
// stored view and the form's values. One renderer (ViewFieldsForm) draws any list; the test checks every field against
// the contracts' ComponentView schema.
import {
  CARD_TYPES,
  CHART_TOOLTIP_KINDS,
  COMMAND_DATE_DISPLAY_FORMATS,
  COMMAND_TIME_DISPLAY_FORMATS,
  ComponentView,
  DATE_FORMATS,
  DEFAULT_CARD_LOCALE,
  T,
  querySeriesLabels,
  type CardTypeCode,
} from '@sentra/contracts';
import { registry } from '../../cards/registry.js';

const v = T.dashboards.view;

export type ViewFieldKind =
  | 'text'
  | 'number'
  | 'switch'
  | 'select'
  /** a list of colours */
  | 'colors'
  /** a number, or 'auto' when left empty ("Graph y-axis min and max fall back to 'auto' unless numeric") */
  | 'axisBound'
  /** comma-separated texts */
  | 'textList'
  /** comma-separated numbers */
  | 'numberList'
  /** device ids chosen from the selection tree */
  | 'devices'
  /** one of the series the card's value query names (a text field while it names none) */
  | 'series';

/** The view fields the form may write: ComponentView's fields except decimal and type, which the editor form owns. */
export type ViewFieldName = Exclude<keyof typeof ComponentView.shape, 'decimal' | 'type'>;

export interface ViewFieldSpec {
  name: ViewFieldName;
  kind: ViewFieldKind;
  label: string;
  helper?: string;
  options?: readonly { value: string; label: string }[];
  /** what a new card starts with: its definition's default (cards/<type>/*.card.ts), set by viewFieldsOf only */
  initial?: unknown;
}

/** The form's value of a field: text for text-like inputs, boolean for switches, a list for colours. */
export type ViewFieldValue = string | boolean | string[];
export type ViewFormValues = Record<string, ViewFieldValue>;

const f = (name: ViewFieldName, kind: ViewFieldKind, extra: Partial<ViewFieldSpec> = {}): ViewFieldSpec => ({
  name,
  kind,
  label: v[name],
  ...extra,
});
const choices = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

const title = () => f('title', 'text');
const LOCALE = f('locale', 'select', { options: choices([DEFAULT_CARD_LOCALE, 'en-US']) });
const DATE_FORMAT = f('date_format', 'select', { options: choices(DATE_FORMATS) });
// the date cards print a date and a time of their own formats (the chart formats above are axis and tooltip labels)
const DATE_CARD_FORMAT = f('date_format', 'select', { options: choices(COMMAND_DATE_DISPLAY_FORMATS) });
const TIME_FORMAT = f('time_format', 'select', { options: choices(COMMAND_TIME_DISPLAY_FORMATS) });
const list = (name: ViewFieldName, kind: 'textList' | 'numberList') => f(name, kind, { helper: v.listHelp });
const axis = (name: ViewFieldName) => f(name, 'axisBound', { helper: v.axisHelp });

const VALUE = [f('unit', 'text'), f('unit_front', 'switch'), f('pict', 'text'), f('full_number', 'switch')];
const LIST = [title(), f('visTags', 'switch'), f('full_number', 'switch'), LOCALE, DATE_FORMAT];
const GRAPH_COMMON = [
  title(),
  f('xlabel', 'text'),
  f('ylabel', 'text'),
  f('graph_unit', 'text'),
  f('graph_colors', 'colors'),
  f('graph_from_zero', 'switch'),
  axis('graph_yaxis_min'),
  axis('graph_yaxis_max'),
  f('reference_line_value', 'number'),
  f('reference_line_label', 'text'),
  f('with_summary', 'switch'),
  DATE_FORMAT,
  LOCALE,
  // "Chart tooltips" (spec 2): the kind, and for the fuel-station tooltip which series is the tank fill
  f('tooltip', 'select', { options: CHART_TOOLTIP_KINDS.map((kind) => ({ value: kind, label: v.tooltipKinds[kind] })) }),
  f('fill_key', 'series', { helper: v.fillKeyHelp }),
];
const LINE = [...GRAPH_COMMON.slice(0, 5), f('is_stack', 'switch'), f('has_dot', 'switch'), f('color_dot', 'text', { helper: v.colorDotHelp }), f('is_dashed', 'switch'), ...GRAPH_COMMON.slice(5)];
const BAR = [...GRAPH_COMMON.slice(0, 5), f('is_stack', 'switch'), ...GRAPH_COMMON.slice(5)];
const PIE = [title(), f('graph_unit', 'text'), f('graph_colors', 'colors'), f('with_summary', 'switch'), LOCALE];

// Command cards: title, icon, send button label; number cards min / max; text cards a max length. Their initial values
// ('Tombol perintah' / 'Kirim perintah', 'Kirim', 0–100, 30) are the definitions' defaults (command.cards.ts).
// The status line prints the device's status as the single value card prints a value (its unit, full number and the
// editor's decimals); the toggle's status is its ON/OFF.
const sendButton = f('button_label', 'text');
const STATUS = [f('unit', 'text'), f('unit_front', 'switch'), f('full_number', 'switch')];
const BUTTON = [title(), f('pict', 'text'), sendButton, ...STATUS];
const TOGGLE = [title(), f('pict', 'text')];
const NUMBER_INPUT = [title(), f('pict', 'text'), sendButton, f('min', 'number'), f('max', 'number'), ...STATUS];
const TEXT_INPUT = [title(), f('pict', 'text'), sendButton, f('max', 'number', { label: v.maxLength }), ...STATUS];
const DATE_INPUT = [title(), f('pict', 'text'), sendButton, LOCALE, DATE_CARD_FORMAT, TIME_FORMAT, ...STATUS];

export const VIEW_FIELDS: Record<CardTypeCode, readonly ViewFieldSpec[]> = {
  SINGLE_VALUE_CARD: [title(), ...VALUE, LOCALE],
  SINGLE_IMAGE_CARD: [title(), f('pict', 'text')],
  EMBEDDED_DASHBOARD: [title()],
  THREE_PHASE_CARD: [title(), ...VALUE],
  COORDINATE_CARD: [title(), f('axis_x', 'text'), f('axis_y', 'text'), f('unit_x', 'text'), f('unit_y', 'text'), f('color_dot', 'text')],
  STRAIN_CARD: [title(), f('unit', 'text'), list('strain_labels', 'textList'), list('strain_curves', 'textList'), f('strain_colors', 'colors')],
  CRACK_CARD: [title(), f('unit', 'text'), list('crack_labels', 'textList'), list('crack_lengths', 'numberList'), f('crack_colors', 'colors')],
  MAP_CARD: [title(), f('color_dot', 'text'), f('visTags', 'switch')],
  DROPDOWN_SELECTOR: [title()],
  TITLE: [title()],
  DATA_VALUE_CARD: [title(), f('unit', 'text'), f('unit_front', 'switch'), f('full_number', 'switch')],
  LIST_CARD: LIST,
  LIST_CUSTOM_CARD: [...LIST, f('devices', 'devices')],
  LIST_TRANSACTION_CARD: LIST,
  LIST_PAYMENT_CARD: LIST,
  CHART_CARD: LINE,
  BAR_CHART_CARD: BAR,
  BAR_MONITORING_CHART_CARD: BAR,
  LINE_CHART_CARD: LINE,
  TEXT_CHART_CARD: [title(), f('graph_unit', 'text'), DATE_FORMAT, LOCALE],
  LINE_MONITORING_CHART_CARD: LINE,
  LINE_SMART_CHART_CARD: LINE,
  PIE_CHART_CARD: PIE,
  PIE_MONITORING_CHART_CARD: PIE,
  AREA_CHART_CARD: LINE,
  AREA_MONITORING_CHART_CARD: LINE,
  BUTTON_CARD: BUTTON,
  INPUT_NUMBER_CARD: NUMBER_INPUT,
  INPUT_TEXT_CARD: TEXT_INPUT,
  INPUT_TOGGLE_CARD: TOGGLE,
  INPUT_DATE_CARD: DATE_INPUT,
  INPUT_DATE_RANGE_CARD: DATE_INPUT,
  DOWNLOAD_DATA_CARD: [title(), f('pict', 'text'), sendButton],
  UPLOAD_CSV_CARD: [title(), sendButton],
  BUTTON_TAGS_CARD: BUTTON,
  INPUT_TOGGLE_TAGS_CARD: TOGGLE,
  INPUT_TEXT_TAGS_CARD: TEXT_INPUT,
  INPUT_NUMBER_TAGS_CARD: NUMBER_INPUT,
  BUTTON_CUSTOM_CARD: BUTTON,
  INPUT_TOGGLE_CUSTOM_CARD: TOGGLE,
  INPUT_TEXT_CUSTOM_CARD: TEXT_INPUT,
  INPUT_NUMBER_CUSTOM_CARD: NUMBER_INPUT,
  WEBSERVICE: [title()],
  WEBSERVICE_FETCH: [title()],
};

const withInitials = new Map<CardTypeCode, readonly ViewFieldSpec[]>();

/** The fields a card type's editor offers, each starting from the card definition's default (one source). */
export function viewFieldsOf(cat: CardTypeCode): readonly ViewFieldSpec[] {
  if (!CARD_TYPES[cat]) return [];
  let specs = withInitials.get(cat);
  if (!specs) {
    const defaults = registry[cat].defaults;
    specs = VIEW_FIELDS[cat].map((spec) => (Object.prototype.hasOwnProperty.call(defaults, spec.name) ? { ...spec, initial: defaults[spec.name] } : spec));
    withInitials.set(cat, specs);
  }
  return specs;
}

/** The choices of a `series` field: the series names of the card's value query (what its chart rows are keyed by). */
export function seriesChoices(model: Record<string, unknown> | undefined): string[] {
  const q = model?.value;
  if (!q || typeof q !== 'object') return [];
  return querySeriesLabels(q as Parameters<typeof querySeriesLabels>[0]).filter((s) => s !== '');
}

const joined = (x: unknown) => (Array.isArray(x) ? x.map(String).join(', ') : '');
const split = (s: string) =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** A field's form value from a stored value (or its initial value when the view has none). */
function formValue(spec: ViewFieldSpec, stored: unknown): ViewFieldValue {
  const value = stored ?? spec.initial;
  switch (spec.kind) {
    case 'switch':
      return value === true;
    case 'colors':
    case 'devices':
      return Array.isArray(value) ? value.map(String) : [];
    case 'textList':
    case 'numberList':
      return joined(value);
    case 'axisBound':
      return typeof value === 'number' ? String(value) : '';
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/** The form's values for a view: stored values, else each field's initial value. */
export function viewFormValues(specs: readonly ViewFieldSpec[], view: Record<string, unknown>): ViewFormValues {
  return Object.fromEntries(specs.map((spec) => [spec.name, formValue(spec, view[spec.name])]));
}

const isNumber = (s: string) => s.trim() !== '' && Number.isFinite(Number(s));

/** Messages by field: numbers that are not numbers (an axis bound falls back to 'auto' instead). */
export function viewFieldErrors(specs: readonly ViewFieldSpec[], values: ViewFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const value = values[spec.name];
    if (typeof value !== 'string') continue;
    if (spec.kind === 'number' && value.trim() !== '' && !isNumber(value)) errors[spec.name] = v.notNumber;
    if (spec.kind === 'numberList' && split(value).some((p) => !isNumber(p))) errors[spec.name] = v.notNumber;
  }
  return errors;
}

/** A field's stored value from its form value; undefined removes it from the view. */
function storedValue(spec: ViewFieldSpec, value: ViewFieldValue | undefined): unknown {
  switch (spec.kind) {
    case 'switch':
      return value === true ? true : undefined;
    case 'colors':
    case 'devices':
      return Array.isArray(value) && value.length > 0 ? [...value] : undefined;
    case 'textList': {
      const parts = split(String(value ?? ''));
      return parts.length > 0 ? parts : undefined;
    }
    case 'numberList': {
      const parts = split(String(value ?? ''));
      return parts.length > 0 ? parts.map(Number) : undefined;
    }
    case 'axisBound':
      return isNumber(String(value ?? '')) ? Number(value) : 'auto';
    case 'number':
      return isNumber(String(value ?? '')) ? Number(value) : undefined;
    default: {
      const text = String(value ?? '');
      return text.trim() === '' ? undefined : text;
    }
  }
}

/**
 * The view the form describes, on top of the stored one: the listed fields written (an emptied field removed), every
 * other field kept (decimal and type belong to the editor form; manual JSON extras survive).
 */
export function viewFromForm(specs: readonly ViewFieldSpec[], values: ViewFormValues, base: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = { ...base };
  for (const spec of specs) {
    const stored = storedValue(spec, values[spec.name]);
    if (stored === undefined) delete view[spec.name];
    else view[spec.name] = stored;
  }
  return view;
}

/** A new card's view: the initial values of its fields (default titles, button labels, command bounds). */
export function initialView(cat: CardTypeCode): Record<string, unknown> {
  const specs = viewFieldsOf(cat).filter((s) => s.initial !== undefined);
  return viewFromForm(specs, viewFormValues(specs, {}), {});
}
