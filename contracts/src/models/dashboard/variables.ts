// Variables as stored in a dashboard's or component's `var` map (spec 02 section 3 "Variable"; section 5 "Variables"):
// a key mapped to a value; objects may carry `_varType` (obj, func, device, filter), strings, integers and arrays don't.
import { z } from 'zod';
import { T } from '../../text/id.js';
import { FUNC_KEY_MIN, FUNC_PREFIX, OBJECT_VARIABLE_QUERY_TYPES } from '../../catalogue/variables.js';
import { FilterVariable } from './filters.js';
import { QueryEntity, TagList, required } from './query.js';

const t = T.dashboards;
const incomplete = t.component.incomplete;
const chosen = z.string({ error: incomplete }).min(1, incomplete);

export const DeviceVariable = z.object({
  _varType: z.literal('device'),
  device_id: z.union([z.string().min(1), z.number().int()], { error: incomplete }),
  sensor: chosen,
  config: chosen,
  param: chosen,
  label: z.string().optional(),
});

/** A function variable (key `func_…`): a query whose result other expressions use as `{func_…}`. */
export const FunctionVariable = z.intersection(z.object({ _varType: z.literal('func') }), QueryEntity);

/** An object variable: free fields (Manual Code), or a conditional/tags query object. */
export const ObjectVariable = z
  .looseObject({
    _varType: z.literal('obj').optional(),
    queryType: z.enum(OBJECT_VARIABLE_QUERY_TYPES, { error: T.common.invalidInput }).optional(),
    tags: TagList.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.queryType !== 'condition' && v.queryType !== 'condition_bool') return;
    // "For a conditional query type, condition, true_condition and false_condition are each required."
    const rules = [
      ['condition', t.query.conditionRequired],
      ['true_condition', t.query.trueRequired],
      ['false_condition', t.query.falseRequired],
    ] as const;
    for (const [field, message] of rules) {
      const value = v[field];
      if (typeof value === 'number') continue;
      if (!required(message).safeParse(value).success) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });

/** "Integer values are whole numbers, min 0." */
export const IntegerVariable = z.number().int(t.variables.integerValue).min(0, t.variables.integerValue);

export type VariableValue =
  | string
  | number
  | unknown[]
  | z.output<typeof DeviceVariable>
  | z.output<typeof FilterVariable>
  | z.output<typeof FunctionVariable>
  | z.output<typeof ObjectVariable>;

/** The schema of one value, chosen by its JSON kind and `_varType`. */
function schemaOf(value: unknown): z.ZodType {
  if (typeof value === 'string') return z.string();
  if (typeof value === 'number') return IntegerVariable;
  if (Array.isArray(value)) return z.array(z.unknown());
  if (typeof value !== 'object' || value === null) return z.never({ error: T.common.invalidInput });
  switch ((value as { _varType?: unknown })._varType) {
    case 'device':
      return DeviceVariable;
    case 'filter':
      return FilterVariable;
    case 'func':
      return FunctionVariable;
    case 'obj':
    case undefined:
      return ObjectVariable;
    default:
      return z.object({ _varType: z.never({ error: T.common.invalidInput }) });
  }
}

/** One variable value; its issues keep their path below the variable's key. */
export const VariableValue = z.unknown().transform((value, ctx): VariableValue => {
  const result = schemaOf(value).safeParse(value);
  if (result.success) return result.data as VariableValue;
  for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: value } as never);
  return z.NEVER;
});

/** Why a variable key is refused, or undefined: no spaces; function keys start with func_ (at least 6 characters). */
export function variableKeyError(key: string, isFunction: boolean): string | undefined {
  if (key.trim() === '') return t.variables.keyRequired;
  if (/\s/.test(key)) return t.variables.keyNoSpaces;
  if (isFunction && !key.startsWith(FUNC_PREFIX)) return t.variables.funcPrefix;
  if (isFunction && key.length < FUNC_KEY_MIN) return t.variables.funcHelp;
  return undefined;
}

function isTyped(value: unknown, varType: string): boolean {
  return typeof value === 'object' && value !== null && (value as { _varType?: unknown })._varType === varType;
}

/** A `var` map: key → value; keys checked with their value's type, a filter's `id` is its key. */
export const VariableMap = z.record(z.string(), VariableValue).superRefine((vars, ctx) => {
  for (const [key, value] of Object.entries(vars)) {
    const keyError = variableKeyError(key, isTyped(value, 'func'));
    if (keyError) ctx.addIssue({ code: 'custom', path: [key], message: keyError });
    if (isTyped(value, 'filter') && (value as { id: string }).id !== key)
      ctx.addIssue({ code: 'custom', path: [key, 'id'], message: T.common.invalidInput });
  }
});
export type VariableMap = Record<string, VariableValue>;
