// What the query editor screen reads from its state: the grouped Query options, the fields to draw with their options,
// the required-field messages in the spec's order, the query data (empty while incomplete) and `canSubmit`.
import {
  EXPRESSION_FIELD,
  NO_SUBPARAM,
  QUERY_FUNCTIONS,
  QUERY_OPTIONS,
  QueryEntity,
  T,
  type QueryEntityInput,
  type QueryFunction,
} from '@sentra/contracts';
import { queryTypeOf, withDevice, type QueryEditorState } from './queryEditor.js';
import {
  configOptions,
  deviceOptions,
  paramOptions,
  sensorOptions,
  subparamOptions,
  subparamsOfPath,
  type Option,
} from './selectionSource.js';

const q = T.dashboards.query;

/** The Query selector: the card kind's options under their group headings (Data, Aggregate, Device Info, Condition). */
export function queryGroups(
  state: QueryEditorState,
): { heading: string; options: { value: QueryFunction; label: string }[] }[] {
  if (state.fixedQueryType) return [];
  return QUERY_OPTIONS[state.kind].map((group) => ({
    heading: q.groups[group.group],
    options: group.options.map((o) => ({ value: o.query, label: QUERY_FUNCTIONS[o.query] })),
  }));
}

export type EditorField =
  | 'query'
  | 'device_id'
  | 'sensor'
  | 'config'
  | 'param'
  | 'subparam'
  | 'param_label'
  | 'subparams'
  | 'subparam_label'
  | 'data1'
  | 'data2'
  | 'data3'
  | 'tags'
  | 'condition'
  | 'resultType'
  | 'true_condition'
  | 'false_condition';

/** The chosen param's subparams ([] for a leaf param or before a param is chosen). */
export function paramChildren(state: QueryEditorState): string[] {
  return subparamsOfPath(state.source, withDevice(state), state);
}

/** The fields to draw, in order: each selector appears once the one above it is chosen. */
export function visibleFields(state: QueryEditorState): EditorField[] {
  const fields: EditorField[] = state.fixedQueryType ? [] : ['query'];
  const type = queryTypeOf(state);
  if (!type) return fields;
  if (type === 'tags') return [...fields, 'tags'];
  if (type === 'condition') return [...fields, 'condition'];
  if (type === 'condition_bool') return [...fields, 'condition', 'resultType', 'true_condition', 'false_condition'];
  if (type === 'none') return fields;
  if (type !== 'device_no_id') fields.push('device_id');
  if (type === 'device_id' || (type !== 'device_no_id' && state.device_id === undefined)) return fields;
  fields.push('sensor');
  if (state.sensor === undefined) return fields;
  fields.push('config');
  if (state.config === undefined) return fields;
  fields.push('param');
  if (state.param === undefined) return fields;
  const children = paramChildren(state);
  if (type === 'three_phase') return [...fields, 'data1', 'data2', 'data3'];
  if (type === 'graph')
    return children.length === 0 ? [...fields, 'param_label'] : [...fields, 'subparams', 'subparam_label'];
  return children.length === 0 ? fields : [...fields, 'subparam'];
}

/** The options of a selector field. */
export function fieldOptions(state: QueryEditorState, field: EditorField): Option[] {
  const device = withDevice(state);
  switch (field) {
    case 'device_id':
      return deviceOptions(state.source);
    case 'sensor':
      return sensorOptions(state.source, device, state);
    case 'config':
      return configOptions(state.source, device, state);
    case 'param':
      return paramOptions(state.source, device, state);
    case 'subparam':
      return subparamOptions(state.source, device, state);
    case 'subparams':
    case 'data1':
    case 'data2':
    case 'data3':
      return paramChildren(state).map((value) => ({ value, label: value }));
    case 'tags':
      return state.source.tags.map((value) => ({ value, label: value }));
    case 'resultType':
      return [
        { value: 'number', label: q.number },
        { value: 'string', label: q.string },
      ];
    default:
      return [];
  }
}

/** The expression field of format, math, bool and if/else queries: its label (Keluaran or Condition) and example hint. */
export function expressionField(state: QueryEditorState): { label: string; hint: string } | undefined {
  const type = queryTypeOf(state);
  if (type !== 'condition' && type !== 'condition_bool') return undefined;
  const kind = (state.query && EXPRESSION_FIELD[state.query]) ?? 'condition';
  if (kind === 'condition') return { label: q.condition, hint: q.conditionHint };
  return { label: q.output, hint: state.query === 'FORMAT' ? q.formatHint : q.mathHint };
}

/** True and False inputs: numeric for Number, text for String. */
export function resultInputType(state: QueryEditorState): 'number' | 'text' {
  return state.resultType === 'number' ? 'number' : 'text';
}

const blank = (s: string | undefined) => s === undefined || s.trim() === '';
const isNumber = (s: string) => !blank(s) && Number.isFinite(Number(s));

/** Required-field messages of the visible fields, in the spec's order (selectors, then condition, true, false). */
export function fieldErrors(state: QueryEditorState): { field: EditorField; message: string }[] {
  const errors: { field: EditorField; message: string }[] = [];
  const missing = (field: EditorField, message: string = T.common.required) => errors.push({ field, message });
  for (const field of visibleFields(state)) {
    if (field === 'query' && state.query === undefined) missing(field);
    if (
      (field === 'device_id' || field === 'sensor' || field === 'config' || field === 'param') &&
      state[field] === undefined
    )
      missing(field);
    // the field shows only for a param with children: without a real subparam it "is incomplete" (spec 02 section 4)
    if (field === 'subparam' && state.subparam === undefined) missing(field);
    else if (field === 'subparam' && state.subparam === NO_SUBPARAM) missing(field, q.objectNeedsSubparam);
    if (field === 'subparams' && state.subparams.length === 0) missing(field);
    if (field === 'subparam_label' && state.labelError) missing(field, state.labelError);
    if (
      (field === 'data1' || field === 'data2' || field === 'data3') &&
      state.phases[Number(field.slice(4)) - 1] === undefined
    )
      missing(field);
    if (field === 'condition' && blank(state.condition)) missing(field, q.conditionRequired);
    if (field === 'true_condition' && !validResult(state, state.true_condition)) missing(field, q.trueRequired);
    if (field === 'false_condition' && !validResult(state, state.false_condition)) missing(field, q.falseRequired);
  }
  return errors;
}

function validResult(state: QueryEditorState, value: string): boolean {
  return state.resultType === 'number' ? isNumber(value) : !blank(value);
}

/**
 * The query data the editor reports: undefined ("empty") until a full valid selection exists — every visible field
 * chosen, a param with children given a subparam, as many labels as subparams, Data 1, 2 and 3 all chosen.
 */
export function queryData(state: QueryEditorState): QueryEntityInput | undefined {
  const queryType = queryTypeOf(state);
  if (!queryType || fieldErrors(state).length > 0) return undefined;
  const entity: Record<string, unknown> = { queryType };
  if (state.query) entity.query = state.query;
  const fields = visibleFields(state);
  for (const key of ['device_id', 'sensor', 'config', 'param'] as const)
    if (fields.includes(key)) entity[key] = state[key];
  if (fields.includes('subparam') && state.subparam !== NO_SUBPARAM) entity.subparam = state.subparam;
  if (fields.includes('param_label') && !blank(state.param_label)) entity.param_label = state.param_label.trim();
  if (fields.includes('subparams')) {
    if (state.subparam_label.length !== state.subparams.length) return undefined;
    entity.subparam = [...state.subparams];
    entity.subparam_label = [...state.subparam_label];
  }
  if (fields.includes('data1')) entity.subparam = [...state.phases];
  if (fields.includes('tags')) entity.tags = [...state.tags];
  if (fields.includes('condition')) entity.condition = state.condition;
  if (fields.includes('true_condition')) {
    const value = (s: string) => (state.resultType === 'number' ? Number(s) : s);
    entity.true_condition = value(state.true_condition);
    entity.false_condition = value(state.false_condition);
  }
  // the stored schema has the last word: what the editor reports, the server accepts
  return QueryEntity.safeParse(entity).success ? (entity as QueryEntityInput) : undefined;
}

/** "The query is reported submittable only when a full valid selection exists." */
export function canSubmit(state: QueryEditorState): boolean {
  return queryData(state) !== undefined;
}
