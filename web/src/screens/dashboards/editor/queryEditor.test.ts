import { describe, expect, it } from 'vitest';
import {
  STATE_CONFIG,
  STATE_SENSOR,
  T,
  type QueryEntityInput,
  type QueryKind,
  type QueryType,
} from '@sentra/contracts';
import {
  initialQueryEditor,
  queryEditorFrom,
  queryEditorReducer,
  type QueryEditorEvent,
  type QueryEditorState,
} from './queryEditor.js';
import {
  canSubmit,
  expressionField,
  fieldErrors,
  fieldOptions,
  queryData,
  queryGroups,
  resultInputType,
  visibleFields,
} from './queryEditorView.js';
import { TEST_SOURCE } from './testSource.js';
import { AVG_VOLTAGE, LATEST_ENERGY } from './editor.test-kit.js';

const q = T.dashboards.query;

function editor(kind: QueryKind, events: QueryEditorEvent[], fixed?: QueryType): QueryEditorState {
  const start = queryEditorReducer(initialQueryEditor(kind, fixed), { type: 'sourceLoaded', source: TEST_SOURCE });
  return events.reduce(queryEditorReducer, start);
}
const path = (param: string): QueryEditorEvent[] => [
  { type: 'chooseDevice', device_id: 'dev1' },
  { type: 'chooseSensor', sensor: 'pm' },
  { type: 'chooseConfig', config: 'meter' },
  { type: 'chooseParam', param },
];
const latest: QueryEditorEvent = { type: 'chooseQuery', query: 'LATEST' };
const avg: QueryEditorEvent = { type: 'chooseQuery', query: 'AVG' };
const selectSubparams = (subparams: string[]): QueryEditorEvent => ({ type: 'chooseSubparams', subparams });
const label = (l: string): QueryEditorEvent => ({ type: 'addSubparamLabel', label: l });

describe('Query selector', () => {
  it("lists the card kind's query options under the headings Data, Aggregate, Device Info and Condition", () => {
    const groups = queryGroups(editor('single', []));
    expect(groups.map((g) => g.heading)).toEqual(['Data', 'Aggregate', 'Device Info', 'Condition']);
    expect(groups[0].options).toContainEqual({ value: 'ONLINE', label: 'Status Online' });
    expect(groups[3].options).toContainEqual({ value: 'IFELSE', label: 'If/else' });
  });
  it('is not shown when a fixed query type is supplied', () => {
    const state = editor('single', [], 'device');
    expect(queryGroups(state)).toEqual([]);
    expect(visibleFields(state)).toEqual(['device_id']);
  });
});

describe('dependent selectors', () => {
  it('follow one another: Perangkat, Sensor, Config, Param, Sub Param', () => {
    expect(visibleFields(editor('single', [latest]))).toEqual(['query', 'device_id']);
    expect(visibleFields(editor('single', [latest, ...path('voltage')]))).toEqual([
      'query',
      'device_id',
      'sensor',
      'config',
      'param',
      'subparam',
    ]);
  });
  it('offer the devices with their labels, then the tree beneath the choice', () => {
    expect(fieldOptions(editor('single', [latest]), 'device_id')).toEqual([
      { value: 'dev1', label: 'Panel A' },
      { value: 'dev2', label: 'Pompa' },
    ]);
    const state = editor('single', [latest, ...path('voltage')]);
    expect(fieldOptions(state, 'sensor').map((o) => o.value)).toEqual(['pm', 'env']);
    expect(fieldOptions(state, 'param').map((o) => o.value)).toEqual(['voltage', 'current', 'energy']);
  });
  it("offer a device's states as the sensor 'Kondisi perangkat', its keys as params (a toggle's POWER)", () => {
    const source = {
      ...TEST_SOURCE,
      devices: {
        ...TEST_SOURCE.devices,
        plug: { ENERGY: { data: { Power: 'number' } }, [STATE_SENSOR]: { [STATE_CONFIG]: { POWER: null } } },
      },
    };
    const events: QueryEditorEvent[] = [latest, { type: 'chooseDevice', device_id: 'plug' }];
    const state = events.reduce(
      queryEditorReducer,
      queryEditorReducer(initialQueryEditor('single'), { type: 'sourceLoaded', source }),
    );
    expect(fieldOptions(state, 'sensor')).toEqual([
      { value: 'ENERGY', label: 'ENERGY' },
      { value: STATE_SENSOR, label: q.stateSensor },
    ]);
    const chosen = [
      { type: 'chooseSensor', sensor: STATE_SENSOR },
      { type: 'chooseConfig', config: STATE_CONFIG },
      { type: 'chooseParam', param: 'POWER' },
    ] as QueryEditorEvent[];
    const done = chosen.reduce(queryEditorReducer, state);
    expect(canSubmit(done)).toBe(true);
    expect(queryData(done)).toEqual({
      query: 'LATEST',
      queryType: 'device',
      device_id: 'plug',
      sensor: STATE_SENSOR,
      config: STATE_CONFIG,
      param: 'POWER',
    });
  });
  it('name no device for list and map cards: the sensors tree', () => {
    const state = editor('list', [
      latest,
      { type: 'chooseSensor', sensor: 'pm' },
      { type: 'chooseConfig', config: 'meter' },
      { type: 'chooseParam', param: 'energy' },
    ]);
    expect(visibleFields(state)).toEqual(['query', 'sensor', 'config', 'param']);
    expect(queryData(state)).toEqual({
      query: 'LATEST',
      queryType: 'device_no_id',
      sensor: 'pm',
      config: 'meter',
      param: 'energy',
    });
  });
});

describe('query editor cascade', () => {
  const full = editor('single', [
    { type: 'chooseQuery', query: 'IFELSE' },
    { type: 'changeCondition', condition: '{a}' },
    { type: 'changeTrue', value: '1' },
  ]);
  it('changing the query function resets device, sensor, config, param, subparam, tags, condition and true/false values', () => {
    const chosen = editor('single', [latest, ...path('voltage'), { type: 'chooseSubparam', subparam: 'r' }]);
    const changed = queryEditorReducer(chosen, avg);
    expect(changed).toMatchObject({
      query: 'AVG',
      device_id: undefined,
      sensor: undefined,
      config: undefined,
      param: undefined,
      subparam: undefined,
    });
    expect(queryEditorReducer(full, latest)).toMatchObject({
      condition: '',
      true_condition: '',
      false_condition: '',
      tags: [],
    });
  });
  it('changing the device resets sensor and below', () => {
    const state = queryEditorReducer(editor('single', [latest, ...path('voltage')]), {
      type: 'chooseDevice',
      device_id: 'dev2',
    });
    expect(state).toMatchObject({ device_id: 'dev2', sensor: undefined, config: undefined, param: undefined });
  });
  it('changing the sensor resets config and below', () => {
    const state = queryEditorReducer(editor('single', [latest, ...path('voltage')]), {
      type: 'chooseSensor',
      sensor: 'env',
    });
    expect(state).toMatchObject({ device_id: 'dev1', sensor: 'env', config: undefined, param: undefined });
  });
  it('changing the config resets param and below', () => {
    const state = queryEditorReducer(editor('single', [latest, ...path('voltage')]), {
      type: 'chooseConfig',
      config: 'info',
    });
    expect(state).toMatchObject({ config: 'info', param: undefined, subparam: undefined });
  });
  it('changing the param resets subparam and below', () => {
    const chosen = editor('chart', [avg, ...path('voltage'), selectSubparams(['r']), label('fasa r')]);
    const state = queryEditorReducer(chosen, { type: 'chooseParam', param: 'current' });
    expect(state).toMatchObject({ param: 'current', subparams: [], subparam_label: [] });
  });
  it('reports the query submittable only when a full valid selection exists', () => {
    expect(canSubmit(editor('single', [latest, { type: 'chooseDevice', device_id: 'dev1' }]))).toBe(false);
    const state = editor('single', [latest, ...path('energy')]);
    expect(canSubmit(state)).toBe(true);
    expect(queryData(state)).toEqual(LATEST_ENERGY);
  });
  it('reports a param that still has nested children incomplete and empty', () => {
    const state = editor('single', [latest, ...path('voltage')]);
    expect(queryData(state)).toBeUndefined();
    expect(queryData(queryEditorReducer(state, { type: 'chooseSubparam', subparam: 'r' }))).toMatchObject({
      subparam: 'r',
    });
  });
  it("offers an object param's subparams only, never the placeholder '_no_subparam_' (issue 28)", () => {
    expect(fieldOptions(editor('single', [latest, ...path('voltage')]), 'subparam').map((o) => o.value)).toEqual([
      'r',
      's',
      't',
    ]);
  });
  it("takes the placeholder '_no_subparam_' (a stored card) as no subparam: an object param without one stays incomplete", () => {
    const state = editor('single', [latest, ...path('voltage'), { type: 'chooseSubparam', subparam: '_no_subparam_' }]);
    expect(queryData(state)).toBeUndefined();
    expect(canSubmit(state)).toBe(false);
    expect(fieldErrors(state)).toEqual([{ field: 'subparam', message: T.dashboards.query.objectNeedsSubparam }]);
  });
  it('reports an empty multi-subparam selection incomplete', () => {
    expect(canSubmit(editor('chart', [avg, ...path('voltage'), selectSubparams([])]))).toBe(false);
  });
  it('reports the data empty while the number of labels differs from the number of selected subparams', () => {
    const oneLabel = editor('chart', [avg, ...path('voltage'), selectSubparams(['r', 's']), label('fasa r')]);
    expect(queryData(oneLabel)).toBeUndefined();
    expect(queryData(queryEditorReducer(oneLabel, label('fasa s')))).toMatchObject({
      subparam: ['r', 's'],
      subparam_label: ['fasa r', 'fasa s'],
    });
  });
  it('completes a three-phase query only when Data 1, 2 and 3 are all chosen; the subparam is the list of the three', () => {
    const phase = (p: 0 | 1 | 2, subparam: string): QueryEditorEvent => ({ type: 'choosePhase', phase: p, subparam });
    const two = editor('threePhase', [latest, ...path('voltage'), phase(0, 'r'), phase(1, 's')]);
    expect(visibleFields(two).slice(-3)).toEqual(['data1', 'data2', 'data3']);
    expect(canSubmit(two)).toBe(false);
    expect(queryData(queryEditorReducer(two, phase(2, 't')))).toMatchObject({
      queryType: 'three_phase',
      subparam: ['r', 's', 't'],
    });
  });
  it('clears the true and false values on a Number/String toggle and reports incomplete', () => {
    const numbers = editor('single', [
      { type: 'chooseQuery', query: 'IFELSE' },
      { type: 'changeCondition', condition: '{a} > 1' },
      { type: 'changeTrue', value: '1' },
      { type: 'changeFalse', value: '0' },
    ]);
    expect(queryData(numbers)).toMatchObject({ true_condition: 1, false_condition: 0 });
    const toggled = queryEditorReducer(numbers, { type: 'toggleResultType', resultType: 'string' });
    expect(toggled).toMatchObject({ true_condition: '', false_condition: '' });
    expect(canSubmit(toggled)).toBe(false);
  });
  it('gives numeric true/false inputs for Number and text for String', () => {
    const number = editor('single', [{ type: 'chooseQuery', query: 'IFELSE' }]);
    expect(resultInputType(number)).toBe('number');
    expect(resultInputType(queryEditorReducer(number, { type: 'toggleResultType', resultType: 'string' }))).toBe(
      'text',
    );
    const notNumeric = [
      { type: 'changeCondition', condition: '{a}' },
      { type: 'changeTrue', value: 'nyala' },
      { type: 'changeFalse', value: '0' },
    ] as QueryEditorEvent[];
    expect(canSubmit(notNumeric.reduce(queryEditorReducer, number))).toBe(false);
  });
});

describe('fields by query', () => {
  it('shows a Label field for a graph query whose param has no children', () => {
    const state = editor('chart', [avg, ...path('energy'), { type: 'changeParamLabel', label: 'Energi' }]);
    expect(visibleFields(state).at(-1)).toBe('param_label');
    expect(queryData(state)).toMatchObject({ param: 'energy', param_label: 'Energi' });
  });
  it('shows the Subparam multi-select and the Subparam Label tags for a graph param with subparams', () => {
    expect(visibleFields(editor('chart', [avg, ...path('voltage')])).slice(-2)).toEqual([
      'subparams',
      'subparam_label',
    ]);
  });
  it('shows the Tags multi-select for a tags query; all tags empty queries every device', () => {
    const state = editor('single', [{ type: 'chooseQuery', query: 'TOTAL_DEVICE' }]);
    expect(visibleFields(state)).toEqual(['query', 'tags']);
    expect(q.tagsHeading).toBe('Set all tags empty to query from all devices');
    expect(queryData(state)).toEqual({ query: 'TOTAL_DEVICE', queryType: 'tags', tags: [] });
    expect(queryData(queryEditorReducer(state, { type: 'chooseTags', tags: ['gedung_a', ''] }))).toMatchObject({
      tags: ['gedung_a'],
    });
  });
  it("shows Condition, the Number/String toggle, True and False for the condition query, hinted '{var_a} * 2 > {var_b} + {var_c}'", () => {
    const state = editor('single', [{ type: 'chooseQuery', query: 'IFELSE' }]);
    expect(visibleFields(state)).toEqual(['query', 'condition', 'resultType', 'true_condition', 'false_condition']);
    expect(expressionField(state)).toEqual({ label: 'Condition', hint: '{var_a} * 2 > {var_b} + {var_c}' });
  });
  it.each([
    ['FORMAT', 'Keluaran'],
    ['MATH', 'Keluaran'],
    ['BOOL', 'Condition'],
  ] as const)('shows the %s query a %s expression field with an example hint', (query, fieldLabel) => {
    const state = editor('chart', [{ type: 'chooseQuery', query }]);
    expect(visibleFields(state)).toEqual(['query', 'condition']);
    expect(expressionField(state)?.label).toBe(fieldLabel);
    expect(expressionField(state)?.hint).toMatch(/\{var_a\}/);
  });
});

describe('query editor validation', () => {
  it('requires the query, device, sensor, config, param and sub param selectors, in that order', () => {
    expect(fieldErrors(editor('single', [])).map((e) => e.field)).toEqual(['query']);
    const state = editor('single', [latest, ...path('voltage')]);
    expect(fieldErrors(state)).toEqual([{ field: 'subparam', message: T.common.required }]);
  });
  it(`requires condition, true and false: "${q.conditionRequired}", "${q.trueRequired}", "${q.falseRequired}"`, () => {
    expect(fieldErrors(editor('single', [{ type: 'chooseQuery', query: 'IFELSE' }])).map((e) => e.message)).toEqual([
      q.conditionRequired,
      q.trueRequired,
      q.falseRequired,
    ]);
  });
  it.each([
    ['1fasa_yang_terlalu_panjang', q.labelDigitStart],
    ['fasa_yang_terlalu_panjang', q.labelTooLong],
    ['Fasa', q.labelCapitalStart],
    ['fasa-r', q.labelCapitalStart],
  ])('refuses the Subparam Label %j with "%s" (checked in order)', (text, message) => {
    const state = editor('chart', [avg, ...path('voltage'), selectSubparams(['r']), label(text)]);
    expect(state.subparam_label).toEqual([]);
    expect(state.labelError).toBe(message);
    expect(fieldErrors(state)).toContainEqual({ field: 'subparam_label', message });
  });
  it('refuses a Subparam Label already given: labels are unique', () => {
    const state = editor('chart', [avg, ...path('voltage'), selectSubparams(['r', 's']), label('fasa'), label('fasa')]);
    expect(state.subparam_label).toEqual(['fasa']);
    expect(state.labelError).toBe(q.labelTooltip);
  });
  it('takes no more Subparam Labels than selected subparams', () => {
    const state = editor('chart', [avg, ...path('voltage'), selectSubparams(['r']), label('fasa r'), label('fasa s')]);
    expect(state.subparam_label).toEqual(['fasa r']);
  });
});

describe('editing a stored query', () => {
  it('prefills every field and reports the same query', () => {
    const stored: QueryEntityInput = { ...AVG_VOLTAGE, subparam: ['r', 't'], subparam_label: ['fasa r', 'fasa t'] };
    const state = queryEditorFrom(stored, 'chart', undefined, TEST_SOURCE);
    expect(queryData(state)).toEqual(stored);
  });
});
