import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { plotlyText, testFigure, thresholdOf } from './ruleTest.js';
import type { RuleTestResult } from './ruleCalls.js';

const entry = (query: 'DEVICE_ID' | 'VALUE', op: '==' | '<' | '>', value: number | string | boolean) => ({
  field: { query },
  op,
  value,
});

const result = (over: Partial<RuleTestResult> = {}): RuleTestResult => ({
  series: [
    {
      sensor: '<img src=x onerror=alert(1)>',
      configtype: 'data',
      param: 'level',
      points: [
        { ts: 1000, value: 30 },
        { ts: 2000, value: 15 },
        { ts: 3000, value: 'n/a' },
        { ts: 4000, value: null },
      ],
    },
  ],
  firings: [{ ts: 2000, value: 15, sensor: 'tank', configtype: 'data', param: 'level' }],
  start: 0,
  end: 5000,
  truncated: false,
  ...over,
});

describe('Uji rule chart', () => {
  it('takes the threshold from the first VALUE entry with a number', () => {
    expect(thresholdOf([entry('DEVICE_ID', '==', 7), entry('VALUE', '==', 'x'), entry('VALUE', '<', '20')])).toEqual({
      op: '<',
      value: 20,
    });
    expect(thresholdOf([entry('VALUE', '==', true), entry('VALUE', '>', '')])).toBeNull();
  });

  it('draws the numeric values, the firings as markers and the dashed threshold line, and says how often it fired', () => {
    const f = testFigure(result(), { op: '<', value: 20 });
    expect(f.points).toBe(2);
    expect(f.data[0]).toMatchObject({ mode: 'lines', y: [30, 15] });
    expect(f.data[1]).toMatchObject({ mode: 'markers', name: T.ruleScreens.testFiring, y: [15] });
    expect((f.layout.shapes as { y0: number }[])[0]!.y0).toBe(20);
    expect(f.summary).toBe(T.ruleScreens.testFired(1));
  });

  it('escapes device text before Plotly sees it', () => {
    const f = testFigure(result(), null);
    expect(f.data[0]!.name).toBe('&lt;img src=x onerror=alert(1)&gt;/data/level');
    expect(plotlyText('a&b<c>')).toBe('a&amp;b&lt;c&gt;');
  });

  it('says the rule would not fire, or that there is no data', () => {
    expect(testFigure(result({ firings: [] }), null).summary).toBe(T.ruleScreens.testNone);
    expect(testFigure(result({ firings: [], series: [] }), null).summary).toBe(T.rules.testNoData);
  });
});
