// The 'Tambah Variabel Baru' dialog without React (spec 02 section 4 "Add-variable dialog", section 5 "Variables"):
// type, key and value with their cascades, the overwrite confirmation, and the variable it saves.
import {
  AUTO_PERIOD,
  FUNC_DEFAULT_KEY,
  FUNC_PREFIX,
  T,
  VariableMap,
  variableKeyError,
  type FilterType,
  type PeriodicRangeCode,
  type VariableType,
  type VariableValue,
} from '@sentra/contracts';
import { initialQueryEditor, queryEditorReducer, type QueryEditorEvent, type QueryEditorState } from './queryEditor.js';
import { queryData } from './queryEditorView.js';
import { EMPTY_SOURCE, type SelectionSource } from './selectionSource.js';

const v = T.dashboards.variables;

export interface DeviceChoice {
  device_id?: string;
  sensor?: string;
  config?: string;
  param?: string;
  label: string;
}
export interface FilterChoice {
  name: string;
  type?: FilterType;
  range?: PeriodicRangeCode;
  range_param?: number;
  period?: string;
  interval?: number;
  /** N Data as typed */
  ndata: string;
  is_default: boolean;
}
export type ObjectQueryType = 'condition' | 'condition_bool' | 'tags';
export interface ObjectChoice {
  /** "Manual Code mode takes a free-text object" (code), or the query object form */
  mode: 'code' | 'form';
  queryType?: ObjectQueryType;
  condition: string;
  true_condition: string;
  false_condition: string;
  tags: string[];
}

export interface VariableDialogState {
  open: boolean;
  scope: 'global' | 'local';
  /** keys of the variable set being edited: a duplicate asks before overwriting */
  existingKeys: string[];
  source: SelectionSource;
  varType?: VariableType;
  key: string;
  /** the typed value of str, int, arr and obj (code) variables */
  text: string;
  object: ObjectChoice;
  device: DeviceChoice;
  filter: FilterChoice;
  func: QueryEditorState;
  confirmingOverwrite: boolean;
  /** the variable the last save produced, for the owner to store */
  saved?: { key: string; value: VariableValue };
}

export type VariableDialogEvent =
  | { type: 'open'; scope: 'global' | 'local'; existingKeys: string[]; source?: SelectionSource }
  | { type: 'cancel' }
  | { type: 'chooseType'; varType: VariableType }
  | { type: 'changeKey'; key: string }
  | { type: 'changeText'; text: string }
  | { type: 'changeObject'; object: Partial<ObjectChoice> }
  | { type: 'chooseDevice'; device_id: string }
  | { type: 'chooseSensor'; sensor: string }
  | { type: 'chooseConfig'; config: string }
  | { type: 'chooseParam'; param: string }
  | { type: 'changeDeviceLabel'; label: string }
  | { type: 'changeFilterName'; name: string }
  | { type: 'chooseFilterType'; filterType: FilterType }
  | { type: 'chooseRange'; range: PeriodicRangeCode }
  | { type: 'chooseRangeParam'; range_param: number }
  | { type: 'choosePeriod'; period: string }
  | { type: 'chooseInterval'; interval: number }
  | { type: 'changeNdata'; ndata: string }
  | { type: 'toggleDefault'; is_default: boolean }
  | { type: 'func'; event: QueryEditorEvent }
  | { type: 'save' }
  | { type: 'confirmOverwrite' }
  | { type: 'cancelOverwrite' };

const EMPTY_OBJECT: ObjectChoice = { mode: 'code', condition: '', true_condition: '', false_condition: '', tags: [] };
const EMPTY_DEVICE: DeviceChoice = { label: '' };
const EMPTY_FILTER: FilterChoice = { name: '', ndata: '', is_default: false };
const CLEAR_FILTER_RANGE = { range: undefined, range_param: undefined, period: undefined, interval: undefined };

/** The value fields every type change resets ("A type change resets the value and submittability"). */
function emptyValue(source: SelectionSource) {
  const func = queryEditorReducer(initialQueryEditor('single'), { type: 'sourceLoaded', source });
  return { text: '', object: EMPTY_OBJECT, device: EMPTY_DEVICE, filter: EMPTY_FILTER, func };
}

export function initialVariableDialog(): VariableDialogState {
  return {
    open: false,
    scope: 'local',
    existingKeys: [],
    source: EMPTY_SOURCE,
    key: '',
    confirmingOverwrite: false,
    ...emptyValue(EMPTY_SOURCE),
  };
}

/** "Choosing 'func' prefixes the key with func_ (or sets func_a if the key is empty). Leaving 'func' strips the prefix." */
function keyForType(key: string, from: VariableType | undefined, to: VariableType): string {
  if (to === 'func' && from !== 'func')
    return key === '' ? FUNC_DEFAULT_KEY : key.startsWith(FUNC_PREFIX) ? key : FUNC_PREFIX + key;
  if (from === 'func' && to !== 'func') return key.startsWith(FUNC_PREFIX) ? key.slice(FUNC_PREFIX.length) : key;
  return key;
}

export function variableDialogReducer(state: VariableDialogState, event: VariableDialogEvent): VariableDialogState {
  const device = (patch: Partial<DeviceChoice>) => ({ ...state, device: { ...state.device, ...patch } });
  const filter = (patch: Partial<FilterChoice>) => ({ ...state, filter: { ...state.filter, ...patch } });
  switch (event.type) {
    case 'open': {
      const source = event.source ?? state.source;
      return {
        ...initialVariableDialog(),
        ...emptyValue(source),
        open: true,
        scope: event.scope,
        existingKeys: [...event.existingKeys],
        source,
      };
    }
    case 'cancel':
      // "The dialog closes on save or cancel and clears its state."
      return initialVariableDialog();
    case 'chooseType':
      if (event.varType === state.varType) return state;
      return {
        ...state,
        ...emptyValue(state.source),
        varType: event.varType,
        key: keyForType(state.key, state.varType, event.varType),
      };
    case 'changeKey':
      return { ...state, key: event.key };
    case 'changeText':
      return { ...state, text: event.text };
    case 'changeObject':
      return { ...state, object: { ...state.object, ...event.object } };
    // "a new device clears sensor, config, param. A new sensor clears config, param. A new config clears param."
    case 'chooseDevice':
      return device({ device_id: event.device_id, sensor: undefined, config: undefined, param: undefined });
    case 'chooseSensor':
      return device({ sensor: event.sensor, config: undefined, param: undefined });
    case 'chooseConfig':
      return device({ config: event.config, param: undefined });
    case 'chooseParam':
      return device({ param: event.param });
    case 'changeDeviceLabel':
      return device({ label: event.label });
    // "Filter type change clears range, period, interval and ndata. A range change clears period and interval.
    // A period change clears interval."
    case 'changeFilterName':
      return filter({ name: event.name });
    case 'chooseFilterType':
      return filter({ type: event.filterType, ...CLEAR_FILTER_RANGE, ndata: '' });
    case 'chooseRange':
      return filter({ ...CLEAR_FILTER_RANGE, range: event.range });
    case 'chooseRangeParam':
      // the allowed intervals depend on the parameter (LAST_HOUR 1 versus 3, 6, 12)
      return filter({ range_param: event.range_param, period: undefined, interval: undefined });
    case 'choosePeriod':
      return filter({ period: event.period, interval: undefined });
    case 'chooseInterval':
      return filter({ interval: event.interval });
    case 'changeNdata':
      return filter({ ndata: event.ndata });
    case 'toggleDefault':
      return filter({ is_default: event.is_default });
    case 'func':
      return { ...state, func: queryEditorReducer(state.func, event.event) };
    case 'save':
      if (!canSave(state)) return state;
      // "A duplicate key asks for confirmation, and on yes the old variable is overwritten."
      if (state.existingKeys.includes(state.key)) return { ...state, confirmingOverwrite: true };
      return saved(state);
    case 'confirmOverwrite':
      return state.confirmingOverwrite ? saved(state) : state;
    case 'cancelOverwrite':
      return { ...state, confirmingOverwrite: false };
  }
}

function saved(state: VariableDialogState): VariableDialogState {
  return { ...initialVariableDialog(), saved: { key: state.key, value: variableValue(state)! } };
}

/** The key's message: no spaces; a function key starts with func_ and has at least 6 characters. */
export function keyError(state: VariableDialogState): string | undefined {
  if (state.key === '') return undefined;
  return variableKeyError(state.key, state.varType === 'func');
}
/** The live help under a function key. */
export function keyHelp(state: VariableDialogState): string | undefined {
  return state.varType === 'func' ? v.funcHelp : undefined;
}

type Parsed = { value?: VariableValue; error?: string };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The typed value read into the variable it stores; undefined while it equals the empty default. */
function readValue(state: VariableDialogState): Parsed {
  const text = state.text.trim();
  switch (state.varType) {
    case undefined:
      return {};
    case 'str':
      return state.text === '' ? {} : { value: state.text };
    case 'int':
      if (text === '') return {};
      return /^\d+$/.test(text) ? { value: Number(text) } : { error: v.integerValue };
    case 'arr': {
      if (text === '') return {};
      const parsed = parseJson(text);
      if (!Array.isArray(parsed)) return { error: v.invalidValue };
      return parsed.length === 0 ? {} : { value: parsed };
    }
    case 'obj':
      return readObject(state.object, text);
    case 'func': {
      const query = queryData(state.func);
      return query ? { value: { _varType: 'func', ...query } as VariableValue } : {};
    }
    case 'device': {
      const { device_id, sensor, config, param, label } = state.device;
      if (!device_id || !sensor || !config || !param) return {};
      return {
        value: {
          _varType: 'device',
          device_id,
          sensor,
          config,
          param,
          ...(label.trim() ? { label: label.trim() } : {}),
        },
      };
    }
    case 'filter': {
      const { name, type, range, range_param, period, interval, ndata, is_default } = state.filter;
      if (!type) return {};
      const fields = { range, range_param, period: period === AUTO_PERIOD ? undefined : period, interval };
      const value: Record<string, unknown> = { _varType: 'filter', id: state.key, name, type, ...fields };
      if (type === 'REALTIME') value.ndata = ndata.trim() === '' ? undefined : Number(ndata);
      if (is_default) value.is_default = true;
      for (const k of Object.keys(value)) if (value[k] === undefined) delete value[k];
      return { value: value as VariableValue };
    }
  }
}

function readObject(object: ObjectChoice, text: string): Parsed {
  if (object.mode === 'code') {
    if (text === '') return {};
    const parsed = parseJson(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: v.invalidValue };
    return Object.keys(parsed).length === 0 ? {} : { value: { ...parsed, _varType: 'obj' } as VariableValue };
  }
  if (!object.queryType) return {};
  if (object.queryType === 'tags')
    return { value: { _varType: 'obj', queryType: 'tags', tags: object.tags.filter((t) => t.trim() !== '') } };
  const asValue = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);
  const { queryType, condition, true_condition, false_condition } = object;
  return {
    value: {
      _varType: 'obj',
      queryType,
      condition,
      true_condition: asValue(true_condition),
      false_condition: asValue(false_condition),
    },
  };
}

/** The variable the dialog would save, or undefined while incomplete or invalid. */
export function variableValue(state: VariableDialogState): VariableValue | undefined {
  const { value } = readValue(state);
  if (value === undefined || state.key === '') return undefined;
  return VariableMap.safeParse({ [state.key]: value }).success ? value : undefined;
}

/** Messages by field: 'key', 'value' (unparsable text, integers) and the schema's (name, ndata, condition, …). */
export function dialogErrors(state: VariableDialogState): Record<string, string> {
  const errors: Record<string, string> = {};
  const key = keyError(state);
  if (key) errors.key = key;
  const { value, error } = readValue(state);
  if (error) errors.value = error;
  if (value === undefined || key || state.key === '') return errors;
  const result = VariableMap.safeParse({ [state.key]: value });
  for (const issue of result.success ? [] : result.error.issues) {
    const field = issue.path.slice(1).map(String).join('.') || 'value';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** "Save is disabled until type and key are set and the value differs from the empty default." */
export function canSave(state: VariableDialogState): boolean {
  return state.varType !== undefined && state.key !== '' && variableValue(state) !== undefined;
}
