// What a card type's Visualisasi fields are made of (spec 02 section 3 "Component" view fields; docs/conventions.md
// "Editors are data drawn by one form renderer"): the field kinds, the builder, and the fields several card folders
// offer. Each card
// type lists its own fields in its definition (`fields`, in its folder); the editor (screens/dashboards/editor/viewFields.ts)
// converts between the stored view and the form's values, and one renderer (ViewFieldsForm) draws any list.
import { ComponentView, DATE_FORMATS, DEFAULT_CARD_LOCALE, T } from '@sentra/contracts';

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
  | 'series'
  /** a card icon: one of the named icons (common/icons.tsx) picked from a grid, or a picture address */
  | 'icon';

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

/** A field labelled with its name's text (T.dashboards.view). */
export const field = (name: ViewFieldName, kind: ViewFieldKind, extra: Partial<ViewFieldSpec> = {}): ViewFieldSpec => ({
  name,
  kind,
  label: v[name],
  ...extra,
});
export const choices = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

export const title = () => field('title', 'text');
export const LOCALE = field('locale', 'select', { options: choices([DEFAULT_CARD_LOCALE, 'en-US']) });
/** the chart and list date formats (axis and tooltip labels, list times) */
export const DATE_FORMAT = field('date_format', 'select', { options: choices(DATE_FORMATS) });
export const textList = (name: ViewFieldName) => field(name, 'textList', { helper: v.listHelp });
export const numberList = (name: ViewFieldName) => field(name, 'numberList', { helper: v.listHelp });
/** a value with its unit (single value, three phase) */
export const VALUE = [
  field('unit', 'text'),
  field('unit_front', 'switch'),
  field('pict', 'icon'),
  field('full_number', 'switch'),
];
/** the label of a card's send button (command cards, download, upload) */
export const SEND_BUTTON = field('button_label', 'text');
