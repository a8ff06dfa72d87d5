// The component editor's categories and their subtypes (spec 02 section 3 "Component category", "Category subtypes"):
// which card type code each choice ends in. Codes not reachable here are written with the manual JSON form.
import type { CardTypeCode } from './cardTypes.js';
import type { UnitCode } from './units.js';

export const EDITOR_CATEGORIES = [
  'Chart',
  'Control',
  'Dropdown Selector',
  'List',
  'Map',
  'Single Value',
  'Three Phase',
  'Title',
] as const;
export type EditorCategory = (typeof EDITOR_CATEGORIES)[number];

export const LIST_SUBTYPES: readonly { label: string; cat: CardTypeCode }[] = [
  { label: 'Auto (by all/tags)', cat: 'LIST_CARD' },
  { label: 'Manual', cat: 'LIST_CUSTOM_CARD' },
  { label: 'Transaction', cat: 'LIST_TRANSACTION_CARD' },
];

export const CHART_SUBTYPES: readonly { label: string; cat: CardTypeCode }[] = [
  { label: 'Area', cat: 'AREA_CHART_CARD' },
  { label: 'Bar', cat: 'BAR_CHART_CARD' },
  { label: 'Line', cat: 'LINE_CHART_CARD' },
  { label: 'Pie', cat: 'PIE_CHART_CARD' },
];

/** "A toggle Manual vs By All/Tags chooses the final category": Manual commands one chosen device. */
export const CONTROL_SUBTYPES: readonly { label: string; manual: CardTypeCode; byTags: CardTypeCode }[] = [
  { label: 'Boolean Input', manual: 'INPUT_TOGGLE_CARD', byTags: 'INPUT_TOGGLE_TAGS_CARD' },
  { label: 'Integer Input', manual: 'INPUT_NUMBER_CARD', byTags: 'INPUT_NUMBER_TAGS_CARD' },
  { label: 'String Input', manual: 'INPUT_TEXT_CARD', byTags: 'INPUT_TEXT_TAGS_CARD' },
  { label: 'Without Input', manual: 'BUTTON_CARD', byTags: 'BUTTON_TAGS_CARD' },
];
export type ControlMode = 'manual' | 'byTags';

/** Categories that are one card type without a subtype choice. */
export const SINGLE_CODE_CATEGORIES: Partial<Record<EditorCategory, CardTypeCode>> = {
  'Dropdown Selector': 'DROPDOWN_SELECTOR',
  Map: 'MAP_CARD',
  'Single Value': 'SINGLE_VALUE_CARD',
  'Three Phase': 'THREE_PHASE_CARD',
  Title: 'TITLE',
};

/** The editor's choice: a category, its subtype label, the unit (single value, see SINGLE_VALUE_SUBTYPES), the control mode. */
export interface EditorChoice {
  category: EditorCategory;
  subtype?: string;
  unit?: UnitCode;
  controlMode?: ControlMode;
}

/** The card type code an editor choice ends in, or undefined while the choice is incomplete. */
export function cardTypeOfChoice(choice: EditorChoice): CardTypeCode | undefined {
  const single = SINGLE_CODE_CATEGORIES[choice.category];
  if (single) return single;
  if (choice.category === 'List') return LIST_SUBTYPES.find((s) => s.label === choice.subtype)?.cat;
  if (choice.category === 'Chart') return CHART_SUBTYPES.find((s) => s.label === choice.subtype)?.cat;
  const control = CONTROL_SUBTYPES.find((s) => s.label === choice.subtype);
  if (!control || !choice.controlMode) return undefined;
  return control[choice.controlMode];
}

/** The editor choice that produced a card type code (editing an existing card); undefined for manual-only codes. */
export function choiceOfCardType(cat: CardTypeCode): EditorChoice | undefined {
  for (const [category, code] of Object.entries(SINGLE_CODE_CATEGORIES)) {
    if (code === cat) return { category: category as EditorCategory };
  }
  const list = LIST_SUBTYPES.find((s) => s.cat === cat);
  if (list) return { category: 'List', subtype: list.label };
  const chart = CHART_SUBTYPES.find((s) => s.cat === cat);
  if (chart) return { category: 'Chart', subtype: chart.label };
  for (const control of CONTROL_SUBTYPES) {
    if (control.manual === cat) return { category: 'Control', subtype: control.label, controlMode: 'manual' };
    if (control.byTags === cat) return { category: 'Control', subtype: control.label, controlMode: 'byTags' };
  }
  return undefined;
}

/**
 * A card type in the editor's own words ("Chart · Line", "Control · Boolean Input · By All/Tags"), for titles that
 * would otherwise show a code; a code the editor cannot make (manual JSON only) stays as it is.
 */
export function cardTypeLabel(cat: CardTypeCode, modeLabels: Record<ControlMode, string>): string {
  const choice = choiceOfCardType(cat);
  if (!choice) return cat;
  return [choice.category, choice.subtype, choice.controlMode && modeLabels[choice.controlMode]]
    .filter(Boolean)
    .join(' · ');
}
