// The chart's margins are laid out before Plotly draws (automargin is off: Plotly measures nothing after drawing),
// and the legend rule (several series of a plain chart).
import { describe, expect, it } from 'vitest';
import {
  buildFigure,
  chartMargins,
  lineOf,
  msOfX,
  seriesName,
  valueRange,
  xOf,
  zoomableLayout,
  zoomedRange,
} from './series.js';

const rows = (values: number[][]) =>
  values.map((v, i) => ({ ts: Date.UTC(2026, 10, 21, i), ...Object.fromEntries(v.map((x, k) => [`s${k}`, x])) }));

describe('chart margins', () => {
  it('leave room for the widest y label with its unit, the axis titles and the legend row', () => {
    const small = chartMargins({}, { min: 0, max: 9 }, false);
    expect(small).toEqual({ l: 48, r: 20, t: 20, b: 36 });
    const wide = chartMargins({ graph_unit: 'kWh' }, { min: 0, max: 12_345 }, false);
    expect(wide.l).toBeGreaterThan(small.l);
    expect(
      chartMargins({ graph_unit: 'kWh', ylabel: 'Energi', xlabel: 'Waktu' }, { min: 0, max: 12_345 }, true),
    ).toEqual({ l: wide.l + 18, r: 20, t: 48, b: 54 });
  });

  it('count a minus sign and the decimals a small span needs', () => {
    const unit = { graph_unit: 'kWh' };
    expect(chartMargins(unit, { min: -200, max: 200 }, false).l).toBeGreaterThan(
      chartMargins(unit, { min: 0, max: 200 }, false).l,
    );
    expect(chartMargins(unit, { min: 1.2, max: 1.25 }, false).l).toBeGreaterThan(
      chartMargins(unit, { min: 1, max: 6 }, false).l,
    );
  });

  it('read the y range from the series, stacked ones added up, bars and areas from zero', () => {
    const r = rows([
      [1, 2],
      [3, -1],
    ]);
    expect(valueRange(r, ['s0', 's1'], false)).toEqual({ min: -1, max: 3 });
    expect(valueRange(r, ['s0', 's1'], true)).toEqual({ min: -1, max: 3 });
    expect(
      valueRange(
        rows([
          [1, 2],
          [3, 4],
        ]),
        ['s0', 's1'],
        true,
      ),
    ).toEqual({ min: 0, max: 7 });
    expect(valueRange(rows([[5], [6]]), ['s0'], false, true)).toEqual({ min: 0, max: 6 });
    expect(valueRange([], ['s0'], false)).toBeUndefined();
  });

  it('go into the figure: the legend only for several series of a plain chart; pies keep their own margins', () => {
    const data = {
      success: true,
      chart_keys: ['s0', 's1'],
      chart_data: rows([
        [1, 2],
        [3, 4],
      ]),
    } as never;
    const line = buildFigure('LINE_CHART_CARD', data, { graph_unit: 'V' });
    expect(line.layout.showlegend).toBe(true);
    expect(line.layout.margin.t).toBe(48);
    for (const axis of [line.layout.xaxis, line.layout.yaxis])
      expect(axis).toMatchObject({ automargin: false, tickangle: 0, ticklabeloverflow: 'allow' });
    expect(buildFigure('LINE_MONITORING_CHART_CARD', data, {}).layout.showlegend).toBe(false);
    expect(
      buildFigure('LINE_CHART_CARD', { success: true, chart_keys: ['s0'], chart_data: rows([[1]]) } as never, {}).layout
        .showlegend,
    ).toBe(false);
    const pie = buildFigure(
      'PIE_CHART_CARD',
      {
        success: true,
        chart_data: [
          { key: 'a', value: 1 },
          { key: 'b', value: 2 },
        ],
      } as never,
      {},
    );
    expect(pie.layout.margin).toEqual({ l: 8, r: 8, t: 8, b: 8 });
    expect(pie.layout.showlegend).toBe(true);
  });
});

describe('chart texts and axes (issue 28)', () => {
  it('names a series by its label as words: "Sisa BBM", "Fasa R", the view\'s own name first', () => {
    expect(seriesName({}, 'sisa_bbm')).toBe('Sisa BBM');
    expect(seriesName({}, 'fasa r')).toBe('Fasa R');
    expect(seriesName({}, 'pengisian')).toBe('Pengisian');
    expect(seriesName({}, 'suhu')).toBe('Suhu');
    expect(seriesName({ labels: { sisa_bbm: 'Sisa Pertalite' } }, 'sisa_bbm')).toBe('Sisa Pertalite');
    // not a label (a device's name, a key with other characters): shown as it came
    expect(seriesName({}, 'Mesin Cuci 01')).toBe('Mesin Cuci 01');
    expect(seriesName({}, '<b>x</b>')).toBe('<b>x</b>');
  });

  it('uses the names in the legend, escaped for Plotly', () => {
    const fig = buildFigure(
      'LINE_CHART_CARD',
      {
        chart_keys: ['fasa r', 'fasa s'],
        chart_data: rows([[1, 2]]).map((r) => ({ ts: r.ts, 'fasa r': 1, 'fasa s': 2 })),
      } as never,
      {},
    );
    expect(fig.traces.map((t) => t.name)).toEqual(['Fasa R', 'Fasa S']);
  });

  it('draws an empty bar chart with a 0..1 axis and no tick labels, not −1..1', () => {
    const fig = buildFigure('BAR_CHART_CARD', { chart_keys: ['a'], chart_data: [] } as never, {});
    expect(fig.layout.yaxis).toMatchObject({ autorange: false, range: [0, 1], showticklabels: false });
    expect(fig.layout.xaxis.showticklabels).toBe(false);
  });

  it('formats the y axis like the cards: k from 1e3, full numbers when the card asks', () => {
    const data = { chart_keys: ['s0'], chart_data: rows([[1013], [1014]]) } as never;
    expect(buildFigure('LINE_CHART_CARD', data, {}).layout.yaxis).toMatchObject({
      exponentformat: 'B',
      minexponent: 3,
      separatethousands: true,
    });
    expect(buildFigure('LINE_CHART_CARD', data, { full_number: true }).layout.yaxis.exponentformat).toBe('none');
  });

  it('labels a week chart with dates, whatever its buckets (a 15-minute grid read 00:00:00 on every tick)', () => {
    const week = {
      chart_keys: ['s0'],
      chart_data: rows([[1], [2]]),
      window: { type: 'CUSTOM', start: 0, end: 7 * 86400_000, period: 'minute', interval: 15 },
    } as never;
    const x = buildFigure('LINE_CHART_CARD', week, {}).layout.xaxis;
    expect(x.tickformat).toBeUndefined();
    expect(x.tickformatstops.map((s: { value: string }) => s.value)).toEqual(
      expect.arrayContaining(['%d %b', '%d %b %H:%M']),
    );
    expect(x.tickformatstops.map((s: { value: string }) => s.value)).not.toContain('%H:%M:%S');
    // the card's own date format is every tick's
    const own = buildFigure('LINE_CHART_CARD', week, { date_format: 'DD MMM YY' }).layout.xaxis;
    expect(own.tickformat).toBe('%d %b %y');
    expect(own.tickformatstops).toBeUndefined();
  });

  it('hovers the nearest row at any x of a line or bar chart, not only within 20 px of a point', () => {
    const data = { chart_keys: ['s0'], chart_data: rows([[1], [2]]) } as never;
    expect(buildFigure('LINE_CHART_CARD', data, {}).layout).toMatchObject({ hovermode: 'x', hoverdistance: -1 });
    expect(buildFigure('BAR_CHART_CARD', data, {}).layout).toMatchObject({ hovermode: 'x', hoverdistance: -1 });
  });
});

describe('drag to zoom (a dashboard view)', () => {
  const at = (h: number, m = 0, s = 0, ms = 0) => new Date(2024, 2, 10, h, m, s, ms).getTime();
  it("reads Plotly's local wall-time x values back as instants", () => {
    expect(msOfX('2024-03-10 09:15:30.1234')).toBe(at(9, 15, 30, 123));
    expect(msOfX('2024-03-10 09:15')).toBe(at(9, 15));
    expect(msOfX('2024-03-10')).toBe(at(0));
    expect(msOfX('kemarin')).toBeUndefined();
  });
  it('turns a zoom selection into a range, in order; anything else is no zoom', () => {
    expect(zoomedRange({ 'xaxis.range[0]': '2024-03-10 09:00', 'xaxis.range[1]': '2024-03-10 11:30' })).toEqual({
      start: at(9),
      end: at(11, 30),
    });
    expect(zoomedRange({ 'xaxis.range': ['2024-03-10 11:00', '2024-03-10 10:00'] })).toEqual({
      start: at(10),
      end: at(11),
    });
    expect(zoomedRange({ 'xaxis.autorange': true })).toBeUndefined();
    expect(
      zoomedRange({ 'xaxis.range[0]': '2024-03-10 09:00', 'xaxis.range[1]': '2024-03-10 09:00:00.5' }),
    ).toBeUndefined();
    expect(zoomedRange(undefined)).toBeUndefined();
  });
  it('selects a band of time: the x axis zooms, the y axis stays', () => {
    const fig = buildFigure('LINE_CHART_CARD', { chart_keys: ['s0'], chart_data: rows([[1], [2]]) } as never, {});
    expect(fig.layout.dragmode).toBe(false);
    const z = zoomableLayout(fig.layout);
    expect(z).toMatchObject({ dragmode: 'zoom', xaxis: { fixedrange: false }, yaxis: { fixedrange: true } });
    expect(z.xaxis.tickformatstops).toEqual(fig.layout.xaxis.tickformatstops);
  });
});

describe('a line across empty buckets', () => {
  const M = 60_000;
  const t0 = new Date(2024, 2, 10, 0, 0).getTime();
  /** 15-minute buckets; readings every 30 minutes, then a silent device for three hours, then readings again */
  const grid = Array.from({ length: 40 }, (_, i) => {
    const ts = t0 + i * 15 * M;
    const silent = i >= 12 && i < 24;
    return { ts, p: i % 2 === 0 && !silent ? i : null };
  });

  it('joins readings over single empty buckets (a week of 30-minute readings in 15-minute buckets drew nothing)', () => {
    const line = lineOf(grid, 'p');
    expect(line.x.slice(0, 3)).toEqual([xOf(t0), xOf(t0 + 30 * M), xOf(t0 + 60 * M)]);
    expect(line.y.slice(0, 3)).toEqual([0, 2, 4]);
  });

  it('breaks the line where the readings really stop', () => {
    const line = lineOf(grid, 'p');
    const gap = line.y.indexOf(null);
    expect(gap).toBeGreaterThan(0);
    expect(line.y.filter((v) => v === null)).toHaveLength(1);
    // the break sits after the last reading before the silence (10 → break → 24)
    expect(line.y.slice(gap - 1, gap + 2)).toEqual([10, null, 24]);
  });

  it('spans the whole bucket grid, not only the readings; a stacked chart keeps the shared grid', () => {
    const data = { chart_keys: ['p'], chart_data: grid, window: { type: 'CUSTOM', start: t0, end: t0 + 40 * 15 * M } };
    const fig = buildFigure('LINE_CHART_CARD', data as never, {});
    expect(fig.layout.xaxis).toMatchObject({ autorange: false, range: [xOf(t0), xOf(t0 + 39 * 15 * M)] });
    const stacked = buildFigure('AREA_CHART_CARD', data as never, { is_stack: true });
    expect(stacked.traces[0]!.x).toHaveLength(40);
    const live = buildFigure('LINE_CHART_CARD', { ...data, window: { type: 'REALTIME' } } as never, {});
    expect(live.layout.xaxis.range).toBeUndefined();
  });
});

describe('a chart without readings', () => {
  it('is empty when its buckets hold no value (no axes around nothing), not only when it has no rows', () => {
    const t0 = new Date(2024, 2, 10).getTime();
    const buckets = {
      chart_keys: ['a'],
      chart_data: [
        { ts: t0, a: null },
        { ts: t0 + 3600_000, a: null },
      ],
    };
    const fig = buildFigure('LINE_CHART_CARD', { ...buckets, window: { type: 'PERIODIC' } } as never, {});
    expect(fig.empty).toBe(true);
    expect(fig.layout.yaxis).toMatchObject({ range: [0, 1], showticklabels: false });
    const one = {
      ...buckets,
      chart_data: [
        { ts: t0, a: 1 },
        { ts: t0 + 3600_000, a: null },
      ],
    };
    expect(buildFigure('LINE_CHART_CARD', one as never, {}).empty).toBe(false);
  });
});
