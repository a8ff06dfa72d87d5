import { describe, expect, it } from 'vitest';
import { T } from '../../text/id.js';
import { VariableMap, variableKeyError } from './variables.js';
import { rejection } from './testing.js';

const t = T.dashboards;
const func = {
  _varType: 'func',
  query: 'LATEST',
  queryType: 'device',
  device_id: 'd',
  sensor: 's',
  config: 'c',
  param: 'p',
};

describe('variable keys', () => {
  it(`rejects a key with a space: "${t.variables.keyNoSpaces}"`, () => {
    expect(rejection(VariableMap, { 'suhu ruang': 'x' })).toEqual([
      { path: 'suhu ruang', message: t.variables.keyNoSpaces },
    ]);
  });
  it(`rejects a function key not starting with func_: "${t.variables.funcPrefix}"`, () => {
    expect(rejection(VariableMap, { total: func })).toEqual([{ path: 'total', message: t.variables.funcPrefix }]);
  });
  it('rejects a function key of fewer than 6 characters (live help)', () => {
    expect(variableKeyError('func_', true)).toBe(t.variables.funcHelp);
    expect(variableKeyError('func_a', true)).toBeUndefined();
  });
});

describe('variable values', () => {
  it('round-trips each variable type', () => {
    const vars = {
      s: 'teks',
      i: 7,
      a: [1, 'dua'],
      o: { any: { nested: true } },
      func_a: func,
      dev: { _varType: 'device', device_id: 'd', sensor: 's', config: 'c', param: 'p', label: 'Panel A' },
      f: { _varType: 'filter', id: 'f', name: 'Live', type: 'REALTIME', ndata: 10 },
    };
    expect(VariableMap.parse(vars)).toEqual(vars);
  });
  it.each([-1, 1.5])('rejects integer %s: whole numbers, min 0', (value) => {
    expect(rejection(VariableMap, { i: value })).toEqual([{ path: 'i', message: t.variables.integerValue }]);
  });
  it('rejects an unknown _varType', () => {
    expect(rejection(VariableMap, { x: { _varType: 'bool' } })[0].path).toBe('x._varType');
  });
  it('needs device, sensor, config and param on a device variable', () => {
    expect(rejection(VariableMap, { dev: { _varType: 'device', device_id: 'd', sensor: 's', config: 'c' } })).toEqual([
      { path: 'dev.param', message: t.component.incomplete },
    ]);
  });
  it('requires condition, true_condition and false_condition on a conditional object variable', () => {
    expect(rejection(VariableMap, { o: { queryType: 'condition_bool', condition: '{a} > 1' } })).toEqual([
      { path: 'o.true_condition', message: t.query.trueRequired },
      { path: 'o.false_condition', message: t.query.falseRequired },
    ]);
    expect(
      rejection(VariableMap, { o: { _varType: 'obj', queryType: 'condition', true_condition: 1, false_condition: 0 } }),
    ).toEqual([{ path: 'o.condition', message: t.query.conditionRequired }]);
  });
  it('drops empty tags of an object variable', () => {
    expect(VariableMap.parse({ o: { queryType: 'tags', tags: ['a', ''] } })).toEqual({
      o: { queryType: 'tags', tags: ['a'] },
    });
  });
  it('validates a function variable as a query', () => {
    expect(rejection(VariableMap, { func_b: { _varType: 'func', queryType: 'condition' } })).toEqual([
      { path: 'func_b.condition', message: t.query.conditionRequired },
    ]);
  });
});
