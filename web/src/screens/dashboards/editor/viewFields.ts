// The Visualisasi dialog's logic (spec 02 section 3 "Component" view fields; docs/conventions.md "Editors are data
// drawn by one form renderer"): each card type's fields come from its definition (`fields`, in its folder under cards/,
// built with cards/common/viewFieldKit.ts); here their initial values and the conversion between the stored view and
// the form's values. One renderer (ViewFieldsForm) draws any list; the test checks every field against ComponentView.
import { CARD_TYPES, T, querySeriesLabels, type CardTypeCode } from '@sentra/contracts';
import { registry } from '../../../cards/registry.js';
import type { ViewFieldSpec } from '../../../cards/common/viewFieldKit.js';

export type { ViewFieldKind, ViewFieldName, ViewFieldSpec } from '../../../cards/common/viewFieldKit.js';

const v = T.dashboards.view;

/** The form's value of a field: text for text-like inputs, boolean for switches, a list for colours. */
export type ViewFieldValue = string | boolean | string[];
export type ViewFormValues = Record<string, ViewFieldValue>;

const withInitials = new Map<CardTypeCode, readonly ViewFieldSpec[]>();

/** The fields a card type's editor offers, each starting from the card definition's default (one source). */
export function viewFieldsOf(cat: CardTypeCode): readonly ViewFieldSpec[] {
  if (!CARD_TYPES[cat]) return [];
  let specs = withInitials.get(cat);
  if (!specs) {
    const defaults = registry[cat].defaults;
    specs = registry[cat].fields.map((spec) =>
      Object.prototype.hasOwnProperty.call(defaults, spec.name) ? { ...spec, initial: defaults[spec.name] } : spec,
    );
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
export function viewFromForm(
  specs: readonly ViewFieldSpec[],
  values: ViewFormValues,
  base: Record<string, unknown>,
): Record<string, unknown> {
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
