// The manual rule form's checks and body (spec 03 section 5 "Rule manual"): name, category, condition, action and
// details required; condition, action and details must be JSON objects ("Kondisi/Aksi/Details harus dalam bentuk JSON
// yang benar"), pretty-printed back when valid; the key is sent only when it matches lowercase letters, digits and
// underscore (add only); key and category are read-only on edit.
import { RULE_CATEGORY_CODES, RULE_DESCRIPTION_MAX, RULE_KEY_MAX, RULE_NAME_MAX, T } from '@sentra/contracts';
import type { FieldErrors } from '../../ui/forms.js';
import type { AddRuleBody } from './ruleCalls.js';

export interface ManualForm {
  name: string;
  key: string;
  category: string;
  condition: string;
  action: string;
  details: string;
  description: string;
}

export const JSON_FIELDS = ['condition', 'action', 'details'] as const;
export type JsonField = (typeof JSON_FIELDS)[number];
export const JSON_MESSAGES: Record<JsonField, string> = {
  condition: T.rules.conditionJson,
  action: T.rules.actionJson,
  details: T.rules.detailsJson,
};

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

export const EMPTY_MANUAL: ManualForm = {
  name: '',
  key: '',
  category: '11',
  condition: pretty({ triggers: [] }),
  action: pretty({ new: [], response: [] }),
  details: '{}',
  description: '',
};

const KEY_PATTERN = new RegExp(`^[a-z0-9_]{1,${RULE_KEY_MAX}}$`);

/** A JSON object from text, or null (arrays and scalars are not a condition, action or details). */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export type ManualCheck =
  { ok: true; body: AddRuleBody; formatted: ManualForm } | { ok: false; errors: FieldErrors; jsonWarnings: string[] };

/** The form's problems, or the body to send (with the JSON texts pretty-printed for the form). */
export function checkManual(form: ManualForm, editing: boolean): ManualCheck {
  const errors: FieldErrors = {};
  const jsonWarnings: string[] = [];
  const name = form.name.trim();
  if (!name) errors.name = T.common.required;
  else if (name.length > RULE_NAME_MAX) errors.name = T.ruleScreens.nameMax;
  const category = Number(form.category);
  if (!form.category || !(RULE_CATEGORY_CODES as number[]).includes(category)) errors.category = T.common.required;
  if (form.description.length > RULE_DESCRIPTION_MAX) errors.description = T.ruleScreens.descriptionMax;
  const parsed = {} as Record<JsonField, Record<string, unknown>>;
  for (const f of JSON_FIELDS) {
    if (!form[f].trim()) {
      errors[f] = T.common.required;
      continue;
    }
    const v = parseObject(form[f]);
    if (v) parsed[f] = v;
    else {
      errors[f] = JSON_MESSAGES[f];
      jsonWarnings.push(JSON_MESSAGES[f]);
    }
  }
  if (Object.keys(errors).length) return { ok: false, errors, jsonWarnings };
  const key = form.key.trim();
  const body: AddRuleBody = {
    name,
    category,
    description: form.description.trim(),
    condition: parsed.condition,
    action: parsed.action,
    details: parsed.details,
    ...(!editing && KEY_PATTERN.test(key) ? { key } : {}),
  };
  return {
    ok: true,
    body,
    formatted: {
      ...form,
      condition: pretty(parsed.condition),
      action: pretty(parsed.action),
      details: pretty(parsed.details),
    },
  };
}
