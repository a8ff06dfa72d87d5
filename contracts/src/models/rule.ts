// The rule entity and its definition (spec 03 sections 3, 5, 9; docs/decisions/rules.md "Rule definition"): one shape
// for the manual form (condition/action/details JSON objects), the editor wizard (info + trigger + action) and what
// the server's rule engine compiles. The server validates with these; the web's forms too.
import { z } from 'zod';
import { T } from '../text/id.js';
import { jsonDocument } from './fields.js';
import { CHANNEL_CODES, CHANNELS, type AnyChannelTask } from '../channels/index.js';

export const RULE_NAME_MAX = 30;
export const RULE_KEY_MAX = 30;
export const RULE_DESCRIPTION_MAX = 128;
/** page sizes of the rule list (spec 03 section 9) */
export const RULE_PAGE_SIZES = [5, 10, 25] as const;
export const RULE_LIMITS = {
  /** trigger entries in one AND group */
  triggersPerGroup: 20,
  /** OR groups */
  groups: 5,
  /** tasks in each of the `new` and `response` groups */
  actionsPerGroup: 10,
  subject: 128,
  content: 2000,
  /** duration, cooldown: at most one day */
  seconds: 86_400,
  /** a text trigger value */
  textValue: 128,
  /**
   * a number compared with (threshold, clear value): at most 15 digits, what a double holds exactly; a longer number
   * would be stored rounded, comparing with another value than the one typed
   */
  valueDigits: 15,
  /** "test a rule": hours of stored data looked at */
  testHours: 168,
} as const;

/** Rule categories (spec 03 section 9): what event a rule listens to. The wizard offers only 11. */
export const RULE_CATEGORIES = {
  11: 'Incoming Device Data',
  12: 'Incoming Device Multiple Data',
  21: 'Device Status V0',
  22: 'Device Status new',
  31: 'Incoming Device State',
  32: 'State Deleted',
  111: 'Device Created',
  112: 'Device Info Updated',
  113: 'Device Sensors Updated',
  119: 'Device Deleted',
  501: 'Subscription Notification',
  10009: 'node-expired',
} as const satisfies Record<number, string>;
export type RuleCategory = keyof typeof RULE_CATEGORIES;
export const RULE_CATEGORY_CODES = Object.keys(RULE_CATEGORIES).map(Number) as RuleCategory[];
/** the categories whose trigger entries select telemetry points and compare their values */
export const TELEMETRY_CATEGORIES: readonly number[] = [11, 12];

export const TRIGGER_OPS = ['==', '>', '>=', '<=', '<'] as const;
export type TriggerOp = (typeof TRIGGER_OPS)[number];
export const TRIGGER_FIELDS = ['DEVICE_ID', 'SENSOR', 'CONFIG', 'PARAM', 'VALUE'] as const;
export type TriggerField = (typeof TRIGGER_FIELDS)[number];
/** fields that select what a rule watches (only `==`); VALUE compares */
export const SELECTOR_FIELDS: readonly TriggerField[] = ['DEVICE_ID', 'SENSOR', 'CONFIG', 'PARAM'];
/** the task types are the notification channels (contracts/src/channels/), in their order */
export const TASK_TYPES = CHANNEL_CODES;
export type TaskType = (typeof TASK_TYPES)[number];

/**
 * The template language of task titles and message texts: `{{name}}` is replaced by the event's value, text only
 * (no expressions, no HTML). Unknown names are refused when the rule is saved.
 */
export const TEMPLATE_VARS = [
  'rule.name',
  'rule.key',
  'app.name',
  'device.id',
  'device.name',
  'device.serial',
  'sensor',
  'config',
  'param',
  'value',
  'time',
  'event',
  'task.id',
  'task.title',
  'task.status',
  'task.occurrences',
] as const;
export type TemplateVar = (typeof TEMPLATE_VARS)[number];
const TEMPLATE_RE = /\{\{\s*([^{}]*?)\s*\}\}/g;
export function templateNames(text: string): string[] {
  return [...text.matchAll(TEMPLATE_RE)].map((m) => m[1]!);
}
/** Fills `{{name}}` with `vars[name]` (unknown or absent: empty). */
export function renderTemplate(
  text: string,
  vars: Partial<Record<TemplateVar, string | number | null | undefined>>,
): string {
  return text.replace(TEMPLATE_RE, (_, name: string) => {
    const v = vars[name as TemplateVar];
    return v === undefined || v === null ? '' : String(v);
  });
}
const template = (max: number) =>
  z
    .string()
    .max(max, T.common.max(max))
    .superRefine((s, ctx) => {
      for (const name of templateNames(s)) {
        if (!(TEMPLATE_VARS as readonly string[]).includes(name))
          ctx.addIssue({ code: 'custom', message: T.rules.templateUnknown(name) });
      }
    });

/** The address rules of the task types are the notifications module's (one rule for the forms, the rules and the outbox). */

/** the largest number a trigger compares with: 15 nines (RULE_LIMITS.valueDigits) */
export const RULE_VALUE_MAX = 10 ** RULE_LIMITS.valueDigits - 1;

/** The significant digits a number typed as text holds (sign, decimal point, exponent and leading zeros left out). */
export function numberTextDigits(text: string): number {
  const mantissa = text.trim().replace(/^[-+]/, '').split(/e/i)[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/, '').length;
}

/** A trigger entry (spec 03 section 3): `{ node_type, field: { query }, op, value }`. */
export const TriggerEntry = z.object({
  node_type: z.literal('INCOMING_DEVICE_DATA', { error: T.rules.nodeTypeUnknown }).default('INCOMING_DEVICE_DATA'),
  field: z.object({ query: z.enum(TRIGGER_FIELDS, { error: T.rules.fieldUnknown }) }),
  op: z.enum(TRIGGER_OPS, { error: T.rules.opUnknown }),
  value: z.union(
    [
      z.number().refine((v) => Math.abs(v) <= RULE_VALUE_MAX, T.rules.valueTooLong(RULE_LIMITS.valueDigits)),
      z.string().max(RULE_LIMITS.textValue, T.common.max(RULE_LIMITS.textValue)),
      z.boolean(),
    ],
    { error: T.common.required },
  ),
});
export type TriggerEntry = z.output<typeof TriggerEntry>;

const triggerList = z
  .array(TriggerEntry)
  .min(1, T.rules.triggersRequired)
  .max(RULE_LIMITS.triggersPerGroup, T.common.max(RULE_LIMITS.triggersPerGroup));
const seconds = z.number().int().min(0).max(RULE_LIMITS.seconds);

/**
 * A rule's condition: `triggers` (all must hold) or `groups` (OR of AND groups), optional `duration_s` (the match must
 * hold that long before the rule fires), optional `clear` (the match ends only when these all hold; default: when the
 * triggers stop holding), optional `cooldown_s` (no new firing of the same rule and device this long after the last).
 */
export const RuleCondition = z
  .object({
    triggers: triggerList.optional(),
    groups: z
      .array(triggerList)
      .min(1, T.rules.triggersRequired)
      .max(RULE_LIMITS.groups, T.common.max(RULE_LIMITS.groups))
      .optional(),
    duration_s: seconds.optional(),
    clear: triggerList.optional(),
    cooldown_s: seconds.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.triggers && c.groups) ctx.addIssue({ code: 'custom', path: ['groups'], message: T.rules.oneGroupForm });
  });
export type RuleCondition = z.output<typeof RuleCondition>;

/**
 * One task of an action group: a message through one of the channels (EMAIL, WHATSAPP, SMS, or a WEBHOOK POST beyond
 * the spec), its fields from the channel's descriptor: the address, the optional one-line fields (an email's subject)
 * and the content. A subject or content left out or blank is the default one (T.rules.defaultSubject, defaultContent:
 * what fired, where, the value and when), never an empty message.
 */
const channelTask = (c: (typeof CHANNELS)[number]) =>
  z.object({
    type: z.literal(c.code),
    [c.address.field]: c.address.schema,
    ...Object.fromEntries(c.optional.map((o) => [o.field, template(RULE_LIMITS.subject).optional()])),
    content: template(RULE_LIMITS.content).optional(),
  });
const lastJoined = (codes: readonly string[]) => `${codes.slice(0, -1).join(', ')} atau ${codes.at(-1)}`;
export type ActionTask = AnyChannelTask;
export const ActionTask = z.discriminatedUnion(
  'type',
  CHANNELS.map(channelTask) as unknown as [ReturnType<typeof channelTask>, ...ReturnType<typeof channelTask>[]],
  { error: `type harus ${lastJoined(CHANNEL_CODES)}` },
) as unknown as z.ZodType<ActionTask>;

const actionGroup = z
  .array(ActionTask)
  .max(RULE_LIMITS.actionsPerGroup, T.common.max(RULE_LIMITS.actionsPerGroup))
  .default([]);

/**
 * An action entry (spec 03 section 3): `name`, the `new` group (when the rule fires: the task is created and these
 * messages queued) and the `response` group (when the task's status changes). `title` and `description` are the
 * task's (templates; default the rule's name and description).
 */
export const ActionEntry = z.object({
  name: z.string().max(RULE_NAME_MAX, T.common.max(RULE_NAME_MAX)).optional(),
  title: template(64).optional(),
  description: template(RULE_DESCRIPTION_MAX).optional(),
  new: actionGroup,
  response: actionGroup,
});
export type ActionEntry = z.output<typeof ActionEntry>;

/** Free-form details kept with the rule (the spec's `details` object); the engine reads none of it. */
export const RuleDetails = z.record(z.string(), z.unknown());

const ruleName = z
  .string({ error: T.common.required })
  .trim()
  .min(1, T.common.required)
  .max(RULE_NAME_MAX, T.common.max(RULE_NAME_MAX));
export const ruleKey = z
  .string()
  .max(RULE_KEY_MAX, T.common.max(RULE_KEY_MAX))
  .regex(/^[a-z0-9_]*$/, T.rules.keyPattern);
const ruleDescription = z.string().max(RULE_DESCRIPTION_MAX, T.common.max(RULE_DESCRIPTION_MAX)).default('');
export const ruleCategory = z.coerce
  .number({ error: T.common.required })
  .int()
  .refine((n) => (RULE_CATEGORY_CODES as number[]).includes(n), T.rules.categoryUnknown);

/** The manual form's JSON objects (a JSON text or a JSON value), then the definition's rules with their paths. */
const conditionDoc = jsonDocument(T.rules.conditionJson).pipe(RuleCondition);
const actionDoc = jsonDocument(T.rules.actionJson).pipe(ActionEntry);
const detailsDoc = jsonDocument(T.rules.detailsJson).pipe(RuleDetails);

/** The rule's info fields (the wizard's Info step, and the manual form's). */
export const RuleInfo = z.object({
  name: ruleName,
  category: ruleCategory,
  description: ruleDescription,
});

/**
 * A rule body as either form sends it, before the category rules below:
 * - manual: `condition`, `action`, `details` (JSON objects or JSON texts);
 * - wizard: `trigger` (the trigger entries) plus `condition` (without triggers: duration/clear/cooldown) and `action`.
 * Both become the canonical definition `{ category, condition: { triggers | groups, ... }, action, details }`.
 */
export const RuleBodyFields = RuleInfo.extend({
  condition: conditionDoc.optional(),
  trigger: z
    .array(TriggerEntry)
    .max(RULE_LIMITS.triggersPerGroup, T.common.max(RULE_LIMITS.triggersPerGroup))
    .optional(),
  action: actionDoc,
  details: detailsDoc.optional(),
});

type RuleBodyInput = z.output<typeof RuleBodyFields>;

/** Either form's body → the canonical definition (`condition` holds the triggers; `details` defaults to {}). */
function normalise<B extends RuleBodyInput>(b: B, ctx: z.RefinementCtx) {
  const condition: RuleCondition = { ...(b.condition ?? {}) };
  if (b.trigger !== undefined) {
    if (condition.triggers || condition.groups) {
      ctx.addIssue({ code: 'custom', path: ['trigger'], message: T.rules.oneGroupForm });
      return z.NEVER;
    }
    if (b.trigger.length > 0) condition.triggers = b.trigger;
  } else if (b.condition === undefined) {
    ctx.addIssue({ code: 'custom', path: ['condition'], message: T.rules.conditionJson });
    return z.NEVER;
  }
  const { trigger: _t, condition: _c, details, ...rest } = b;
  return { ...rest, condition, details: details ?? {} };
}

/** rule/add's body: either form plus the optional `key`. */
export const RuleAddBody = RuleBodyFields.extend({ key: ruleKey.optional() })
  .transform(normalise)
  .superRefine((b, ctx) => checkDefinition(b, ctx));
/** rule/edit's body: either form plus the rule's `id` (key read-only, so not sent). */
export const RuleEditBody = RuleBodyFields.extend({
  id: z.coerce.number({ error: T.common.required }).int().positive(),
})
  .transform(normalise)
  .superRefine((b, ctx) => checkDefinition(b, ctx));

export interface RuleDefinition {
  category: number;
  condition: RuleCondition;
  action?: ActionEntry;
}

/** The AND groups of a condition (`triggers` is one group). */
export const groupsOf = (c: RuleCondition): TriggerEntry[][] => c.groups ?? (c.triggers ? [c.triggers] : []);

/**
 * The category rules of a definition (docs/decisions/rules.md): selectors (DEVICE_ID, SENSOR, CONFIG, PARAM) only with
 * `==`; DEVICE_ID a device id; ordering operators need numbers; telemetry categories need a VALUE entry in every
 * group, and category 11 watches one point per group (one SENSOR/CONFIG/PARAM selection before its VALUE entries).
 */
export function checkDefinition(d: RuleDefinition, ctx: z.RefinementCtx): void {
  const telemetry = TELEMETRY_CATEGORIES.includes(d.category);
  const gs = groupsOf(d.condition);
  const base = d.condition.groups ? ['condition', 'groups'] : ['condition', 'triggers'];
  if (telemetry && gs.length === 0)
    ctx.addIssue({ code: 'custom', path: ['condition', 'triggers'], message: T.rules.triggersRequired });
  const checkList = (list: TriggerEntry[], path: (string | number)[], needValue: boolean) => {
    let clauses = 0;
    let inValue = false;
    let values = 0;
    list.forEach((t, i) => {
      const q = t.field.query;
      if (q !== 'VALUE' && t.op !== '==')
        ctx.addIssue({ code: 'custom', path: [...path, i, 'op'], message: T.rules.selectorEquals });
      if (
        q === 'DEVICE_ID' &&
        !(Number.isSafeInteger(Number(t.value)) && Number(t.value) > 0 && typeof t.value !== 'boolean')
      ) {
        ctx.addIssue({ code: 'custom', path: [...path, i, 'value'], message: T.rules.deviceIdNumber });
      }
      if (
        q === 'VALUE' &&
        t.op !== '==' &&
        (typeof t.value === 'boolean' || !Number.isFinite(Number(t.value)) || t.value === '')
      ) {
        ctx.addIssue({ code: 'custom', path: [...path, i, 'value'], message: T.rules.valueNumber });
      }
      if (q === 'VALUE') {
        values++;
        inValue = true;
      } else if (q !== 'DEVICE_ID') {
        if (inValue || clauses === 0) clauses++;
        inValue = false;
      }
    });
    if (needValue && values === 0) ctx.addIssue({ code: 'custom', path, message: T.rules.valueRequired });
    if (d.category === 11 && clauses > 1) ctx.addIssue({ code: 'custom', path, message: T.rules.oneClause });
  };
  gs.forEach((g, gi) => checkList(g, d.condition.groups ? [...base, gi] : base, telemetry));
  if (d.condition.clear) checkList(d.condition.clear, ['condition', 'clear'], false);
}

/** A stored rule as the calls answer it (rule/get/id/{id}, rule/list). */
export const Rule = z.object({
  id: z.number().int(),
  name: z.string(),
  key: z.string().nullable(),
  category: z.number().int(),
  category_text: z.string(),
  description: z.string(),
  condition: RuleCondition,
  action: ActionEntry,
  details: z.record(z.string(), z.unknown()),
  active: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Rule = z.output<typeof Rule>;
