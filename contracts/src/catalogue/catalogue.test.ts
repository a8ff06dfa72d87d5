import { describe, expect, it } from 'vitest';
import {
  CARD_TYPES,
  CARD_TYPE_CODES,
  EDITOR_CATEGORIES,
  QUERY_KINDS,
  QUERY_OPTIONS,
  QUERY_TYPES,
  SINGLE_VALUE_SUBTYPES,
  UNIT_CODES,
  cardTypeLabel,
  cardTypeOfChoice,
  choiceOfCardType,
  editorSubtypes,
  gridHeight,
  periodicOptions,
  queryOption,
  storedHeight,
  type QueryKind,
} from './index.js';

const unique = (xs: readonly unknown[]) => new Set(xs).size === xs.length;
const queriesOf = (kind: QueryKind) => QUERY_OPTIONS[kind].flatMap((g) => g.options.map((o) => o.query));

describe('the dashboards catalogue', () => {
  it('lists the 44 card type codes of section 3 once each', () => {
    expect(CARD_TYPE_CODES).toHaveLength(44);
    expect(unique(CARD_TYPE_CODES)).toBe(true);
  });
  it('lists the 17 unit codes once each, and every single-value subtype names one', () => {
    expect(UNIT_CODES).toHaveLength(17);
    expect(unique(UNIT_CODES)).toBe(true);
    for (const s of SINGLE_VALUE_SUBTYPES) expect(UNIT_CODES).toContain(s.unit);
    expect(SINGLE_VALUE_SUBTYPES[0].label).toBe('Custom Unit');
  });
  it('lists the 9 query types', () => {
    expect(QUERY_TYPES).toEqual([
      'device_id',
      'device',
      'graph',
      'three_phase',
      'device_no_id',
      'tags',
      'none',
      'condition',
      'condition_bool',
    ]);
  });
  it.each(QUERY_KINDS)('offers each query function once to %s cards', (kind) => {
    expect(unique(queriesOf(kind))).toBe(true);
  });
  it('offers single-value cards LATEST, ONLINE, TOTAL_DEVICE, APP_ONLINE, the aggregates and the device info', () => {
    expect(queriesOf('single')).toEqual([
      'LATEST',
      'ONLINE',
      'TOTAL_DEVICE',
      'APP_ONLINE',
      'AVG',
      'COUNT',
      'MAX',
      'MIN',
      'SUM',
      'USAGE',
      'DEVICE_CATEGORY',
      'LABEL',
      'DEVICE_TYPE',
      'FIRMWARE',
      'LATITUDE',
      'LONGITUDE',
      'SN',
      'BOOL',
      'FORMAT',
      'IFELSE',
      'MATH',
    ]);
  });
  it('offers three-phase cards LATEST only, as a three_phase query', () => {
    expect(QUERY_OPTIONS.threePhase).toEqual([
      { group: 'data', options: [{ query: 'LATEST', queryType: 'three_phase' }] },
    ]);
  });
  it('lists LATEST first, then LATITUDE and LONGITUDE on map cards', () => {
    expect(queriesOf('map').slice(0, 3)).toEqual(['LATEST', 'LATITUDE', 'LONGITUDE']);
    expect([...queriesOf('map')].sort()).toEqual([...queriesOf('list')].sort());
  });
  it('offers title cards the device info', () => {
    expect(queriesOf('title').slice(0, 6)).toEqual([
      'DEVICE_CATEGORY',
      'FIRMWARE',
      'DEVICE_ID',
      'LABEL',
      'SN',
      'DEVICE_TYPE',
    ]);
  });
  it('offers chart cards AVG, COUNT, LAST, MAX, MIN, SAMPLE, SUM, USAGE as graph queries', () => {
    expect(QUERY_OPTIONS.chart[0].options.map((o) => o.query)).toEqual([
      'AVG',
      'COUNT',
      'LAST',
      'MAX',
      'MIN',
      'SAMPLE',
      'SUM',
      'USAGE',
    ]);
    expect(QUERY_OPTIONS.chart[0].options.every((o) => o.queryType === 'graph')).toBe(true);
  });
  it('gives every card kind but three-phase BOOL, FORMAT, IFELSE (condition_bool) and MATH', () => {
    for (const kind of QUERY_KINDS.filter((k) => k !== 'threePhase' && k !== 'none')) {
      expect(queriesOf(kind).slice(-4)).toEqual(['BOOL', 'FORMAT', 'IFELSE', 'MATH']);
      expect(queryOption(kind, 'IFELSE')?.queryType).toBe('condition_bool');
    }
  });
  it('maps every editor choice to a card type and back, each choice to one type', () => {
    const placed = CARD_TYPE_CODES.filter((cat) => choiceOfCardType(cat));
    for (const cat of placed) expect(cardTypeOfChoice(choiceOfCardType(cat)!)).toBe(cat);
    expect(unique(placed.map((cat) => JSON.stringify(choiceOfCardType(cat))))).toBe(true);
    // section 3 "Component category", "Category subtypes"
    expect(EDITOR_CATEGORIES).toEqual([
      'Chart',
      'Control',
      'Dropdown Selector',
      'List',
      'Map',
      'Single Value',
      'Three Phase',
      'Title',
    ]);
    expect(editorSubtypes('List')).toEqual(['Auto (by all/tags)', 'Manual', 'Transaction']);
    expect(editorSubtypes('Chart')).toEqual(['Area', 'Bar', 'Line', 'Pie']);
    expect(editorSubtypes('Control')).toEqual(['Boolean Input', 'Integer Input', 'String Input', 'Without Input']);
    expect(editorSubtypes('Map')).toEqual([]);
    expect(cardTypeOfChoice({ category: 'Control', subtype: 'Without Input' })).toBeUndefined();
    expect(cardTypeOfChoice({ category: 'Control', subtype: 'Without Input', controlMode: 'byTags' })).toBe(
      'BUTTON_TAGS_CARD',
    );
    expect(cardTypeOfChoice({ category: 'List' })).toBeUndefined();
    expect(cardTypeOfChoice({ category: 'Single Value', unit: 'RUPIAH' })).toBe('SINGLE_VALUE_CARD');
  });
  it('gives the command and coordinate cards the single-value Query options', () => {
    for (const kind of ['coordinate', 'threeValue', 'command', 'tagCommand'] as const)
      expect(QUERY_OPTIONS[kind]).toEqual(QUERY_OPTIONS.single);
  });
  it("names a card type in the editor's words, never a code the editor can make", () => {
    const modes = { manual: 'Manual', byTags: 'By All/Tags' };
    expect(cardTypeLabel('SINGLE_VALUE_CARD', modes)).toBe('Single Value');
    expect(cardTypeLabel('LINE_CHART_CARD', modes)).toBe('Chart · Line');
    expect(cardTypeLabel('INPUT_TOGGLE_TAGS_CARD', modes)).toBe('Control · Boolean Input · By All/Tags');
    for (const cat of CARD_TYPE_CODES) if (choiceOfCardType(cat)) expect(cardTypeLabel(cat, modes)).not.toMatch(/_/);
  });
  it('halves stored heights of 2 or more and doubles them on load, except title and dropdown cards', () => {
    expect(storedHeight('LINE_CHART_CARD', 4)).toBe(2);
    expect(storedHeight('LINE_CHART_CARD', 1)).toBe(1);
    expect(gridHeight('LINE_CHART_CARD', 2)).toBe(4);
    expect(storedHeight('TITLE', 2)).toBe(2);
    expect(gridHeight('DROPDOWN_SELECTOR', 1)).toBe(1);
  });
  it('gives list and graph cards a minimum of 2 x 4 and fixes the download card at 1 x 2', () => {
    expect(CARD_TYPES.LIST_CARD.size).toEqual({ minW: 2, minH: 4 });
    expect(CARD_TYPES.PIE_CHART_CARD.size).toEqual({ minW: 2, minH: 4 });
    expect(CARD_TYPES.DOWNLOAD_DATA_CARD.size).toMatchObject({ fixedW: 1, fixedH: 2 });
  });
  it('offers the periodic intervals of section 9 by range', () => {
    expect(periodicOptions('THIS_YEAR')).toEqual({ month: [1, 2], week: [1] });
    expect(periodicOptions('LAST_HOUR', 1)).toEqual({ minute: [1, 5, 10, 15] });
    expect(periodicOptions('LAST_HOUR', 12)).toEqual({ minute: [1, 5, 10, 15, 20, 30] });
    expect(periodicOptions('LAST_MINUTE', 15)).toEqual({ second: [10, 20, 30] });
  });
});
