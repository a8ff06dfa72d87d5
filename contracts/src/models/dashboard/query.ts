// The query entity a card or function variable stores (spec 02 section 3 "Query entity"), with the completeness rules
// of section 4 "Query editor cascade" and the subparam label rules of section 5 "Query editor".
import { z } from 'zod';
import { T } from '../../text/id.js';
import { NO_SUBPARAM, QUERY_FUNCTIONS, type QueryFunction } from '../../catalogue/queries.js';
import { SUBPARAM_LABEL_MAX, SUBPARAM_LABEL_PATTERN } from '../../catalogue/limits.js';

const t = T.dashboards;

/**
 * Why a subparam label is refused, checked in the spec's order: a digit first, more than 16 characters, then any
 * other mismatch (a capital first letter, an invalid character). Undefined when the label is acceptable.
 */
export function subparamLabelError(label: string): string | undefined {
  if (/^[0-9]/.test(label)) return t.query.labelDigitStart;
  if (label.length > SUBPARAM_LABEL_MAX) return t.query.labelTooLong;
  if (!SUBPARAM_LABEL_PATTERN.test(label)) return t.query.labelCapitalStart;
  return undefined;
}

/** "Empty tags are dropped." */
export const TagList = z.array(z.string()).transform((tags) => tags.filter((tag) => tag.trim() !== ''));

const incomplete = t.component.incomplete;
/** A selector's choice: required, non-empty. */
const chosen = z.string({ error: incomplete }).min(1, incomplete);
const chosenSubparam = chosen.refine((s) => s !== NO_SUBPARAM, incomplete);
/** Device ids are the tree's keys (strings) or numeric ids. */
const deviceId = z.union([z.string().min(1), z.number().int()], { error: incomplete });
const conditionValue = z.union([z.string(), z.number()]);
/** A required expression or value: not absent, not blank. */
export function required(message: string) {
  return z.string({ error: message }).refine((s) => s.trim() !== '', message);
}

const QueryFunctionCode = z.enum(Object.keys(QUERY_FUNCTIONS) as [QueryFunction, ...QueryFunction[]], {
  error: t.component.queryNotOffered,
});

/** Every field of the entity, optional; each query type below requires its own. */
const QueryBase = z.object({
  query: QueryFunctionCode.optional(),
  device_id: deviceId.optional(),
  sensor: z.string().optional(),
  config: z.string().optional(),
  param: z.string().optional(),
  param_label: z.string().optional(),
  subparam: z.union([z.string(), z.array(z.string())]).optional(),
  subparam_label: z.array(z.string()).optional(),
  tags: TagList.optional(),
  condition: z.string().optional(),
  true_condition: conditionValue.optional(),
  false_condition: conditionValue.optional(),
});

const seriesOfDevice = { device_id: deviceId, sensor: chosen, config: chosen, param: chosen };

const GraphQuery = QueryBase.extend({
  queryType: z.literal('graph'),
  ...seriesOfDevice,
  subparam: z.union([chosenSubparam, z.array(chosenSubparam).min(1, incomplete)]).optional(),
}).superRefine((q, ctx) => {
  if (!Array.isArray(q.subparam)) return;
  const labels = q.subparam_label ?? [];
  // "incomplete when the number of labels differs from the number of selected subparams"
  if (labels.length !== q.subparam.length)
    ctx.addIssue({ code: 'custom', path: ['subparam_label'], message: incomplete });
  labels.forEach((label, i) => {
    const error = subparamLabelError(label);
    if (error) ctx.addIssue({ code: 'custom', path: ['subparam_label', i], message: error });
    else if (labels.indexOf(label) !== i)
      ctx.addIssue({ code: 'custom', path: ['subparam_label', i], message: t.query.labelTooltip });
  });
});

/**
 * The series names a query's chart shows (its rows' keys): each subparam's label (else the subparam), one subparam's
 * param label (else the subparam), or the param's label (else the param). A param chosen whole is named by the
 * subparams the device has, which only the gateway knows.
 */
export function querySeriesLabels(q: {
  param?: string;
  param_label?: string;
  subparam?: string | string[];
  subparam_label?: string[];
}): string[] {
  if (Array.isArray(q.subparam)) return q.subparam.map((sub, i) => q.subparam_label?.[i] ?? sub);
  if (typeof q.subparam === 'string' && q.subparam !== '') return [q.param_label || q.subparam];
  return [q.param_label || q.param || ''];
}

export const QueryEntity = z.discriminatedUnion(
  'queryType',
  [
    QueryBase.extend({ queryType: z.literal('device_id'), device_id: deviceId }),
    QueryBase.extend({ queryType: z.literal('device'), ...seriesOfDevice, subparam: chosenSubparam.optional() }),
    GraphQuery,
    QueryBase.extend({
      queryType: z.literal('three_phase'),
      ...seriesOfDevice,
      // "complete only when Data 1, 2 and 3 are all chosen. The subparam is then the list of the three."
      subparam: z.array(chosenSubparam, { error: incomplete }).length(3, incomplete),
    }),
    QueryBase.extend({
      queryType: z.literal('device_no_id'),
      sensor: chosen,
      config: chosen,
      param: chosen,
      subparam: chosenSubparam.optional(),
    }),
    QueryBase.extend({ queryType: z.literal('tags'), tags: TagList.default([]) }),
    QueryBase.extend({ queryType: z.literal('none') }),
    QueryBase.extend({ queryType: z.literal('condition'), condition: required(t.query.conditionRequired) }),
    QueryBase.extend({
      queryType: z.literal('condition_bool'),
      condition: required(t.query.conditionRequired),
      true_condition: z.union([required(t.query.trueRequired), z.number()], { error: t.query.trueRequired }),
      false_condition: z.union([required(t.query.falseRequired), z.number()], { error: t.query.falseRequired }),
    }),
  ],
  { error: incomplete },
);
export type QueryEntity = z.output<typeof QueryEntity>;
export type QueryEntityInput = z.input<typeof QueryEntity>;
