// The card data-query editor without React (spec 02 section 2 "Card data-query editor", section 4 "Query editor
// cascade", section 5 "Query editor"): a pure reducer (state + event → state) and the selectors the screen draws.
import {
  NO_SUBPARAM,
  queryOption,
  subparamLabelError,
  T,
  type QueryEntityInput,
  type QueryFunction,
  type QueryKind,
  type QueryType,
} from '@sentra/contracts';
import { EMPTY_SOURCE, type SelectionSource } from './selectionSource.js';

export type ResultType = 'number' | 'string';
type Phases = [string | undefined, string | undefined, string | undefined];

export interface QueryEditorState {
  kind: QueryKind;
  /** "A Query selector appears unless a fixed query type is supplied." */
  fixedQueryType?: QueryType;
  source: SelectionSource;
  query?: QueryFunction;
  device_id?: string;
  sensor?: string;
  config?: string;
  param?: string;
  /** the single Sub Param choice; '_no_subparam_' means none */
  subparam?: string;
  /** graph: the Subparam multi-select */
  subparams: string[];
  /** three-phase: Data 1, Data 2, Data 3 */
  phases: Phases;
  /** graph on a param without children: the Label field */
  param_label: string;
  subparam_label: string[];
  /** why the last Subparam Label was refused */
  labelError?: string;
  tags: string[];
  condition: string;
  /** the Number/String toggle of the condition query */
  resultType: ResultType;
  true_condition: string;
  false_condition: string;
}

export type QueryEditorEvent =
  | { type: 'sourceLoaded'; source: Partial<SelectionSource> }
  | { type: 'chooseQuery'; query: QueryFunction }
  | { type: 'chooseDevice'; device_id: string }
  | { type: 'chooseSensor'; sensor: string }
  | { type: 'chooseConfig'; config: string }
  | { type: 'chooseParam'; param: string }
  | { type: 'chooseSubparam'; subparam: string }
  | { type: 'chooseSubparams'; subparams: string[] }
  | { type: 'choosePhase'; phase: 0 | 1 | 2; subparam: string }
  | { type: 'changeParamLabel'; label: string }
  | { type: 'addSubparamLabel'; label: string }
  | { type: 'removeSubparamLabel'; index: number }
  | { type: 'chooseTags'; tags: string[] }
  | { type: 'changeCondition'; condition: string }
  | { type: 'toggleResultType'; resultType: ResultType }
  | { type: 'changeTrue'; value: string }
  | { type: 'changeFalse'; value: string };

/** What each selection resets: "Changing the device resets sensor and below…". */
const BELOW_PARAM = {
  subparam: undefined,
  subparams: [] as string[],
  phases: [undefined, undefined, undefined] as Phases,
  param_label: '',
  subparam_label: [] as string[],
  labelError: undefined,
};
const BELOW_CONFIG = { param: undefined, ...BELOW_PARAM };
const BELOW_SENSOR = { config: undefined, ...BELOW_CONFIG };
const BELOW_DEVICE = { sensor: undefined, ...BELOW_SENSOR };
const QUERY_VALUES = {
  device_id: undefined,
  ...BELOW_DEVICE,
  tags: [] as string[],
  condition: '',
  resultType: 'number' as ResultType,
  true_condition: '',
  false_condition: '',
};

export function initialQueryEditor(kind: QueryKind, fixedQueryType?: QueryType): QueryEditorState {
  return { kind, fixedQueryType, source: EMPTY_SOURCE, query: undefined, ...QUERY_VALUES };
}

/** The editor prefilled from a stored query (editing a card); the tree arrives later with 'sourceLoaded'. */
export function queryEditorFrom(
  entity: QueryEntityInput,
  kind: QueryKind,
  fixedQueryType?: QueryType,
  source: SelectionSource = EMPTY_SOURCE,
): QueryEditorState {
  const state = { ...initialQueryEditor(kind, fixedQueryType), source, query: entity.query };
  const list = Array.isArray(entity.subparam) ? entity.subparam : [];
  const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  return {
    ...state,
    device_id: entity.device_id === undefined ? undefined : String(entity.device_id),
    sensor: entity.sensor,
    config: entity.config,
    param: entity.param,
    subparam: typeof entity.subparam === 'string' ? entity.subparam : undefined,
    subparams: entity.queryType === 'graph' ? [...list] : [],
    phases: entity.queryType === 'three_phase' ? [list[0], list[1], list[2]] : state.phases,
    param_label: entity.param_label ?? '',
    subparam_label: [...(entity.subparam_label ?? [])],
    tags: [...(entity.tags ?? [])],
    condition: entity.condition ?? '',
    resultType: typeof entity.true_condition === 'string' ? 'string' : 'number',
    true_condition: text(entity.true_condition),
    false_condition: text(entity.false_condition),
  };
}

export function queryEditorReducer(state: QueryEditorState, event: QueryEditorEvent): QueryEditorState {
  switch (event.type) {
    case 'sourceLoaded':
      return { ...state, source: { ...state.source, ...event.source } };
    case 'chooseQuery':
      // "Changing the query function resets device, sensor, config, param, subparam, tags, condition and true/false values."
      return event.query === state.query ? state : { ...state, query: event.query, ...QUERY_VALUES };
    case 'chooseDevice':
      return event.device_id === state.device_id ? state : { ...state, device_id: event.device_id, ...BELOW_DEVICE };
    case 'chooseSensor':
      return event.sensor === state.sensor ? state : { ...state, sensor: event.sensor, ...BELOW_SENSOR };
    case 'chooseConfig':
      return event.config === state.config ? state : { ...state, config: event.config, ...BELOW_CONFIG };
    case 'chooseParam':
      return event.param === state.param ? state : { ...state, param: event.param, ...BELOW_PARAM };
    case 'chooseSubparam':
      return { ...state, subparam: event.subparam };
    case 'chooseSubparams':
      return { ...state, subparams: [...event.subparams], labelError: undefined };
    case 'choosePhase': {
      const phases: Phases = [...state.phases];
      phases[event.phase] = event.subparam;
      return { ...state, phases };
    }
    case 'changeParamLabel':
      return { ...state, param_label: event.label };
    case 'addSubparamLabel':
      return addSubparamLabel(state, event.label);
    case 'removeSubparamLabel':
      return {
        ...state,
        subparam_label: state.subparam_label.filter((_, i) => i !== event.index),
        labelError: undefined,
      };
    case 'chooseTags':
      return { ...state, tags: event.tags.filter((tag) => tag.trim() !== '') };
    case 'changeCondition':
      return { ...state, condition: event.condition };
    case 'toggleResultType':
      // "a change clears the true and false values and reports incomplete"
      return event.resultType === state.resultType
        ? state
        : { ...state, resultType: event.resultType, true_condition: '', false_condition: '' };
    case 'changeTrue':
      return { ...state, true_condition: event.value };
    case 'changeFalse':
      return { ...state, false_condition: event.value };
  }
}

/** "The maximum number of labels equals the number of selected subparams"; then the spec's messages in order; unique. */
function addSubparamLabel(state: QueryEditorState, label: string): QueryEditorState {
  if (labelsFull(state)) return { ...state, labelError: undefined };
  const ruleError = subparamLabelError(label);
  if (ruleError) return { ...state, labelError: ruleError };
  if (state.subparam_label.includes(label)) return { ...state, labelError: T.dashboards.query.labelTooltip };
  return { ...state, subparam_label: [...state.subparam_label, label], labelError: undefined };
}

/** No more Subparam Labels than selected subparams: the tag input takes no more. */
export function labelsFull(state: QueryEditorState): boolean {
  return state.subparam_label.length >= state.subparams.length;
}

/** The query type in effect: the fixed one, or the chosen function's for this card kind. */
export function queryTypeOf(state: QueryEditorState): QueryType | undefined {
  if (state.fixedQueryType) return state.fixedQueryType;
  return state.query === undefined ? undefined : queryOption(state.kind, state.query)?.queryType;
}

/** Does the query type walk the device tree (else the sensors tree, for `device_no_id`)? */
export function withDevice(state: QueryEditorState): boolean {
  return queryTypeOf(state) !== 'device_no_id';
}

export { NO_SUBPARAM };
