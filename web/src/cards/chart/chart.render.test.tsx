// Render tests of the chart cards with fixture payloads. Plotly is replaced by a recorder (jsdom has no canvas): the
// tests read the traces and layout the card draws, the tooltips it shows on hover, and how REALTIME appends are drawn.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { T, type CardTypeCode } from '@sentra/contracts';
import { cardElement, renderCard, stubLayout } from '../cards.test-kit.js';
import { CHART_PALETTE, WARNING_RED } from '../common/palette.js';
import { xOf } from './series.js';

type Handler = (e: unknown) => void;
const calls = vi.hoisted(() => ({
  react: [] as { el: HTMLElement; data: any[]; layout: any }[],
  extend: [] as { update: any; indices: number[]; max: number }[],
}));
vi.mock('./plotly.js', () => {
  const fake = {
    react: (el: HTMLElement & { on?: unknown; handlers?: Map<string, Handler> }, data: any[], layout: any) => {
      calls.react.push({ el, data, layout });
      if (!el.handlers) {
        el.handlers = new Map();
        el.on = (ev: string, fn: Handler) => el.handlers!.set(ev, fn);
        (el as any).removeAllListeners = (ev: string) => el.handlers!.delete(ev);
      }
      return Promise.resolve(el);
    },
    extendTraces: (_el: HTMLElement, update: any, indices: number[], max: number) => {
      calls.extend.push({ update, indices, max });
      return Promise.resolve();
    },
    purge: () => undefined,
  };
  return { plotly: () => fake, PLOTLY_LOCALE: 'id' };
});

beforeAll(() => stubLayout());
beforeEach(() => {
  calls.react.length = 0;
  calls.extend.length = 0;
});
afterEach(cleanup);

const h = (n: number) => new Date(2024, 2, 10, n, 0, 0).getTime();
const rows = [
  { ts: h(8), r: 220.1, s: 219.8 },
  { ts: h(9), r: 221.4, s: 220.2 },
  { ts: h(10), r: 222.0, s: 221.0 },
];
const lastDraw = () => calls.react.at(-1)!;
const hover = async (x: string) => {
  const el = lastDraw().el as HTMLElement & { handlers: Map<string, Handler> };
  await vi.waitFor(() => expect(el.handlers.get('plotly_hover')).toBeTypeOf('function'));
  await act(async () =>
    el.handlers.get('plotly_hover')!({
      points: [{ x, data: { type: 'scatter' } }],
      event: { clientX: 10, clientY: 10 },
    }),
  );
};

const LINES: CardTypeCode[] = [
  'CHART_CARD',
  'LINE_CHART_CARD',
  'LINE_MONITORING_CHART_CARD',
  'LINE_SMART_CHART_CARD',
  'AREA_CHART_CARD',
  'AREA_MONITORING_CHART_CARD',
  'BAR_CHART_CARD',
  'BAR_MONITORING_CHART_CARD',
];

describe.each(LINES.map((c) => [c]))('%s', (cat) => {
  it('draws one trace per series in the 7-colour palette, with the view options', async () => {
    renderCard(cat, {
      view: {
        xlabel: 'Waktu',
        ylabel: 'Tegangan',
        graph_unit: 'V',
        is_stack: true,
        has_dot: true,
        is_dashed: true,
        graph_from_zero: true,
        graph_yaxis_min: 'auto',
        graph_yaxis_max: 250,
        reference_line_value: 230,
        reference_line_label: 'Batas',
      },
      data: {
        chart_keys: ['r', 's'],
        chart_data: rows,
        window: { type: 'PERIODIC', start: h(8), end: h(11), period: 'hour', interval: 1 },
      },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    const { data, layout } = lastDraw();
    // series are named by their labels as words (issue 28): 'r' → 'R'
    expect(data.map((t) => t.name)).toEqual(['R', 'S']);
    expect(data.map((t) => t.y)).toEqual([
      [220.1, 221.4, 222.0],
      [219.8, 220.2, 221.0],
    ]);
    expect(data[0].x[0]).toBe('2024-03-10 08:00');
    expect(data[1].marker.color).toBe(CHART_PALETTE[1]);
    if (cat.startsWith('BAR')) {
      expect(data[0].type).toBe('bar');
      expect(layout.barmode).toBe('stack');
    } else {
      expect(data[0].mode).toBe('lines+markers');
      expect(data[0].line.dash).toBe('dash');
      expect(data[0].stackgroup).toBe('one');
    }
    expect(layout.xaxis.title.text).toBe('Waktu');
    // within a day the ticks read the time alone (their format by the step Plotly picks)
    expect(layout.xaxis.tickformatstops.find((s: { value: string }) => s.value === '%H:%M')).toBeDefined();
    expect(layout.yaxis.title.text).toBe('Tegangan');
    expect(layout.yaxis.ticksuffix).toBe(' V');
    expect(layout.yaxis.rangemode).toBe('tozero');
    expect(layout.yaxis.range).toEqual([null, 250]);
    expect(layout.shapes[0]).toMatchObject({ y0: 230, y1: 230 });
    expect(layout.annotations[0].text).toBe('Batas');
    if (cat.includes('MONITORING'))
      expect(screen.getAllByTestId('chart-last').map((e) => e.textContent)).toEqual(['222,00 V', '221,00 V']);
    if (cat === 'LINE_SMART_CHART_CARD')
      expect(screen.getByTestId('chart-summary').textContent).toContain('max 222,00 V');
  });

  it('shows the generic tooltip: time, values with unit, total', async () => {
    renderCard(cat, {
      view: { graph_unit: 'kW', with_summary: true, labels: { r: 'Fase R', s: 'Fase S' } },
      data: {
        chart_keys: ['r', 's'],
        chart_data: rows,
        window: { type: 'PERIODIC', start: h(8), end: h(11), period: 'hour' },
      },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    await hover('2024-03-10 09:00');
    const tip = screen.getByTestId('chart-tooltip');
    expect(screen.getByTestId('tooltip-title').textContent).toBe('09:00, 10 Mar 24');
    expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual([
      'Fase R221,40 kW',
      'Fase S220,20 kW',
    ]);
    expect(screen.getByTestId('tooltip-total').textContent).toBe(`${T.cardViews.total}441,60 kW`);
    expect(tip).toBeTruthy();
  });
});

describe('x values', () => {
  it("are written as Plotly writes a hovered date back (trailing zero parts dropped), so a bucket's hover finds its row", () => {
    expect(xOf(h(9))).toBe('2024-03-10 09:00');
    expect(xOf(new Date(2024, 2, 10).getTime())).toBe('2024-03-10');
    expect(xOf(h(9) + 5000)).toBe('2024-03-10 09:00:05');
    expect(xOf(h(9) + 5250)).toBe('2024-03-10 09:00:05.25');
    expect(xOf(h(9) + 5007)).toBe('2024-03-10 09:00:05.007');
  });
});

describe('graph y-axis bounds', () => {
  it("fall back to 'auto' unless numeric", async () => {
    renderCard('LINE_CHART_CARD', {
      view: { graph_yaxis_min: 'abc', graph_yaxis_max: '' },
      data: { chart_keys: ['r'], chart_data: rows },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    expect(lastDraw().layout.yaxis).toMatchObject({ autorange: true, range: undefined });
  });

  it('use the card colours first, then the palette', async () => {
    renderCard('LINE_CHART_CARD', {
      view: { graph_colors: ['#000000'] },
      data: { chart_keys: ['r', 's'], chart_data: rows },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    expect(lastDraw().data.map((t) => t.line.color)).toEqual(['#000000', CHART_PALETTE[0]]);
  });
});

describe.each([['LINE_CHART_CARD'], ['AREA_CHART_CARD']] as [CardTypeCode][])(
  '%s with dots in their own colour (color_dot)',
  (cat) => {
    it('draws the dots in that colour and the lines in the palette', async () => {
      renderCard(cat, {
        view: { has_dot: true, color_dot: '#e53935' },
        data: { chart_keys: ['r', 's'], chart_data: rows },
      });
      await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
      const traces = lastDraw().data;
      expect(traces.map((t) => [t.mode, t.marker.color, t.line.color])).toEqual([
        ['lines+markers', '#e53935', CHART_PALETTE[0]],
        ['lines+markers', '#e53935', CHART_PALETTE[1]],
      ]);
    });
  },
);

describe('LINE_CHART_CARD with a single reading', () => {
  it('shows that reading as a dot (a line needs two), and a plain line once there are more', async () => {
    renderCard('LINE_CHART_CARD', {
      data: {
        chart_keys: ['r', 's'],
        chart_data: [
          { ts: h(8), r: 220.1, s: null },
          { ts: h(9), r: 221.4, s: 219.8 },
        ],
      },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    expect(lastDraw().data.map((t) => t.mode)).toEqual(['lines', 'lines+markers']);
  });
});

describe.each([['PIE_CHART_CARD'], ['PIE_MONITORING_CHART_CARD']] as [CardTypeCode][])('%s', (cat) => {
  it('draws one slice per series', async () => {
    renderCard(cat, {
      view: { graph_unit: 'kWh' },
      data: {
        chart_keys: ['a', 'b'],
        chart_data: [
          { key: 'a', value: 30 },
          { key: 'b', value: 70 },
        ],
      },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    const [pie] = lastDraw().data;
    expect(pie.type).toBe('pie');
    expect(pie.labels).toEqual(['A', 'B']);
    expect(pie.values).toEqual([30, 70]);
    expect(pie.marker.colors).toEqual([CHART_PALETTE[0], CHART_PALETTE[1]]);
    expect(screen.queryByTestId('chart-empty')).toBeNull();
  });

  const slices = {
    chart_keys: ['cuci', 'kering', 'setrika'],
    chart_data: [
      { key: 'cuci', value: 300 },
      { key: 'kering', value: 1200 },
      { key: 'setrika', value: 0 },
    ],
    time: h(10),
  };
  const hoverSlice = async (pointNumber: number) => {
    const el = lastDraw().el as HTMLElement & { handlers: Map<string, Handler> };
    await vi.waitFor(() => expect(el.handlers.get('plotly_hover')).toBeTypeOf('function'));
    await act(async () =>
      el.handlers.get('plotly_hover')!({
        points: [{ pointNumber, data: { type: 'pie' } }],
        event: { clientX: 10, clientY: 10 },
      }),
    );
  };

  it("shows each slice's value and share and the total with 'Tampilkan total' (with_summary)", async () => {
    renderCard(cat, { view: { graph_unit: 'kWh', with_summary: true, labels: { cuci: 'Mesin cuci' } }, data: slices });
    const items = await screen.findAllByTestId('pie-slice');
    expect(items.map((e) => e.textContent)).toEqual([
      'Mesin cuci300,00 kWh · 20%',
      'Kering1,20k kWh · 80%',
      'Setrika0,00 kWh · 0%',
    ]);
    expect(screen.getByTestId('pie-total').textContent).toBe(`${T.cardViews.total}1,50k kWh`);
    expect(T.dashboards.view.with_summary).toBe('Tampilkan total');
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    await hoverSlice(1);
    expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual(['Kering1,20k kWh · 80%']);
    expect(screen.getByTestId('tooltip-total').textContent).toBe(`${T.cardViews.total}1,50k kWh`);
  });

  it("shows a slice's value and share without a total or a summary when the card does not ask for totals", async () => {
    renderCard(cat, { view: { graph_unit: 'kWh' }, data: slices });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    expect(screen.queryByTestId('chart-summary')).toBeNull();
    await hoverSlice(0);
    expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual(['Cuci300,00 kWh · 20%']);
    expect(screen.queryByTestId('tooltip-total')).toBeNull();
  });

  it("says 'Semua nilai 0' when every slice is 0 (no pie to draw), not an empty card", async () => {
    renderCard(cat, {
      data: {
        chart_keys: ['w1', 'w2'],
        chart_data: [
          { key: 'w1', value: 0 },
          { key: 'w2', value: null },
        ],
      },
    });
    expect((await screen.findByTestId('chart-empty')).textContent).toBe(T.cardViews.allZero);
    expect(T.cardViews.allZero).toBe('Semua nilai 0');
  });
});

describe('a monitoring chart', () => {
  it("heads each series with the gateway's newest reading when it sends one, not the last bucket", async () => {
    renderCard('LINE_MONITORING_CHART_CARD', {
      view: { graph_unit: 'L' },
      data: {
        chart_keys: ['r', 's'],
        chart_data: rows,
        latest: { r: { value: 180.5, time: h(10) + 5 * 60_000 } },
      },
    });
    // r: the tank now (180,50 L), not the hour's MAX (222,00 L); s without one: its last bucket
    const last = await screen.findAllByTestId('chart-last');
    expect(last.map((e) => e.textContent)).toEqual(['180,50 L', '221,00 L']);
  });
});

describe('TEXT_CHART_CARD', () => {
  it('prints each series as text: latest value with unit, min, avg, max', async () => {
    renderCard('TEXT_CHART_CARD', { view: { graph_unit: 'V' }, data: { chart_keys: ['r', 's'], chart_data: rows } });
    const last = await screen.findAllByTestId('text-chart-last');
    expect(last.map((e) => e.textContent)).toEqual(['222,00 V', '221,00 V']);
    expect(screen.getByTestId('text-chart').textContent).toContain('min 220,10 V · avg 221,17 V · max 222,00 V');
    expect(calls.react).toHaveLength(0);
  });
});

describe('fuel station chart', () => {
  const fuel = [
    { ts: h(8), volume: 12000, fill: 0 },
    { ts: h(9), volume: 12250, fill: 250 },
    { ts: h(10), volume: 20000, fill: 8000 },
  ];
  it("draws a red warning dot on a fill below 300 L and says 'ada indikasi kecurangan!'", async () => {
    renderCard('LINE_CHART_CARD', {
      view: { tooltip: 'fuel' },
      data: { chart_keys: ['volume', 'fill'], chart_data: fuel },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    const warn = lastDraw().data.find((t) => t.name === 'warning');
    expect(warn.marker.color).toBe(WARNING_RED);
    expect(warn.y).toEqual([12250]);
    await hover('2024-03-10 09:00');
    expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual([
      `${T.cardViews.tank}12.250,00 L`,
      `${T.cardViews.fill}250,00 L`,
    ]);
    expect(screen.getByTestId('tooltip-alert').textContent).toBe('ada indikasi kecurangan!');
    expect(screen.getAllByTestId('tooltip-row')[1]!.querySelector('[data-warning]')).toBeTruthy();
    await hover('2024-03-10 10:00');
    expect(screen.queryByTestId('tooltip-alert')).toBeNull();
  });
  it("names the tank's product (its query's param) and finds the fill without a name to guess from", async () => {
    const rows = fuel.map(({ ts, volume, fill }) => ({ ts, sisa: volume, masuk: fill }));
    renderCard('LINE_MONITORING_CHART_CARD', {
      view: { tooltip: 'fuel', graph_unit: 'L' },
      model: {
        value: {
          query: 'MAX',
          queryType: 'graph',
          device_id: 1,
          sensor: 'tank',
          config: 'data',
          param: 'Pertamax',
          subparam: ['volume', 'fill'],
          subparam_label: ['sisa', 'masuk'],
        },
      },
      data: { chart_keys: ['sisa', 'masuk'], chart_data: rows },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    expect(lastDraw().data.find((t) => t.name === 'warning').y).toEqual([12250]);
    await hover('2024-03-10 09:00');
    expect(screen.getByTestId('tooltip-title').textContent).toBe('09:00, 10 Mar 24 · Pertamax');
    expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual([
      `${T.cardViews.tank}12.250,00 L`,
      `${T.cardViews.fill}250,00 L`,
    ]);
    expect(screen.getByTestId('tooltip-alert').textContent).toBe('ada indikasi kecurangan!');
  });

  it('shift totals: each product by name with its totalizer, and the total', async () => {
    renderCard('BAR_CHART_CARD', {
      view: { tooltip: 'fuel_shift', graph_unit: 'L', is_stack: true },
      data: {
        chart_keys: ['pertalite', 'pertamax', 'pertamax turbo'],
        chart_data: [{ ts: h(8), pertalite: 1000, pertamax: 250.5, 'pertamax turbo': 20 }],
      },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    await hover('2024-03-10 08:00');
    expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual([
      'PertaliteTotalizer 126.430,00 L1.000,00 L',
      'PertamaxTotalizer 48.465,50 L250,50 L',
      'Pertamax Turbo20,00 L',
    ]);
    expect(screen.getByTestId('tooltip-total').textContent).toBe(`${T.cardViews.total}1.270,50 L`);
  });

  it.each([[{ fill_key: 'pengisian' }], [{}]])(
    "reads the demo SPBU tank chart (one product's subparams volume and fill, labelled sisa_bbm and pengisian) %o",
    async (extra) => {
      const rows = fuel.map(({ ts, volume, fill }) => ({ ts, sisa_bbm: volume, pengisian: fill }));
      renderCard('LINE_MONITORING_CHART_CARD', {
        view: { tooltip: 'fuel', graph_unit: 'L', ...extra },
        data: { chart_keys: ['sisa_bbm', 'pengisian'], chart_data: rows },
      });
      await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
      expect(lastDraw().data.find((t) => t.name === 'warning').y).toEqual([12250]);
      await hover('2024-03-10 09:00');
      expect(screen.getAllByTestId('tooltip-row').map((r) => r.textContent)).toEqual([
        `${T.cardViews.tank}12.250,00 L`,
        `${T.cardViews.fill}250,00 L`,
      ]);
      expect(screen.getByTestId('tooltip-alert').textContent).toBe(T.dashboards.tooltips.fraudHint);
    },
  );
});

describe('laundry charts', () => {
  it('vending tooltip: on/off percentages', async () => {
    renderCard('BAR_CHART_CARD', {
      view: { tooltip: 'vending' },
      data: { chart_keys: ['washer_1'], chart_data: [{ ts: h(8), washer_1: 0.5 }] },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    await hover('2024-03-10 08:00');
    expect(screen.getAllByTestId('tooltip-row')[0]!.textContent).toBe('Washer 1Menyala 50% · Mati 50%');
  });
  it('usage tooltip: count of runs', async () => {
    renderCard('BAR_CHART_CARD', {
      view: { tooltip: 'laundry_usage' },
      data: { chart_keys: ['washer_1'], chart_data: [{ ts: h(8), washer_1: 7 }] },
    });
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    await hover('2024-03-10 08:00');
    expect(screen.getAllByTestId('tooltip-row')[0]!.textContent).toBe('Washer 17 kali');
  });
});

describe('REALTIME charts', () => {
  it('extend their traces with pushed points instead of redrawing', async () => {
    const window = { type: 'REALTIME', ndata: 10 };
    const data = { chart_keys: ['r'], chart_data: rows.map(({ ts, r }) => ({ ts, r })), window };
    const { rerender } = render(cardElement('LINE_CHART_CARD', { data }));
    await vi.waitFor(() => expect(calls.react.length).toBeGreaterThan(0), { timeout: 8000 });
    const draws = calls.react.length;
    const added = { ts: h(11), r: 223.3 };
    rerender(
      cardElement('LINE_CHART_CARD', {
        data: { ...data, chart_data: [...data.chart_data, added] },
        state: { frame: 1, seq: 1, appends: [{ seq: 1, rows: [added] }] },
      }),
    );
    await vi.waitFor(() => expect(calls.extend).toHaveLength(1));
    expect(calls.react.length).toBe(draws);
    expect(calls.extend[0]).toMatchObject({
      indices: [0],
      max: 10,
      update: { y: [[223.3]], x: [['2024-03-10 11:00']] },
    });
    // a new full frame redraws
    rerender(cardElement('LINE_CHART_CARD', { data, state: { frame: 2, seq: 1, appends: [] } }));
    await vi.waitFor(() => expect(calls.react.length).toBe(draws + 1));
  });
});
