// The component editor's categories and their subtypes (spec 02 section 3 "Component category", "Category subtypes"),
// derived from each card type's `editor` place in cardTypes.ts: which card type code each choice ends in. Codes
// without a place are written with the manual JSON form. Categories and subtypes are offered in alphabetical order.
import { CARD_TYPES, CARD_TYPE_CODES, type CardTypeCode } from './cardTypes.js';
import type { UnitCode } from './units.js';

type Placed = { [C in CardTypeCode]: (typeof CARD_TYPES)[C] extends { editor: infer P } ? P : never }[CardTypeCode];
export type EditorCategory = Placed extends { category: infer C } ? C : never;
export type ControlMode = 'manual' | 'byTags';

/** The card types the editor can make, with their place. */
const PLACED = CARD_TYPE_CODES.flatMap((cat) => {
  const place = (CARD_TYPES[cat] as { editor?: EditorChoiceOf }).editor;
  return place ? [{ cat, ...place }] : [];
});
interface EditorChoiceOf {
  category: EditorCategory;
  subtype?: string;
  mode?: ControlMode;
}

const sorted = <T>(xs: Iterable<T>) => [...new Set(xs)].sort() as T[];

export const EDITOR_CATEGORIES: readonly EditorCategory[] = sorted(PLACED.map((p) => p.category));

/** The subtypes of a category, in the order offered (none: the category is one card type). */
export function editorSubtypes(category: EditorCategory | undefined): string[] {
  return sorted(PLACED.filter((p) => p.category === category && p.subtype).map((p) => p.subtype!));
}

/** Whether a category also asks Manual vs By All/Tags ("A toggle Manual vs By All/Tags chooses the final category"). */
export function hasControlMode(category: EditorCategory | undefined): boolean {
  return PLACED.some((p) => p.category === category && p.mode);
}

/** The editor's choice: a category, its subtype label, the unit (single value, see SINGLE_VALUE_SUBTYPES), the control mode. */
export interface EditorChoice {
  category: EditorCategory;
  subtype?: string;
  unit?: UnitCode;
  controlMode?: ControlMode;
}

/** The card type code an editor choice ends in, or undefined while the choice is incomplete. */
export function cardTypeOfChoice(choice: EditorChoice): CardTypeCode | undefined {
  // a place without a subtype (or mode) takes any: a category of one card type ends in it whatever else is chosen
  return PLACED.find(
    (p) =>
      p.category === choice.category &&
      (p.subtype ?? choice.subtype) === choice.subtype &&
      (p.mode ?? choice.controlMode) === choice.controlMode,
  )?.cat;
}

/** The editor choice that produced a card type code (editing an existing card); undefined for manual-only codes. */
export function choiceOfCardType(cat: CardTypeCode): EditorChoice | undefined {
  const place = PLACED.find((p) => p.cat === cat);
  if (!place) return undefined;
  const choice: EditorChoice = { category: place.category };
  if (place.subtype !== undefined) choice.subtype = place.subtype;
  if (place.mode !== undefined) choice.controlMode = place.mode;
  return choice;
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
