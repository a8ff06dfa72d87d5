// The editor wizard's draft of a rule (spec 03 sections 3 and 9): info (name, category, description), trigger rows
// (field DEVICE_ID/SENSOR/CONFIG/PARAM/VALUE, operator, value), the action (a name and the `new` and `response` groups
// of notification tasks, one per channel: contracts/src/channels/) and the engine's extras (duration, clear condition, cooldown). Pure functions: the
// draft's checks, and the conversions between the draft and the rule's JSON (condition, action, details) the server
// stores, so the manual form and the wizard read and write the same shape.
import {
  ActionTask,
  CHANNEL_TASK_FIELDS,
  channelOf,
  RULE_CATEGORIES,
  RULE_CATEGORY_CODES,
  RULE_DESCRIPTION_MAX,
  RULE_LIMITS,
  RULE_NAME_MAX,
  T,
  numberTextDigits,
  TASK_TYPES,
  TRIGGER_FIELDS,
  TRIGGER_OPS,
  type ChannelTaskField,
  type TaskType,
  type TriggerEntry,
  type TriggerField,
  type TriggerOp,
} from '@sentra/contracts';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';

/** Rule categories (spec 03 section 9) as a list, in code order; the wizard offers only 11. */
export const RULE_CATEGORY_LIST: readonly { code: number; name: string }[] = RULE_CATEGORY_CODES.map((code) => ({
  code,
  name: RULE_CATEGORIES[code],
}));
export const WIZARD_CATEGORIES = RULE_CATEGORY_LIST.filter((c) => c.code === 11);
export const TASK_GROUPS = ['new', 'response'] as const;
export type TaskGroup = (typeof TASK_GROUPS)[number];

export interface RuleInfo {
  name: string;
  category: number;
  description: string;
}

export interface TriggerRow {
  field: TriggerField;
  op: TriggerOp;
  /** as typed; VALUE rows holding a number are sent as a number */
  value: string;
}

/** A task as the form edits it: its type, every channel's fields (the chosen one's are sent) and the content. */
export type RuleTask = { type: TaskType; content: string } & Record<ChannelTaskField, string>;

export interface RuleAction {
  /** the action's name (kept as stored; the rule's name by default) */
  name: string;
  /** the task title template (empty: the engine uses the rule's name) */
  title: string;
  new: RuleTask[];
  response: RuleTask[];
}

/** The engine's extras; empty text = not set (the spec's shape without them stays valid). */
export interface RuleExtras {
  /** seconds the condition must hold before the rule fires */
  duration: string;
  /** the VALUE condition that ends the episode, e.g. `>=` `20` for a tank refilled */
  clearOp: TriggerOp;
  clearValue: string;
  /** seconds between two tasks of this rule */
  cooldown: string;
}

export interface RuleDraft {
  info: RuleInfo;
  trigger: TriggerRow[];
  extras: RuleExtras;
  action: RuleAction;
}

/** every channel's task fields, each with its value */
const fieldsOf = (value: (field: ChannelTaskField) => string) =>
  Object.fromEntries(CHANNEL_TASK_FIELDS.map((f) => [f, value(f)])) as Record<ChannelTaskField, string>;
export const emptyTask = (type: TaskType = TASK_TYPES[0]): RuleTask => ({ type, ...fieldsOf(() => ''), content: '' });
export const EMPTY_EXTRAS: RuleExtras = { duration: '', clearOp: '<', clearValue: '', cooldown: '' };

/** A new draft: the wizard's one category, a device row and a value row to fill. */
export function emptyDraft(): RuleDraft {
  return {
    info: { name: '', category: 11, description: '' },
    // one watched point (device → sensor → config → param) and its comparison, as the engine's category 11 wants
    trigger: [
      { field: 'DEVICE_ID', op: '==', value: '' },
      { field: 'SENSOR', op: '==', value: '' },
      { field: 'CONFIG', op: '==', value: '' },
      { field: 'PARAM', op: '==', value: '' },
      { field: 'VALUE', op: '>', value: '' },
    ],
    extras: { ...EMPTY_EXTRAS },
    action: { name: '', title: '', new: [], response: [] },
  };
}

/**
 * A name or description past its limit, said while typing: the fields are not cut at the limit (a pasted 35-character
 * name was silently shortened), so the message is what tells.
 */
export function infoLimitError(field: string, value: string): string | undefined {
  if (field === 'name' && value.trim().length > RULE_NAME_MAX) return T.ruleScreens.nameMax;
  if (field === 'description' && value.length > RULE_DESCRIPTION_MAX) return T.ruleScreens.descriptionMax;
  return undefined;
}

export function validateInfo(info: RuleInfo): FieldErrors {
  const e: FieldErrors = {};
  if (!info.name.trim()) e.name = T.common.required;
  else if (info.name.trim().length > RULE_NAME_MAX) e.name = T.ruleScreens.nameMax;
  if (!(RULE_CATEGORY_CODES as number[]).includes(info.category)) e.category = T.common.required;
  if (info.description.length > RULE_DESCRIPTION_MAX) e.description = T.ruleScreens.descriptionMax;
  return e;
}

const isNumberText = (s: string) => s.trim() !== '' && Number.isFinite(Number(s));
const isSeconds = (s: string) => s.trim() === '' || (isNumberText(s) && Number(s) >= 0);
/** a number longer than a double holds exactly would be compared rounded (RULE_LIMITS.valueDigits) */
const tooLong = (s: string) => isNumberText(s) && numberTextDigits(s) > RULE_LIMITS.valueDigits;
const TOO_LONG = T.rules.valueTooLong(RULE_LIMITS.valueDigits);

/** Trigger problems keyed `row.{i}`, `trigger` (the whole list) and the extras' field names. */
export function validateTrigger(rows: readonly TriggerRow[], extras: RuleExtras): FieldErrors {
  const e: FieldErrors = {};
  if (rows.length === 0) e.trigger = T.ruleScreens.triggerEmpty;
  rows.forEach((r, i) => {
    if (!r.value.trim()) e[`row.${i}`] = T.ruleScreens.triggerValueRequired;
  });
  if (rows.length > 0 && !rows.some((r) => r.field === 'DEVICE_ID')) e.trigger = T.ruleScreens.triggerNeedsDevice;
  else if (rows.length > 0 && !rows.some((r) => r.field === 'VALUE')) e.trigger = T.ruleScreens.triggerNeedsValue;
  rows.forEach((r, i) => {
    if (e[`row.${i}`]) return;
    // selectors only compare with ==; ordering operators need numbers (the engine's rules)
    if (r.field !== 'VALUE' && r.op !== '==') e[`row.${i}`] = T.rules.selectorEquals;
    else if (r.field === 'VALUE' && r.op !== '==' && !isNumberText(r.value)) e[`row.${i}`] = T.rules.valueNumber;
    else if (r.field === 'VALUE' && tooLong(r.value)) e[`row.${i}`] = TOO_LONG;
  });
  if (!isSeconds(extras.duration)) e.duration = T.ruleScreens.numberInvalid;
  if (!isSeconds(extras.cooldown)) e.cooldown = T.ruleScreens.numberInvalid;
  if (extras.clearValue.trim() && !isNumberText(extras.clearValue)) e.clearValue = T.ruleScreens.numberInvalid;
  else if (tooLong(extras.clearValue)) e.clearValue = TOO_LONG;
  return e;
}

/** A task's problems by the engine's own rules (addresses, E.164 phones, lengths, template names). */
export function validateTask(t: RuleTask): FieldErrors {
  const required: FieldErrors = {};
  const need = (field: keyof RuleTask) => {
    if (!t[field].trim()) required[field] = T.common.required;
  };
  // a subject or content left blank is the default message (T.rules.defaultSubject, defaultContent)
  need(channelOf(t.type).address.field);
  const parsed = ActionTask.safeParse(taskJson(t));
  return { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)), ...required };
}

/** The device a draft's trigger names (its first DEVICE_ID row), for the pickers and the test panel. */
export const triggerDevice = (rows: readonly TriggerRow[]) =>
  rows.find((r) => r.field === 'DEVICE_ID' && r.value.trim())?.value.trim() ?? '';

/** The first VALUE row: the threshold the test panel draws. */
export const triggerThreshold = (rows: readonly TriggerRow[]) => {
  const row = rows.find((r) => r.field === 'VALUE' && isNumberText(r.value));
  return row ? { op: row.op, value: Number(row.value) } : null;
};

// ---- the rule's JSON (condition, action, details) ----

const entryValue = (r: TriggerRow): string | number =>
  (r.field === 'VALUE' || r.field === 'DEVICE_ID') && isNumberText(r.value) ? Number(r.value) : r.value.trim();

/** The trigger entries of a draft (the wizard's `trigger`). */
export const draftTriggers = (d: RuleDraft): TriggerEntry[] =>
  d.trigger.map((r) => ({
    node_type: 'INCOMING_DEVICE_DATA',
    field: { query: r.field },
    op: r.op,
    value: entryValue(r),
  }));

/** The condition without its triggers: the extras where set (duration_s, clear, cooldown_s). */
export function draftExtras(d: RuleDraft): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (d.extras.duration.trim()) c.duration_s = Number(d.extras.duration);
  if (d.extras.clearValue.trim())
    c.clear = [
      {
        node_type: 'INCOMING_DEVICE_DATA',
        field: { query: 'VALUE' },
        op: d.extras.clearOp,
        value: Number(d.extras.clearValue),
      },
    ];
  if (d.extras.cooldown.trim()) c.cooldown_s = Number(d.extras.cooldown);
  return c;
}

/**
 * A task as the action entry holds it: only its channel's fields, the address always, an optional field and the
 * content only when not blank (a function: validateTask above uses it).
 */
function taskJson(t: RuleTask) {
  const c = channelOf(t.type);
  return {
    type: t.type,
    [c.address.field]: t[c.address.field].trim(),
    ...Object.fromEntries(c.optional.flatMap((o) => (t[o.field].trim() ? [[o.field, t[o.field].trim()]] : []))),
    ...(t.content.trim() ? { content: t.content } : {}),
  };
}

/** The action entry of a draft: its name (default the rule's) and the two task groups. */
export const draftAction = (d: RuleDraft) => ({
  name: (d.action.name.trim() || d.info.name.trim()).slice(0, RULE_NAME_MAX),
  ...(d.action.title.trim() ? { title: d.action.title.trim() } : {}),
  new: d.action.new.map(taskJson),
  response: d.action.response.map(taskJson),
});

/** The whole condition (the manual form's JSON): triggers plus the extras. */
export const draftCondition = (d: RuleDraft) => ({ triggers: draftTriggers(d), ...draftExtras(d) });

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
const oneOf = <K extends string>(list: readonly K[], v: unknown, fallback: K): K =>
  list.includes(v as K) ? (v as K) : fallback;

function taskFrom(v: unknown): RuleTask {
  const t = obj(v);
  return {
    type: oneOf(TASK_TYPES, t.type, TASK_TYPES[0]),
    ...fieldsOf((f) => text(t[f])),
    content: text(t.content),
  };
}

const rowFrom = (v: unknown): TriggerRow => {
  const e = obj(v);
  return {
    field: oneOf(TRIGGER_FIELDS, obj(e.field).query, 'VALUE'),
    op: oneOf(TRIGGER_OPS, e.op, '=='),
    value: text(e.value),
  };
};

/** Whether the wizard can show a stored condition without losing parts of it (OR groups, a clear of several entries). */
export function wizardCanEdit(condition: unknown): boolean {
  const c = obj(condition);
  const clear = Array.isArray(c.clear) ? c.clear : [];
  return (
    !Array.isArray(c.groups) &&
    (clear.length === 0 || (clear.length === 1 && obj(obj(clear[0]).field).query === 'VALUE'))
  );
}

/** A stored rule read back into a draft, leniently (a rule written by hand may hold anything). */
export function jsonToDraft(info: RuleInfo, json: { condition: unknown; action: unknown }): RuleDraft {
  const c = obj(json.condition);
  const a = obj(json.action);
  const clear = obj(Array.isArray(c.clear) ? c.clear[0] : undefined);
  return {
    info,
    trigger: (Array.isArray(c.triggers) ? c.triggers : []).map(rowFrom),
    extras: {
      duration: text(c.duration_s),
      clearOp: oneOf(TRIGGER_OPS, clear.op, '<'),
      clearValue: text(clear.value),
      cooldown: text(c.cooldown_s),
    },
    action: {
      name: text(a.name),
      title: text(a.title),
      new: (Array.isArray(a.new) ? a.new : []).map(taskFrom),
      response: (Array.isArray(a.response) ? a.response : []).map(taskFrom),
    },
  };
}
