import { describe, expect, it } from 'vitest';
import { CARD_TYPE_CODES, ComponentView, T } from '@sentra/contracts';
import { registry } from '../../../cards/registry.js';
import {
  initialView,
  seriesChoices,
  viewFieldErrors,
  viewFieldsOf,
  viewFormValues,
  viewFromForm,
} from './viewFields.js';

const schemaFields = Object.keys(ComponentView.shape).filter((k) => k !== 'decimal' && k !== 'type');

describe('Visualisasi fields per card type', () => {
  it('lists fields for every card type code, each once', () => {
    expect(Object.keys(registry).sort()).toEqual([...CARD_TYPE_CODES].sort());
    for (const cat of CARD_TYPE_CODES) {
      const names = viewFieldsOf(cat).map((s) => s.name);
      expect(new Set(names).size, cat).toBe(names.length);
    }
  });
  it('only offers fields of the stored view schema, and offers every view field of section 3 somewhere', () => {
    const offered = new Set(CARD_TYPE_CODES.flatMap((cat) => viewFieldsOf(cat).map((s) => s.name as string)));
    for (const name of offered) expect(schemaFields).toContain(name);
    expect([...offered].sort()).toEqual([...schemaFields].sort());
  });
  it.each(CARD_TYPE_CODES)('gives %s a view the schema accepts, from its initial values', (cat) => {
    expect(ComponentView.safeParse(initialView(cat)).success).toBe(true);
  });
  it("starts the title card with 'Title' and command cards with 'Tombol perintah' / 'Kirim perintah' and 'Kirim'", () => {
    expect(initialView('TITLE')).toEqual({ title: 'Title' });
    expect(initialView('BUTTON_CARD')).toEqual({ title: T.dashboards.commands.buttonTitle, button_label: 'Kirim' });
    expect(initialView('INPUT_NUMBER_CARD')).toMatchObject({ title: 'Kirim perintah', min: 0, max: 100 });
    expect(initialView('INPUT_TEXT_CARD')).toMatchObject({ max: 30 });
  });
  it.each([
    'CHART_CARD',
    'LINE_CHART_CARD',
    'LINE_MONITORING_CHART_CARD',
    'LINE_SMART_CHART_CARD',
    'AREA_CHART_CARD',
    'AREA_MONITORING_CHART_CARD',
  ] as const)('offers %s the dot colour right after its dots', (cat) => {
    const names = viewFieldsOf(cat).map((s) => s.name);
    expect(names.indexOf('color_dot')).toBe(names.indexOf('has_dot') + 1);
    expect(viewFieldsOf(cat).find((s) => s.name === 'color_dot')?.label).toBe(T.dashboards.view.color_dot);
  });
  it.each(['INPUT_DATE_CARD', 'INPUT_DATE_RANGE_CARD'] as const)(
    "offers %s the date card formats, starting at 'DD MMM YYYY' and 'HH:mm'",
    (cat) => {
      const specs = viewFieldsOf(cat);
      const dateFormat = specs.find((s) => s.name === 'date_format')!;
      expect(dateFormat.options!.map((o) => o.label)).toEqual([
        'DD MMM YYYY',
        'DD MMMM YYYY',
        'DD MMM YY',
        'DD-MM-YYYY',
        'DD/MM/YYYY',
        'YYYY-MM-DD',
      ]);
      expect(specs.find((s) => s.name === 'time_format')!.options!.map((o) => o.label)).toEqual(['HH:mm', 'HH:mm:ss']);
      expect(viewFormValues(specs, {})).toMatchObject({
        date_format: 'DD MMM YYYY',
        time_format: 'HH:mm',
        locale: 'id-ID',
      });
    },
  );
  it.each([
    'LINE_CHART_CARD',
    'LINE_MONITORING_CHART_CARD',
    'AREA_CHART_CARD',
    'BAR_CHART_CARD',
    'BAR_MONITORING_CHART_CARD',
  ] as const)('lets %s choose its tooltip kind and fuel fill series', (cat) => {
    const specs = viewFieldsOf(cat);
    expect(specs.find((s) => s.name === 'tooltip')!.options).toEqual([
      { value: 'generic', label: T.dashboards.view.tooltipKinds.generic },
      { value: 'fuel', label: 'SPBU: sisa BBM dan pengisian' },
      { value: 'fuel_shift', label: 'SPBU: total per shift' },
      { value: 'laundry_usage', label: 'Laundry: jumlah pemakaian' },
      { value: 'vending', label: 'Laundry/dryer: nyala/mati (%)' },
    ]);
    expect(specs.find((s) => s.name === 'fill_key')).toMatchObject({ kind: 'series', label: 'Seri pengisian BBM' });
    const view = viewFromForm(specs, { ...viewFormValues(specs, {}), tooltip: 'fuel', fill_key: 'pengisian' }, {});
    expect(view).toMatchObject({ tooltip: 'fuel', fill_key: 'pengisian' });
    expect(ComponentView.safeParse(view).success).toBe(true);
  });
  it("offers the value query's series as the fill series choices", () => {
    const value = {
      query: 'MAX',
      queryType: 'graph',
      device_id: 1,
      sensor: 'tank',
      config: 'data',
      param: 'Pertalite',
      subparam: ['volume', 'fill'],
      subparam_label: ['sisa_bbm', 'pengisian'],
    };
    expect(seriesChoices({ value })).toEqual(['sisa_bbm', 'pengisian']);
    expect(seriesChoices({ value: { ...value, subparam: 'volume', subparam_label: undefined } })).toEqual(['volume']);
    expect(seriesChoices({ value: { ...value, subparam: undefined, param_label: 'tangki' } })).toEqual(['tangki']);
    expect(seriesChoices({})).toEqual([]);
  });
  it('gives line charts the graph fields', () => {
    expect(viewFieldsOf('LINE_CHART_CARD').map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'xlabel',
        'ylabel',
        'is_stack',
        'has_dot',
        'color_dot',
        'graph_colors',
        'graph_yaxis_min',
        'graph_yaxis_max',
        'reference_line_value',
        'with_summary',
        'is_dashed',
      ]),
    );
  });
});

describe('Visualisasi values', () => {
  const specs = viewFieldsOf('LINE_CHART_CARD');
  it('round-trips a stored view and keeps fields the form does not own', () => {
    const stored = {
      decimal: 3,
      title: 'Daya',
      graph_colors: ['#ff0000'],
      is_stack: true,
      graph_yaxis_min: 0,
      graph_yaxis_max: 'auto',
      extra: 1,
    };
    expect(viewFromForm(specs, viewFormValues(specs, stored), stored)).toEqual({ ...stored, locale: 'id-ID' });
  });
  it("falls back to 'auto' for a y-axis bound that is not numeric", () => {
    const values = { ...viewFormValues(specs, {}), graph_yaxis_min: 'abc', graph_yaxis_max: '12' };
    expect(viewFromForm(specs, values, {})).toMatchObject({ graph_yaxis_min: 'auto', graph_yaxis_max: 12 });
  });
  it('removes an emptied field and refuses a number that is not one', () => {
    const values = { ...viewFormValues(specs, { title: 'x' }), title: '', reference_line_value: '1,5x' };
    expect(viewFromForm(specs, values, { title: 'x' })).not.toHaveProperty('title');
    expect(viewFieldErrors(specs, values)).toEqual({ reference_line_value: T.dashboards.view.notNumber });
  });
  it('reads comma-separated lists', () => {
    const crack = viewFieldsOf('CRACK_CARD');
    const view = viewFromForm(
      crack,
      { ...viewFormValues(crack, {}), crack_labels: 'a, b', crack_lengths: '1, 2.5' },
      {},
    );
    expect(view).toMatchObject({ crack_labels: ['a', 'b'], crack_lengths: [1, 2.5] });
  });
});
