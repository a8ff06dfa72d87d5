import { describe, expect, it } from 'vitest';
import { T } from '../../text/id.js';
import { QueryEntity, subparamLabelError } from './query.js';
import { rejection } from './testing.js';

const q = T.dashboards.query;
const series = { device_id: 'dev1', sensor: 'pm', config: 'meter', param: 'voltage' };
const graph = (subparam: string[], subparam_label: string[]) => ({
  query: 'AVG',
  queryType: 'graph',
  ...series,
  subparam,
  subparam_label,
});

describe('subparam labels', () => {
  it(`refuses a label starting with a digit first: "${q.labelDigitStart}"`, () => {
    expect(subparamLabelError('1' + 'a'.repeat(20))).toBe(q.labelDigitStart);
  });
  it(`then refuses more than 16 characters: "${q.labelTooLong}"`, () => {
    expect(subparamLabelError('a'.repeat(17))).toBe(q.labelTooLong);
  });
  it.each(['Fasa', 'fasa-r', '_fasa', ' fasa'])(
    `refuses any other mismatch such as %j: "${q.labelCapitalStart}"`,
    (label) => {
      expect(subparamLabelError(label)).toBe(q.labelCapitalStart);
    },
  );
  it.each(['r', 'fasa r', 'fasa_R2', 'a'.repeat(16)])('accepts %j', (label) => {
    expect(subparamLabelError(label)).toBeUndefined();
  });
});

describe('query entity', () => {
  it('needs as many labels as selected subparams', () => {
    expect(rejection(QueryEntity, graph(['r', 's'], ['fasa r']))).toEqual([
      { path: 'subparam_label', message: T.dashboards.component.incomplete },
    ]);
  });
  it('needs unique labels', () => {
    expect(rejection(QueryEntity, graph(['r', 's'], ['fasa', 'fasa']))).toEqual([
      { path: 'subparam_label.1', message: q.labelTooltip },
    ]);
  });
  it('rejects an empty multi-subparam selection', () => {
    expect(rejection(QueryEntity, graph([], []))[0].path).toBe('subparam');
  });
  it('accepts a graph query on a param without children and its Label', () => {
    expect(
      QueryEntity.safeParse({ query: 'AVG', queryType: 'graph', ...series, param_label: 'Tegangan' }).success,
    ).toBe(true);
  });
  it(`rejects a condition query without condition: "${q.conditionRequired}"`, () => {
    expect(rejection(QueryEntity, { query: 'MATH', queryType: 'condition', condition: ' ' })).toEqual([
      { path: 'condition', message: q.conditionRequired },
    ]);
  });
  it(`rejects an if/else without true and false values: "${q.trueRequired}", "${q.falseRequired}"`, () => {
    expect(
      rejection(QueryEntity, {
        query: 'IFELSE',
        queryType: 'condition_bool',
        condition: '{a} > 1',
        true_condition: '',
      }),
    ).toEqual([
      { path: 'true_condition', message: q.trueRequired },
      { path: 'false_condition', message: q.falseRequired },
    ]);
  });
  it('accepts numeric and text true/false values', () => {
    expect(
      QueryEntity.safeParse({
        queryType: 'condition_bool',
        condition: '{a}',
        true_condition: 1,
        false_condition: 'mati',
      }).success,
    ).toBe(true);
  });
  it('needs a device id for a device_id query', () => {
    expect(rejection(QueryEntity, { query: 'LABEL', queryType: 'device_id' })).toEqual([
      { path: 'device_id', message: T.dashboards.component.incomplete },
    ]);
  });
  it('rejects an unknown query type', () => {
    expect(rejection(QueryEntity, { query: 'LATEST', queryType: 'graphs' })[0].path).toBe('queryType');
  });
  it('lets a tags query be empty: all devices', () => {
    expect(QueryEntity.parse({ query: 'TOTAL_DEVICE', queryType: 'tags' })).toEqual({
      query: 'TOTAL_DEVICE',
      queryType: 'tags',
      tags: [],
    });
  });
});
