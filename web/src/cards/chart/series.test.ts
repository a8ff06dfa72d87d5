// The chart's margins are laid out before Plotly draws (automargin is off: Plotly measures nothing after drawing),
// and the legend rule (several series of a plain chart).
import { describe, expect, it } from 'vitest';
import { buildFigure, chartMargins, valueRange } from './series.js';

const rows = (values: number[][]) => values.map((v, i) => ({ ts: Date.UTC(2026, 10, 21, i), ...Object.fromEntries(v.map((x, k) => [`s${k}`, x])) }));

describe('chart margins', () => {
  it('leave room for the widest y label with its unit, the axis titles and the legend row', () => {
    const small = chartMargins({}, { min: 0, max: 9 }, false);
    expect(small).toEqual({ l: 48, r: 20, t: 20, b: 36 });
    const wide = chartMargins({ graph_unit: 'kWh' }, { min: 0, max: 12_345 }, false);
    expect(wide.l).toBeGreaterThan(small.l);
    expect(chartMargins({ graph_unit: 'kWh', ylabel: 'Energi', xlabel: 'Waktu' }, { min: 0, max: 12_345 }, true)).toEqual({ l: wide.l + 18, r: 20, t: 48, b: 54 });
  });

  it('count a minus sign and the decimals a small span needs', () => {
    const unit = { graph_unit: 'kWh' };
    expect(chartMargins(unit, { min: -200, max: 200 }, false).l).toBeGreaterThan(chartMargins(unit, { min: 0, max: 200 }, false).l);
    expect(chartMargins(unit, { min: 1.2, max: 1.25 }, false).l).toBeGreaterThan(chartMargins(unit, { min: 1, max: 6 }, false).l);
  });

  it('read the y range from the series, stacked ones added up, bars and areas from zero', () => {
    const r = rows([[1, 2], [3, -1]]);
    expect(valueRange(r, ['s0', 's1'], false)).toEqual({ min: -1, max: 3 });
    expect(valueRange(r, ['s0', 's1'], true)).toEqual({ min: -1, max: 3 });
    expect(valueRange(rows([[1, 2], [3, 4]]), ['s0', 's1'], true)).toEqual({ min: 0, max: 7 });
    expect(valueRange(rows([[5], [6]]), ['s0'], false, true)).toEqual({ min: 0, max: 6 });
    expect(valueRange([], ['s0'], false)).toBeUndefined();
  });

  it('go into the figure: the legend only for several series of a plain chart; pies keep their own margins', () => {
    const data = { success: true, chart_keys: ['s0', 's1'], chart_data: rows([[1, 2], [3, 4]]) } as never;
    const line = buildFigure('LINE_CHART_CARD', data, { graph_unit: 'V' });
    expect(line.layout.showlegend).toBe(true);
    expect(line.layout.margin.t).toBe(48);
    for (const axis of [line.layout.xaxis, line.layout.yaxis]) expect(axis).toMatchObject({ automargin: false, tickangle: 0, ticklabeloverflow: 'allow' });
    expect(buildFigure('LINE_MONITORING_CHART_CARD', data, {}).layout.showlegend).toBe(false);
    expect(buildFigure('LINE_CHART_CARD', { success: true, chart_keys: ['s0'], chart_data: rows([[1]]) } as never, {}).layout.showlegend).toBe(false);
    const pie = buildFigure('PIE_CHART_CARD', { success: true, chart_data: [{ key: 'a', value: 1 }, { key: 'b', value: 2 }] } as never, {});
    expect(pie.layout.margin).toEqual({ l: 8, r: 8, t: 8, b: 8 });
    expect(pie.layout.showlegend).toBe(true);
  });
});
