// What the "Uji rule" panel draws from the server's rule/test answer (pure, tested): the watched value's line, the
// threshold of the first comparing VALUE entry, and the firing moments as markers. Device-given names (sensor, config,
// param) reach Plotly only escaped: Plotly reads `<...>` in its strings as markup.
import { T, type TriggerEntry } from '@sentra/contracts';
import type { RuleTestResult } from './ruleCalls.js';

/** Plotly's strings take a subset of HTML: device text goes in as text. */
export const plotlyText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The threshold line: the first VALUE entry with a number (its operator tells which side fires). */
export function thresholdOf(
  entries: readonly Pick<TriggerEntry, 'field' | 'op' | 'value'>[],
): { op: string; value: number } | null {
  for (const e of entries) {
    if (e.field.query !== 'VALUE' || typeof e.value === 'boolean') continue;
    const n = typeof e.value === 'number' ? e.value : e.value.trim() === '' ? NaN : Number(e.value);
    if (Number.isFinite(n)) return { op: e.op, value: n };
  }
  return null;
}

export interface TestFigure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
  /** numeric points drawn */
  points: number;
  firings: number;
  summary: string;
}

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/** The small chart of a test: one line per watched point, the threshold, the firings. */
export function testFigure(result: RuleTestResult, threshold: { op: string; value: number } | null): TestFigure {
  const data: Record<string, unknown>[] = [];
  let points = 0;
  for (const s of result.series) {
    const xs: Date[] = [];
    const ys: number[] = [];
    for (const p of s.points) {
      const y = num(p.value);
      if (!Number.isFinite(y)) continue;
      xs.push(new Date(p.ts));
      ys.push(y);
    }
    points += ys.length;
    data.push({
      type: 'scatter',
      mode: 'lines',
      name: plotlyText(`${s.sensor}/${s.configtype}/${s.param}`),
      x: xs,
      y: ys,
      line: { width: 1.5, color: '#1976d2' },
      hoverinfo: 'x+y',
    });
  }
  if (result.firings.length) {
    data.push({
      type: 'scatter',
      mode: 'markers',
      name: T.ruleScreens.testFiring,
      x: result.firings.map((f) => new Date(f.ts)),
      // a firing without a number (a text value) sits on the threshold, or at 0
      y: result.firings.map((f) => (Number.isFinite(num(f.value)) ? num(f.value) : (threshold?.value ?? 0))),
      marker: { color: '#d32f2f', size: 9, symbol: 'x' },
      hoverinfo: 'x+y',
    });
  }
  const shapes = threshold
    ? [
        {
          type: 'line',
          xref: 'paper',
          x0: 0,
          x1: 1,
          y0: threshold.value,
          y1: threshold.value,
          line: { color: '#ed6c02', width: 1.5, dash: 'dash' },
        },
      ]
    : [];
  const annotations = threshold
    ? [
        {
          xref: 'paper',
          x: 1,
          xanchor: 'right',
          y: threshold.value,
          yanchor: 'bottom',
          text: plotlyText(`${T.ruleScreens.testThreshold} ${threshold.op} ${threshold.value}`),
          showarrow: false,
          font: { size: 11, color: '#ed6c02' },
        },
      ]
    : [];
  const summary =
    points === 0 && result.firings.length === 0
      ? T.rules.testNoData
      : result.firings.length
        ? T.ruleScreens.testFired(result.firings.length)
        : T.ruleScreens.testNone;
  return {
    data,
    layout: {
      height: 220,
      margin: { l: 48, r: 12, t: 8, b: 32 },
      showlegend: false,
      // fitted to the values (a device reporting only in the last minutes would be a line at the right edge)
      xaxis: { type: 'date' },
      yaxis: { zeroline: false },
      shapes,
      annotations,
    },
    points,
    firings: result.firings.length,
    summary,
  };
}
