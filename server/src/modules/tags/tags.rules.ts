// What values a tag category takes (spec 03 sections 3, 5): one pure check shared by device tags and sensor tags.
import { T, TAG_TEXT_MAX, TAGS_PER_CATEGORY, TagType, multiTagValue } from '@sentra/contracts';

export interface CategoryRule {
  prefix: string;
  category: number;
  /** name_lc → name of the options (single selection) */
  options: ReadonlyMap<string, string>;
}

export type TagCheck = { ok: true; values: string[] } | { ok: false; index: number; message: string };

const SINGLE_VALUE_MAX = 32;

/**
 * Checks and normalises the values given for one category:
 * 1 single selection: at most one registered option (by name_lc or name), stored as its name_lc;
 * 2 single value: at most one free text of at most 32 characters;
 * 3 single checkbox: at most one of `true` / `false`;
 * 4 multi: at most 3 unique tags, each lowercase-first, lowercase letters, digits, `_` or space, at most 16 characters.
 */
export function checkTagValues(rule: CategoryRule, given: readonly string[]): TagCheck {
  const values = given.map((v) => v.trim());
  if (rule.category !== TagType.MULTI && values.length > 1)
    return { ok: false, index: 1, message: T.tags.serverOneValue };
  switch (rule.category) {
    case TagType.SELECTION: {
      const out: string[] = [];
      for (const [index, v] of values.entries()) {
        const byKey = rule.options.has(v) ? v : [...rule.options].find(([, name]) => name === v)?.[0];
        if (!byKey) return { ok: false, index, message: T.tags.serverUnknownOption };
        out.push(byKey);
      }
      return { ok: true, values: out };
    }
    case TagType.VALUE: {
      const bad = values.findIndex((v) => v.length === 0 || v.length > SINGLE_VALUE_MAX);
      return bad >= 0
        ? { ok: false, index: bad, message: values[bad]!.length ? T.common.max(SINGLE_VALUE_MAX) : T.common.required }
        : { ok: true, values };
    }
    case TagType.CHECKBOX: {
      const bad = values.findIndex((v) => v !== 'true' && v !== 'false');
      return bad >= 0 ? { ok: false, index: bad, message: T.tags.serverCheckbox } : { ok: true, values };
    }
    default: {
      if (values.length > TAGS_PER_CATEGORY)
        return { ok: false, index: TAGS_PER_CATEGORY, message: T.tags.serverMaxThree };
      for (const [index, v] of values.entries()) {
        const parsed = multiTagValue.safeParse(v);
        if (!parsed.success) return { ok: false, index, message: parsed.error.issues[0]!.message };
        if (v.length > TAG_TEXT_MAX) return { ok: false, index, message: T.tags.maxChars };
        if (values.indexOf(v) !== index) return { ok: false, index, message: T.tags.serverUnique };
      }
      return { ok: true, values };
    }
  }
}
