// Rules (spec 03 sections 2.9, 5, 7, 8, 9): the list, on/off, add (manual or wizard body), edit, remove, and
// "test a rule" (beyond the spec). The rule definition's JSON shape: docs/decisions/rules.md "Rule definition".
import { z } from 'zod';
import type { SysNav } from '../codes.js';
import { id, INSTANT_MAX_MS } from '../models/fields.js';
import {
  Rule,
  RULE_LIMITS,
  RuleAddBody,
  RuleEditBody,
  ruleCategory,
  RuleCondition,
  TriggerEntry,
  checkDefinition,
} from '../models/rule.js';
import { T } from '../text/id.js';
import { defineCall } from './define.js';

/**
 * Who may use rules: the spec grants rule routes with device management (spec 03 section 6 "device manage, device
 * list only, task list" — no rule key of its own), so an application user needs `_device_manage_`.
 */
export const RULE_ACCESS: { navs: readonly SysNav[] } = { navs: ['_device_manage_'] };

export const RuleCode = {
  /** the key is taken by another rule of the application */
  KEY_TAKEN: -12,
} as const;

const page = {
  search: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(10),
};

/** One point of a series answered by rule/test. */
const TestPoint = z.object({ ts: z.number().int(), value: z.union([z.number(), z.string(), z.boolean(), z.null()]) });

export const RuleTestInput = z
  .object({
    category: ruleCategory,
    condition: RuleCondition.optional(),
    trigger: z.array(TriggerEntry).max(RULE_LIMITS.triggersPerGroup).optional(),
    device_id: id,
    hours: z.coerce.number().int().min(1).max(RULE_LIMITS.testHours).default(24),
    /** the end of the window (epoch ms, default now) */
    end: z.coerce.number().int().min(0).max(INSTANT_MAX_MS).optional(),
  })
  .transform((b) => {
    const condition = { ...(b.condition ?? {}) };
    if (b.trigger && b.trigger.length > 0 && !condition.triggers && !condition.groups) condition.triggers = b.trigger;
    return { category: b.category, condition, device_id: b.device_id, hours: b.hours, end: b.end };
  })
  .superRefine((b, ctx) => checkDefinition(b, ctx));

export const rulesContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/rule/list',
    summary: 'Rules of the application, searched by name, one page at a time (default 10)',
    audience: 'member',
    access: RULE_ACCESS,
    input: z.object(page),
    output: z.object({ rules: z.array(Rule), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
  }),
  get: defineCall({
    method: 'GET',
    path: '/service/web/rule/get/id/{id}',
    summary: 'One rule: id, name, key, category, description, condition, action, details',
    audience: 'member',
    access: RULE_ACCESS,
    input: z.object({ id }),
    output: z.object({ data: Rule }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/rule/add',
    summary:
      'Adds a rule: the manual body (condition, action, details) or the wizard body (trigger, condition, action)',
    audience: 'member',
    access: RULE_ACCESS,
    input: RuleAddBody,
    output: z.object({ data: Rule }),
    errors: { [RuleCode.KEY_TAKEN]: T.rules.keyTaken },
  }),
  edit: defineCall({
    method: 'POST',
    path: '/service/web/rule/edit',
    summary: 'Edits a rule (key and category are read-only: a different category is refused)',
    audience: 'member',
    access: RULE_ACCESS,
    input: RuleEditBody,
    output: z.object({ data: Rule }),
  }),
  activate: defineCall({
    method: 'POST',
    path: '/service/web/rule/activate',
    summary: 'Switches a rule on or off (off: its pending durations are dropped, its open tasks stay)',
    audience: 'member',
    access: RULE_ACCESS,
    input: z.object({ id, active: z.boolean({ error: T.common.required }) }),
    output: z.object({ data: Rule }),
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/rule/remove',
    summary: "Removes a rule (its tasks stay, without the rule's response group)",
    audience: 'member',
    access: RULE_ACCESS,
    input: z.object({ id }),
    output: z.object({}),
  }),
  test: defineCall({
    method: 'POST',
    path: '/service/web/rule/test',
    summary:
      "Beyond the spec: when a definition would have fired on a device's stored data of the last N hours; creates nothing",
    audience: 'member',
    access: RULE_ACCESS,
    input: RuleTestInput,
    output: z.object({
      /** the moments the rule would have fired (after duration, clear and cooldown), with the firing point's value */
      firings: z.array(
        z.object({
          ts: z.number().int(),
          value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
          sensor: z.string(),
          configtype: z.string(),
          param: z.string(),
        }),
      ),
      /** the watched points' stored values in the window (at most RULE_TEST_POINTS per series, newest kept) */
      series: z.array(
        z.object({ sensor: z.string(), configtype: z.string(), param: z.string(), points: z.array(TestPoint) }),
      ),
      start: z.number().int(),
      end: z.number().int(),
      truncated: z.boolean(),
    }),
    timeoutMs: 60_000,
  }),
} as const;

/** at most this many points of one series are replayed by rule/test */
export const RULE_TEST_POINTS = 20_000;
