// What a device's tag values must be, per category type (spec 03 sections 3, 5): the wizard's tag step and the tag
// value edit screen check with these before sending, with the spec's messages. The server checks again.
import { T, TAGS_PER_CATEGORY, TagType, multiTagValue, type TagCategory } from '@sentra/contracts';

export type TagValues = Record<string, string[]>;

const SINGLE_VALUE_MAX = 32;

/** Why a multi-value tag (type 4) cannot be added next to `existing`, or null when it can. */
export function multiTagProblem(text: string, existing: readonly string[]): string | null {
  const parsed = multiTagValue.safeParse(text);
  if (!parsed.success) return parsed.error.issues[0]!.message;
  if (existing.includes(text)) return T.tags.serverUnique;
  if (existing.length >= TAGS_PER_CATEGORY) return T.tags.serverMaxThree;
  return null;
}

/** The problem of each chosen category's values, by prefix (empty when every value may be sent). */
export function tagValueErrors(
  categories: readonly TagCategory[],
  chosen: readonly string[],
  values: TagValues,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const prefix of chosen) {
    const cat = categories.find((c) => c.prefix === prefix);
    if (!cat) continue;
    const given = (values[prefix] ?? []).map((v) => v.trim()).filter(Boolean);
    switch (cat.category) {
      case TagType.SELECTION:
        if (!given[0] || !cat.definitions.some((d) => d.name_lc === given[0]))
          errors[prefix] = T.devices.tagValueRequired;
        break;
      case TagType.VALUE:
        if (!given[0]) errors[prefix] = T.devices.tagValueRequired;
        else if (given[0].length > SINGLE_VALUE_MAX) errors[prefix] = T.common.max(SINGLE_VALUE_MAX);
        break;
      case TagType.CHECKBOX:
        break;
      default: {
        if (given.length === 0) errors[prefix] = T.devices.tagValueRequired;
        else if (given.length > TAGS_PER_CATEGORY) errors[prefix] = T.tags.serverMaxThree;
        else {
          for (const [i, v] of given.entries()) {
            const problem = multiTagProblem(v, given.slice(0, i));
            if (problem) {
              errors[prefix] = problem;
              break;
            }
          }
        }
      }
    }
  }
  return errors;
}

/** The `tags` sent for the chosen categories: trimmed values; an unticked checkbox is `false`. */
export function tagsBody(categories: readonly TagCategory[], chosen: readonly string[], values: TagValues): TagValues {
  const out: TagValues = {};
  for (const prefix of chosen) {
    const cat = categories.find((c) => c.prefix === prefix);
    if (!cat) continue;
    const given = (values[prefix] ?? []).map((v) => v.trim()).filter(Boolean);
    out[prefix] =
      cat.category === TagType.CHECKBOX
        ? [given[0] === 'true' ? 'true' : 'false']
        : cat.category === TagType.MULTI
          ? given
          : given.slice(0, 1);
  }
  return out;
}

/** The categories a device already uses (the edit screen's initial selection). */
export const usedCategories = (categories: readonly TagCategory[], tags: TagValues): string[] =>
  categories.filter((c) => (tags[c.prefix] ?? []).length > 0).map((c) => c.prefix);

/** How a stored value reads: a selection's option name, else the value itself. */
export function tagDisplay(categories: readonly TagCategory[], prefix: string, value: string): string {
  const cat = categories.find((c) => c.prefix === prefix);
  if (!cat) return `${prefix}: ${value}`;
  if (cat.category === TagType.SELECTION)
    return `${cat.name}: ${cat.definitions.find((d) => d.name_lc === value)?.name ?? value}`;
  if (cat.category === TagType.CHECKBOX)
    return `${cat.name}: ${value === 'true' ? T.devices.tagChecked : T.devices.tagUnchecked}`;
  return cat.category === TagType.MULTI ? value : `${cat.name}: ${value}`;
}

export interface TagFilterOption {
  /** `prefix:value`, as the device list filter takes it */
  tag: string;
  label: string;
  group: string;
}

/** What the device list's tag filter offers: every option of a selection category and both sides of a checkbox one
 *  (free-value and multi categories have no fixed values: those are typed as `prefix:value`). */
export function tagFilterOptions(categories: readonly TagCategory[]): TagFilterOption[] {
  return categories.flatMap((c) => {
    const values =
      c.category === TagType.SELECTION
        ? c.definitions.map((d) => d.name_lc)
        : c.category === TagType.CHECKBOX
          ? ['true', 'false']
          : [];
    return values.map((v) => ({ tag: `${c.prefix}:${v}`, label: tagDisplay(categories, c.prefix, v), group: c.name }));
  });
}
