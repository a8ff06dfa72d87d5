// STYLE.md's registry test: every card type of spec 02 section 3 has exactly one definition whose defaults parse,
// whose minimum size is section 5's and not above its default, and whose editor fields exist in the view schema.
import { describe, expect, it } from 'vitest';
import { CARD_TYPES, CARD_TYPE_CODES, ComponentView, T, type CardTypeCode } from '@sentra/contracts';
import { initialView, viewFieldsOf } from '../screens/dashboards/editor/viewFields.js';
import { CARD_DEFINITIONS, registry } from './registry.js';

// spec 02 section 5 "Minimum card size", in editor grid units (w × h)
const SECTION_5_MIN: Record<string, { w: number; h: number }> = {
  LIST: { w: 2, h: 4 },
  CHART: { w: 2, h: 4 },
  TALL: { w: 1, h: 4 },
};
function expectedMin(cat: CardTypeCode): { w: number; h: number } {
  if (cat === 'DOWNLOAD_DATA_CARD') return { w: 1, h: 2 };
  if (cat === 'TITLE') return { w: 1, h: 1 };
  if (cat === 'DROPDOWN_SELECTOR') return { w: 2, h: 1 };
  if (cat === 'MAP_CARD') return { w: 1, h: 2 };
  if (['THREE_PHASE_CARD', 'COORDINATE_CARD', 'STRAIN_CARD', 'CRACK_CARD', 'DATA_VALUE_CARD'].includes(cat))
    return SECTION_5_MIN.TALL!;
  const group = CARD_TYPES[cat].group;
  if (group === 'list') return SECTION_5_MIN.LIST!;
  if (group === 'chart') return SECTION_5_MIN.CHART!;
  if (['SINGLE_IMAGE_CARD', 'EMBEDDED_DASHBOARD', 'WEBSERVICE', 'WEBSERVICE_FETCH'].includes(cat))
    return { w: 2, h: 4 };
  return { w: 1, h: 2 };
}

describe('card registry', () => {
  it('lists every card type code of section 3 exactly once', () => {
    const types = CARD_DEFINITIONS.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...CARD_TYPE_CODES].sort());
    expect(CARD_TYPE_CODES).toHaveLength(44);
  });

  describe.each(CARD_TYPE_CODES.map((c) => [c]))('%s', (cat) => {
    const def = registry[cat];

    it('takes its category and query kind from the catalogue', () => {
      expect(def.type).toBe(cat);
      expect(def.category).toBe(CARD_TYPES[cat].group);
      expect(def.queryKind).toBe(CARD_TYPES[cat].kind);
      expect(def.label.length).toBeGreaterThan(0);
      expect(typeof def.view).toBe('object');
    });

    it('parses its defaults with its config schema', () => {
      expect(def.config.safeParse(def.defaults).success).toBe(true);
      expect(ComponentView.safeParse(def.defaults).success).toBe(true);
    });

    it('has the minimum size of section 5, not above its default size', () => {
      expect(def.size.min).toEqual(expectedMin(cat));
      expect(def.size.default.w).toBeGreaterThanOrEqual(def.size.min.w);
      expect(def.size.default.h).toBeGreaterThanOrEqual(def.size.min.h);
      expect(def.size.default.w).toBeLessThanOrEqual(4);
      if (cat === 'DOWNLOAD_DATA_CARD') expect(def.size).toMatchObject({ fixed: true, default: { w: 1, h: 2 } });
      if (cat === 'TITLE') expect(def.size.default.h).toBe(1);
    });

    it('offers editor fields that exist in the view schema', () => {
      const fields = def.fields;
      const known = new Set(Object.keys(ComponentView.shape));
      for (const f of fields) expect(known.has(f.name), `${cat}: ${f.name}`).toBe(true);
    });

    it("starts the editor's fields from its defaults, and only from them (one source)", () => {
      const fields = viewFieldsOf(cat);
      const offered = new Map(fields.map((f) => [f.name as string, f]));
      expect(fields.map((f) => f.name)).toEqual(def.fields.map((f) => f.name));
      for (const [name, value] of Object.entries(def.defaults)) {
        // the subtype (type) and decimals belong to the editor form itself, not to the Visualisasi fields
        if (name === 'type' || name === 'decimal') continue;
        expect(offered.has(name), `${cat}: the default ${name} is not an editor field`).toBe(true);
        expect(offered.get(name)!.initial, `${cat}: the editor starts ${name} elsewhere than the default`).toEqual(
          value,
        );
      }
      for (const f of fields)
        if (f.initial !== undefined)
          expect(def.defaults, `${cat}: the editor starts ${f.name} without a default`).toHaveProperty(
            [f.name],
            f.initial,
          );
      expect(initialView(cat)).toEqual(
        Object.fromEntries(Object.entries(def.defaults).filter(([k]) => k !== 'type' && k !== 'decimal')),
      );
    });

    it('offers the query options of its kind', () => {
      if (def.queryKind === 'none') expect(def.queryOptions).toHaveLength(0);
      else expect(def.queryOptions.length).toBeGreaterThan(0);
    });
  });

  it('gives command cards the spec defaults', () => {
    const c = T.dashboards.commands;
    expect(registry.BUTTON_CARD.defaults).toMatchObject({ title: c.buttonTitle, button_label: c.send });
    expect(registry.INPUT_TOGGLE_CARD.defaults).toMatchObject({ title: c.buttonTitle });
    expect(registry.INPUT_NUMBER_CARD.defaults).toMatchObject({ title: c.inputTitle, min: 0, max: 100 });
    expect(registry.INPUT_TEXT_CARD.defaults).toMatchObject({ title: c.inputTitle, max: 30 });
    expect(registry.INPUT_DATE_CARD.defaults).toMatchObject({ locale: 'id-ID', date_format: 'DD MMM YYYY' });
    expect(registry.TITLE.defaults).toMatchObject({ title: 'Title' });
  });
});
