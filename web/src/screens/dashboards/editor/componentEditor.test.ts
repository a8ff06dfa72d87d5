import { describe, expect, it } from 'vitest';
import { Component, T, type ComponentInput } from '@sentra/contracts';
import { EXAMPLE_COMPONENTS } from '../../../../../contracts/src/models/dashboard/examples.js';
import {
  cardTypeOf,
  componentEditorFrom,
  componentOf,
  newComponentEditor,
  noDataByTags,
  queryOf,
  querySlots,
  saveQuestion,
  type ComponentEditorEvent,
} from './componentEditor.js';
import { AVG_VOLTAGE, LATEST_ENERGY, runEditor } from './editor.test-kit.js';

const t = T.dashboards;
const run = runEditor;
const latest = LATEST_ENERGY;
const avg = AVG_VOLTAGE;
const singleValue: ComponentEditorEvent[] = [
  { type: 'changeKey', key: 'energi' },
  { type: 'chooseCategory', category: 'Single Value' },
  { type: 'setQuery', role: 'value', query: latest },
];
const lineChart: ComponentEditorEvent[] = [
  { type: 'chooseCategory', category: 'Chart' },
  { type: 'chooseSubtype', subtype: 'Line' },
  { type: 'setVariable', key: 'var_a', value: 3 },
  { type: 'setQuery', role: 'value', query: avg },
  { type: 'setView', view: { title: 'Tegangan' } },
  { type: 'changeTags', tags: ['gedung_a'] },
  { type: 'changePosition', position: { x: '2', y: '5' } },
];

describe('component editor: key, refresh and decimals', () => {
  it(`refuses an empty key with "${t.component.keyRequired}"`, () => {
    expect(run([...singleValue, { type: 'changeKey', key: '' }, { type: 'save' }]).errors.key).toBe(
      'Component key tidak boleh kosong!',
    );
  });
  it(`refuses a key with spaces with "${t.component.keyNoSpaces}"`, () => {
    expect(run([...singleValue, { type: 'changeKey', key: 'dua kata' }, { type: 'save' }]).errors.key).toBe(
      'Tidak boleh mengandung spasi',
    );
  });
  it('keeps the key read-only when editing', () => {
    const state = componentEditorFrom(EXAMPLE_COMPONENTS.voltage!)!;
    expect(run([{ type: 'changeKey', key: 'lain' }], state).key).toBe('voltage');
  });
  it(`refuses an empty refresh rate with "${t.form.refreshRequired}" and one under 500 ms`, () => {
    expect(run([...singleValue, { type: 'changeRefresh', refresh: '' }, { type: 'save' }]).errors.refresh).toBe(
      t.form.refreshRequired,
    );
    expect(run([...singleValue, { type: 'changeRefresh', refresh: '200' }, { type: 'save' }]).errors.refresh).toBe(
      t.form.refreshMin,
    );
    expect(
      run([...singleValue, { type: 'changeRefresh', refresh: '500' }, { type: 'save' }]).errors.refresh,
    ).toBeUndefined();
  });
  it('starts with refresh 0 (auto) and 2 decimals, and refuses decimals outside 0 to 5', () => {
    expect(newComponentEditor()).toMatchObject({ refresh: '0', decimal: '2' });
    expect(run([...singleValue, { type: 'changeDecimal', decimal: '6' }, { type: 'save' }]).errors.decimal).toBe(
      t.form.decimalRange,
    );
  });
});

describe("component editor: category and type changes ('Semua variabel akan di hapus!')", () => {
  it('applies a first category choice at once, with its minimum size at the first free row', () => {
    const state = newComponentEditor({
      existing: { voltage: EXAMPLE_COMPONENTS.voltage!, trend: EXAMPLE_COMPONENTS.trend! },
    });
    const chosen = run(
      [
        { type: 'chooseCategory', category: 'Chart' },
        { type: 'chooseSubtype', subtype: 'Area' },
      ],
      state,
    );
    expect(chosen.pending).toBeUndefined();
    expect(chosen.position).toEqual({ x: '0', y: '7', w: '2', h: '4' });
  });
  it('asks for confirmation when the category changes', () => {
    const state = run([...lineChart, { type: 'chooseCategory', category: 'List' }]);
    expect(state.pending).toBeDefined();
    expect(state.choice.category).toBe('Chart');
  });
  it('clears local variables, model and view, and resets type selections, position, size and tags on confirm', () => {
    const state = run([...lineChart, { type: 'chooseCategory', category: 'Map' }, { type: 'confirmChoice' }]);
    expect(state).toMatchObject({ choice: { category: 'Map' }, vars: {}, model: {}, view: {}, tags: [] });
    expect(state.position).toEqual({ x: '0', y: '0', w: '1', h: '2' });
  });
  it('keeps everything when the change is cancelled', () => {
    const before = run(lineChart);
    const state = run([{ type: 'chooseCategory', category: 'Map' }, { type: 'cancelChoice' }], before);
    expect(state).toMatchObject({
      choice: before.choice,
      vars: before.vars,
      model: before.model,
      view: before.view,
      position: before.position,
    });
  });
  it.each([['the chart type', [{ type: 'chooseSubtype', subtype: 'Bar' }] as ComponentEditorEvent[]]])(
    'asks when %s changes, and on confirm clears variables, model and view but keeps the position',
    (_, change) => {
      const asked = run([...lineChart, ...change]);
      expect(asked.pending).toBeDefined();
      const state = run([{ type: 'confirmChoice' }], asked);
      expect(cardTypeOf(state)).toBe('BAR_CHART_CARD');
      expect(state).toMatchObject({ vars: {}, model: {}, view: {} });
      expect(state.position).toMatchObject({ x: '2', y: '5' });
    },
  );
  it('asks when the list type changes', () => {
    const list: ComponentEditorEvent[] = [
      { type: 'chooseCategory', category: 'List' },
      { type: 'chooseSubtype', subtype: 'Manual' },
    ];
    expect(run([...list, { type: 'chooseSubtype', subtype: 'Transaction' }]).pending).toBeDefined();
  });
  it('asks when the control type or the Manual / By All/Tags toggle changes', () => {
    const control: ComponentEditorEvent[] = [
      { type: 'chooseCategory', category: 'Control' },
      { type: 'chooseSubtype', subtype: 'Boolean Input' },
    ];
    expect(cardTypeOf(run(control))).toBe('INPUT_TOGGLE_CARD');
    expect(run([...control, { type: 'chooseSubtype', subtype: 'Integer Input' }]).pending).toBeDefined();
    const toggled = run([...control, { type: 'chooseControlMode', controlMode: 'byTags' }]);
    expect(toggled.pending).toBeDefined();
    expect(cardTypeOf(run([{ type: 'confirmChoice' }], toggled))).toBe('INPUT_TOGGLE_TAGS_CARD');
  });
  it('changes the single-value unit without asking or deleting anything', () => {
    const state = run([
      ...singleValue,
      { type: 'setVariable', key: 'a', value: 1 },
      { type: 'chooseUnit', unit: 'VOLT' },
    ]);
    expect(state.pending).toBeUndefined();
    expect(state.vars).toEqual({ a: 1 });
    expect(componentOf(state).component?.view?.type).toBe('VOLT');
  });
  it('starts Single Value with Custom Unit and Control with Manual', () => {
    expect(run([{ type: 'chooseCategory', category: 'Single Value' }]).choice.unit).toBe('CUSTOM');
    expect(run([{ type: 'chooseCategory', category: 'Control' }]).choice.controlMode).toBe('manual');
  });
});

describe('component editor: saving', () => {
  it('needs a category, a position and a size', () => {
    const state = run([
      { type: 'changeKey', key: 'k' },
      { type: 'changePosition', position: { x: '', w: '' } },
      { type: 'save' },
    ]);
    expect(state.errors).toMatchObject({ category: T.common.required, position: T.common.required });
    const sized = run([...singleValue, { type: 'changePosition', position: { w: '' } }, { type: 'save' }]);
    expect(sized.errors.size).toBe(T.common.required);
  });
  it(`refuses an incomplete model with "${t.component.incomplete}"`, () => {
    const state = run([
      { type: 'changeKey', key: 'k' },
      { type: 'chooseCategory', category: 'Three Phase' },
      { type: 'save' },
    ]);
    expect(state.errors['model.value']).toBe('Masih ada data yang tidak lengkap!');
  });
  it(`asks a map for latitude ("${t.component.latitudeRequired}") and longitude ("${t.component.longitudeRequired}")`, () => {
    const state = run([
      { type: 'changeKey', key: 'peta' },
      { type: 'chooseCategory', category: 'Map' },
      { type: 'save' },
    ]);
    expect(state.errors['model.latitude']).toBe('Latitude tidak boleh kosong');
    expect(state.errors['model.longitude']).toBe('Longitude tidak boleh kosong');
  });
  it('refuses a size under the minimum of the card type', () => {
    const state = run([
      { type: 'changeKey', key: 'k' },
      ...lineChart,
      { type: 'changePosition', position: { x: '0', h: '2' } },
      { type: 'save' },
    ]);
    expect(state.errors.size).toBe(t.component.tooSmall(2, 4));
  });
  it('stores heights halved and the Single Value unit in view.type, and the component parses', () => {
    const state = run([...singleValue, { type: 'changePosition', position: { h: '4' } }, { type: 'save' }]);
    expect(state.submit).toBe('ready');
    expect(state.component).toMatchObject({
      key: 'energi',
      cat: 'SINGLE_VALUE_CARD',
      x: 0,
      y: 0,
      w: 1,
      h: 2,
      config: { refresh: 0 },
    });
    expect(state.component?.view).toMatchObject({ decimal: 2, type: 'CUSTOM' });
    expect(Component.safeParse(state.component).success).toBe(true);
  });
  it('asks to replace a component saved under an existing key', () => {
    const state = run(
      [...singleValue, { type: 'changeKey', key: 'voltage' }, { type: 'save' }],
      newComponentEditor({ existing: { voltage: EXAMPLE_COMPONENTS.voltage! } }),
    );
    expect(state.submit).toBe('confirm');
    expect(saveQuestion(state)).toEqual({ title: t.editor.keyExistsTitle, message: t.editor.keyExistsQuestion });
    expect(run([{ type: 'confirmSave' }], state).submit).toBe('ready');
    expect(run([{ type: 'cancelSave' }], state).submit).toBe('idle');
  });
  it(`asks "${t.confirm.saveComponent}" when saving an edited component`, () => {
    const state = run([{ type: 'save' }], componentEditorFrom(EXAMPLE_COMPONENTS.voltage!)!);
    expect(saveQuestion(state)?.message).toBe('Apakah anda yakin untuk menyimpan konfigurasi baru ini?');
  });
  it('drops empty tags and stores the rest in the model', () => {
    const state = run([...singleValue, { type: 'changeTags', tags: ['a', ' ', 'b'] }, { type: 'save' }]);
    expect(state.component?.model?.tags).toEqual(['a', 'b']);
  });
  it("stores a command card's target in model.config and its status as a query", () => {
    const events: ComponentEditorEvent[] = [
      { type: 'changeKey', key: 'pompa' },
      { type: 'chooseCategory', category: 'Control' },
      { type: 'chooseSubtype', subtype: 'Without Input' },
      {
        type: 'setQuery',
        role: 'command',
        query: { queryType: 'device', device_id: 'dev2', sensor: 'relay', config: 'out', param: 'pump' },
      },
      { type: 'save' },
    ];
    const state = run(events);
    expect(state.component).toMatchObject({
      cat: 'BUTTON_CARD',
      model: { config: { device_id: 'dev2', sensor: 'relay', config: 'out', param: 'pump' } },
    });
    expect(queryOf(state, 'command')).toMatchObject({ queryType: 'device', device_id: 'dev2' });
    expect(run([...events.slice(0, 3), { type: 'save' }]).errors['model.command']).toBe(t.component.incomplete);
  });
});

describe('component editor: editing', () => {
  it.each(Object.values(EXAMPLE_COMPONENTS).filter((c) => !['WEBSERVICE'].includes(c.cat)))(
    'prefills $key and saves it back unchanged',
    (component: ComponentInput) => {
      const state = run([{ type: 'save' }, { type: 'confirmSave' }], componentEditorFrom(component)!);
      const stored = Component.parse(component);
      // what the form adds: the default refresh and decimals, Single Value's default unit; what it drops: empty tags
      const view = { decimal: 2, ...(stored.cat === 'SINGLE_VALUE_CARD' ? { type: 'CUSTOM' } : {}), ...stored.view };
      const { tags, ...model } = stored.model ?? {};
      const expected = {
        ...stored,
        view,
        config: { refresh: 0 },
        ...(stored.model ? { model: tags?.length ? stored.model : model } : {}),
      };
      expect(Component.parse(state.component)).toEqual(expected);
    },
  );
  it('refuses to draw a type the selectors cannot reach (manual JSON only)', () => {
    expect(componentEditorFrom(EXAMPLE_COMPONENTS.portal!)).toBeUndefined();
  });
});

describe('component editor: queries per card type', () => {
  it('asks a map for latitude and longitude, and a title for an optional value', () => {
    expect(querySlots('MAP_CARD').map((s) => [s.role, s.required])).toEqual([
      ['latitude', true],
      ['longitude', true],
      ['value', false],
    ]);
    expect(querySlots('TITLE')).toEqual([{ role: 'value', required: false, kind: 'title' }]);
  });
  it('gives command cards a fixed-type target: one device (Manual) or the sensors tree (By All/Tags)', () => {
    expect(querySlots('BUTTON_CARD')[0]).toMatchObject({ role: 'command', fixedQueryType: 'device' });
    expect(querySlots('BUTTON_TAGS_CARD')[0]).toMatchObject({ role: 'command', fixedQueryType: 'device_no_id' });
    expect(querySlots('DROPDOWN_SELECTOR')).toEqual([]);
  });
  it(`says "${t.component.noDataByTags}" when the tags select no device and no sensor`, () => {
    expect(noDataByTags(['x'], { devices: {}, sensors: {} })).toBe('Tidak ada data berdasarkan penanda!');
    expect(noDataByTags([], { devices: {}, sensors: {} })).toBeUndefined();
    expect(noDataByTags(['x'], { devices: { a: {} }, sensors: {} })).toBeUndefined();
  });
});
