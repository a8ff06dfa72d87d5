import { describe, expect, it } from 'vitest';
import { T, variableTypeChoices } from '@sentra/contracts';
import {
  canSave,
  dialogErrors,
  initialVariableDialog,
  keyError,
  keyHelp,
  variableDialogReducer,
  variableValue,
  type VariableDialogEvent,
  type VariableDialogState,
} from './variableDialog.js';
import { filterFields, intervalChoices, periodChoices, rangeChoices, rangeParamChoices } from './filterChoices.js';
import { TEST_SOURCE } from './testSource.js';
import { LATEST_ENERGY } from './editor.test-kit.js';

const v = T.dashboards.variables;
const q = T.dashboards.query;

function dialog(
  events: VariableDialogEvent[],
  existingKeys: string[] = [],
  scope: 'global' | 'local' = 'global',
): VariableDialogState {
  const opened = variableDialogReducer(initialVariableDialog(), {
    type: 'open',
    scope,
    existingKeys,
    source: TEST_SOURCE,
  });
  return events.reduce(variableDialogReducer, opened);
}
const type = (varType: VariableDialogState['varType'] & string): VariableDialogEvent => ({
  type: 'chooseType',
  varType,
});
const key = (k: string): VariableDialogEvent => ({ type: 'changeKey', key: k });
const text = (t: string): VariableDialogEvent => ({ type: 'changeText', text: t });
const fullDevice: VariableDialogEvent[] = [
  { type: 'chooseDevice', device_id: 'dev1' },
  { type: 'chooseSensor', sensor: 'pm' },
  { type: 'chooseConfig', config: 'meter' },
  { type: 'chooseParam', param: 'energy' },
];
const periodic: VariableDialogEvent[] = [
  type('filter'),
  key('minggu'),
  { type: 'changeFilterName', name: 'Minggu ini' },
  { type: 'chooseFilterType', filterType: 'PERIODIC' },
  { type: 'chooseRange', range: 'THIS_WEEK' },
  { type: 'choosePeriod', period: 'hour' },
  { type: 'chooseInterval', interval: 6 },
];

describe("'Tambah Variabel Baru'", () => {
  it('offers Array, Integer, Object, String, Function, Device (and Filter for global variables)', () => {
    expect(variableTypeChoices('local').map((t) => t.label)).toEqual([
      'Array',
      'Integer',
      'Object',
      'String',
      'Function',
      'Device',
    ]);
    expect(variableTypeChoices('global').map((t) => t.label)).toContain('Filter');
  });
  it('resets the value and submittability on a type change', () => {
    const str = dialog([type('str'), key('nama'), text('Panel A')]);
    expect(canSave(str)).toBe(true);
    const changed = variableDialogReducer(str, type('int'));
    expect(changed.text).toBe('');
    expect(canSave(changed)).toBe(false);
  });
  it("prefixes the key with func_ on choosing 'func', or sets func_a if the key is empty", () => {
    expect(dialog([key('total'), type('func')]).key).toBe('func_total');
    expect(dialog([type('func')]).key).toBe('func_a');
    expect(keyHelp(dialog([type('func')]))).toBe(v.funcHelp);
  });
  it("strips the func_ prefix on leaving 'func'", () => {
    expect(dialog([key('total'), type('func'), type('str')]).key).toBe('total');
  });
  it('closes on save and clears its state, handing over the saved variable', () => {
    const state = dialog([type('str'), key('nama'), text('Panel A'), { type: 'save' }]);
    expect(state.open).toBe(false);
    expect(state.key).toBe('');
    expect(state.saved).toEqual({ key: 'nama', value: 'Panel A' });
  });
  it('closes on cancel and clears its state', () => {
    expect(dialog([type('str'), key('nama'), { type: 'cancel' }])).toEqual(initialVariableDialog());
  });
  it(`asks "${v.overwriteTitle}" for a duplicate key, and on yes overwrites the old variable`, () => {
    const asking = dialog([type('int'), key('batas'), text('5'), { type: 'save' }], ['batas']);
    expect(asking.confirmingOverwrite).toBe(true);
    expect(asking.saved).toBeUndefined();
    expect(variableDialogReducer(asking, { type: 'cancelOverwrite' })).toMatchObject({
      open: true,
      confirmingOverwrite: false,
    });
    expect(variableDialogReducer(asking, { type: 'confirmOverwrite' }).saved).toEqual({ key: 'batas', value: 5 });
  });
});

describe('device variable cascade', () => {
  const chosen = dialog([type('device'), key('panel'), ...fullDevice]);
  it('saves device, sensor, config, param and the optional label', () => {
    const labelled = variableDialogReducer(chosen, { type: 'changeDeviceLabel', label: 'Panel A' });
    expect(variableValue(labelled)).toEqual({
      _varType: 'device',
      device_id: 'dev1',
      sensor: 'pm',
      config: 'meter',
      param: 'energy',
      label: 'Panel A',
    });
  });
  it('clears sensor, config and param on a new device', () => {
    expect(variableDialogReducer(chosen, { type: 'chooseDevice', device_id: 'dev2' }).device).toMatchObject({
      sensor: undefined,
      config: undefined,
      param: undefined,
    });
  });
  it('clears config and param on a new sensor', () => {
    expect(variableDialogReducer(chosen, { type: 'chooseSensor', sensor: 'env' }).device).toMatchObject({
      device_id: 'dev1',
      config: undefined,
      param: undefined,
    });
  });
  it('clears param on a new config', () => {
    const state = variableDialogReducer(chosen, { type: 'chooseConfig', config: 'info' });
    expect(state.device).toMatchObject({ sensor: 'pm', param: undefined });
    expect(canSave(state)).toBe(false);
  });
});

describe('filter variable cascade', () => {
  it('clears range, period, interval and N Data on a filter type change', () => {
    const state = variableDialogReducer(dialog(periodic), { type: 'chooseFilterType', filterType: 'REALTIME' });
    expect(state.filter).toMatchObject({ range: undefined, period: undefined, interval: undefined, ndata: '' });
  });
  it('clears period and interval on a range change', () => {
    const state = variableDialogReducer(dialog(periodic), { type: 'chooseRange', range: 'LAST_MONTH' });
    expect(state.filter).toMatchObject({ range: 'LAST_MONTH', period: undefined, interval: undefined });
  });
  it('clears interval on a period change', () => {
    const state = variableDialogReducer(dialog(periodic), { type: 'choosePeriod', period: 'day' });
    expect(state.filter).toMatchObject({ period: 'day', interval: undefined });
  });
  it('saves a periodic filter with its key as id and its label as name', () => {
    expect(variableValue(dialog(periodic))).toEqual({
      _varType: 'filter',
      id: 'minggu',
      name: 'Minggu ini',
      type: 'PERIODIC',
      range: 'THIS_WEEK',
      period: 'hour',
      interval: 6,
    });
  });
  it('offers the periodic options of the chosen range', () => {
    const filter = dialog(periodic).filter;
    expect(rangeChoices().map((r) => r.label)).toContain('Yesterday');
    expect(periodChoices(filter)).toEqual(['day', 'hour']);
    expect(intervalChoices(filter)).toEqual([2, 3, 4, 6, 12]);
    const lastHour = dialog([
      ...periodic.slice(0, 4),
      { type: 'chooseRange', range: 'LAST_HOUR' },
      { type: 'chooseRangeParam', range_param: 1 },
      { type: 'choosePeriod', period: 'minute' },
    ]).filter;
    expect(rangeParamChoices(lastHour)).toEqual([1, 3, 6, 12]);
    expect(intervalChoices(lastHour)).toEqual([1, 5, 10, 15]);
    expect(filterFields(lastHour)).toEqual(['range', 'range_param', 'period', 'interval']);
  });
  it('removes a period of auto from the stored filter', () => {
    const custom = dialog([
      type('filter'),
      key('bebas'),
      { type: 'changeFilterName', name: 'Bebas' },
      { type: 'chooseFilterType', filterType: 'CUSTOM' },
      { type: 'choosePeriod', period: 'auto' },
    ]);
    expect(periodChoices(custom.filter)).toEqual(['auto', 'month', 'week', 'day', 'hour', 'minute']);
    expect(variableValue(custom)).toEqual({ _varType: 'filter', id: 'bebas', name: 'Bebas', type: 'CUSTOM' });
  });
});

describe('variable validation', () => {
  it(`rejects a key with spaces: "${v.keyNoSpaces}"`, () => {
    const state = dialog([type('str'), key('nama panel'), text('A')]);
    expect(keyError(state)).toBe(v.keyNoSpaces);
    expect(canSave(state)).toBe(false);
  });
  it(`rejects a function key without the func_ prefix: "${v.funcPrefix}"`, () => {
    expect(keyError(dialog([type('func'), key('total')]))).toBe(v.funcPrefix);
  });
  it('gives a function key its live help (at least 6 characters) and refuses a bare func_', () => {
    const state = dialog([type('func'), key('func_')]);
    expect(keyHelp(state)).toBe(v.funcHelp);
    expect(keyError(state)).toBe(v.funcHelp);
    expect(keyError(dialog([type('func'), key('func_a')]))).toBeUndefined();
    expect(keyHelp(dialog([type('str')]))).toBeUndefined();
  });
  it(`rejects an empty filter label: "${v.labelRequired}"`, () => {
    const state = dialog([
      type('filter'),
      key('live'),
      { type: 'chooseFilterType', filterType: 'REALTIME' },
      { type: 'changeNdata', ndata: '10' },
    ]);
    expect(dialogErrors(state).name).toBe(v.labelRequired);
    expect(canSave(state)).toBe(false);
  });
  it('requires condition, true_condition and false_condition for a conditional query type', () => {
    const state = dialog([
      type('obj'),
      key('status'),
      { type: 'changeObject', object: { mode: 'form', queryType: 'condition_bool' } },
    ]);
    expect(dialogErrors(state)).toEqual({
      condition: q.conditionRequired,
      true_condition: q.trueRequired,
      false_condition: q.falseRequired,
    });
    const filled = variableDialogReducer(state, {
      type: 'changeObject',
      object: { condition: '{a} > 1', true_condition: '1', false_condition: 'mati' },
    });
    expect(variableValue(filled)).toEqual({
      _varType: 'obj',
      queryType: 'condition_bool',
      condition: '{a} > 1',
      true_condition: 1,
      false_condition: 'mati',
    });
  });
  it('drops empty tags', () => {
    const state = dialog([
      type('obj'),
      key('area'),
      { type: 'changeObject', object: { mode: 'form', queryType: 'tags', tags: ['gedung_a', '', ' '] } },
    ]);
    expect(variableValue(state)).toEqual({ _varType: 'obj', queryType: 'tags', tags: ['gedung_a'] });
  });
  it('keeps Save disabled until type and key are set and the value differs from the empty default', () => {
    expect(canSave(dialog([key('x'), text('a')]))).toBe(false);
    expect(canSave(dialog([type('str'), text('a')]))).toBe(false);
    expect(canSave(dialog([type('arr'), key('x'), text('[]')]))).toBe(false);
    expect(canSave(dialog([type('obj'), key('x'), text('{}')]))).toBe(false);
    expect(variableDialogReducer(dialog([type('str'), key('x')]), { type: 'save' }).open).toBe(true);
  });
  it.each(['-1', '1.5', 'abc'])('takes whole numbers from 0 as integers, not %j', (value) => {
    const state = dialog([type('int'), key('batas'), text(value)]);
    expect(dialogErrors(state).value).toBe(v.integerValue);
    expect(canSave(state)).toBe(false);
    expect(variableValue(dialog([type('int'), key('batas'), text('0')]))).toBe(0);
  });
  it('parses object and array values from text and marks an unparsable one', () => {
    expect(variableValue(dialog([type('arr'), key('daftar'), text('[1, "dua"]')]))).toEqual([1, 'dua']);
    expect(dialogErrors(dialog([type('arr'), key('daftar'), text('[1, ')])).value).toBe(v.invalidValue);
    expect(dialogErrors(dialog([type('obj'), key('o'), text('{a: 1}')])).value).toBe(v.invalidValue);
  });
  it('takes a free-text object in Manual Code mode', () => {
    expect(variableValue(dialog([type('obj'), key('o'), text('{"batas": {"atas": 10}}')]))).toEqual({
      batas: { atas: 10 },
      _varType: 'obj',
    });
  });
  it.each(['0', '121', '2.5'])(`rejects REALTIME N Data %s: "${v.ndata}"`, (ndata) => {
    const state = dialog([
      type('filter'),
      key('live'),
      { type: 'changeFilterName', name: 'Live' },
      { type: 'chooseFilterType', filterType: 'REALTIME' },
      { type: 'changeNdata', ndata },
    ]);
    expect(dialogErrors(state).ndata).toBe(v.ndata);
    expect(canSave(state)).toBe(false);
  });
  it('saves a function variable from the query editor', () => {
    const events: VariableDialogEvent[] = [
      { type: 'func', event: { type: 'chooseQuery', query: 'LATEST' } },
      ...fullDevice.map((event) => ({ type: 'func', event }) as VariableDialogEvent),
    ];
    expect(variableValue(dialog([type('func'), ...events]))).toEqual({ _varType: 'func', ...LATEST_ENERGY });
  });
});
