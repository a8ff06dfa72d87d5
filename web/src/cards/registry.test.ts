// @vitest-environment jsdom
// The card registry's test (docs/conventions.md "One card type, one folder"): every code of the catalogue (contracts
// `CARD_TYPES`) has exactly one definition found in the card folders, and every definition a code; each definition's
// view loads, its defaults parse, its sizes keep section 5's rules and the catalogue's, its editor fields exist in the
// view schema. (jsdom: loading the map's view loads Leaflet, which needs a window.)
import { describe, expect, it } from 'vitest';
import { CARD_TYPES, CARD_TYPE_CODES, ComponentView, QUERY_OPTIONS, T, type CardTypeInfo } from '@sentra/contracts';
import { initialView, viewFieldsOf } from '../screens/dashboards/editor/viewFields.js';
import { CARD_DEFINITIONS, registry } from './registry.js';

// The grid is four units wide; a card larger than that cannot be placed.
const GRID_WIDTH = 4;

/** What a lazy view loads, without drawing it: React keeps the loader in the lazy component's payload until first use. */
async function loadedView(view: unknown): Promise<unknown> {
  const payload = (view as { _payload?: { _status: number; _result: unknown } })._payload;
  if (!payload) return undefined;
  if (payload._status === -1) return ((await (payload._result as () => Promise<{ default: unknown }>)()) ?? {}).default;
  return (payload._result as { default?: unknown } | undefined)?.default;
}
const isComponent = (c: unknown) => typeof c === 'function' || (typeof c === 'object' && c !== null && '$$typeof' in c);

describe('card registry', () => {
  it('finds one definition per catalogue code, and none for a code the catalogue lacks', () => {
    const types = CARD_DEFINITIONS.map((d) => d.type);
    expect(
      types.filter((t, i) => types.indexOf(t) !== i),
      'defined twice',
    ).toEqual([]);
    expect(
      types.filter((t) => !(CARD_TYPE_CODES as string[]).includes(t)),
      'not in the catalogue',
    ).toEqual([]);
    expect(
      CARD_TYPE_CODES.filter((c) => !types.includes(c)),
      'without a definition',
    ).toEqual([]);
  });

  describe.each(CARD_TYPE_CODES.map((c) => [c]))('%s', (cat) => {
    const def = registry[cat];
    const info: CardTypeInfo = CARD_TYPES[cat];

    it('takes its group, query kind and query options from the catalogue', () => {
      expect(def.category).toBe(info.group);
      expect(def.queryKind).toBe(info.kind);
      expect(def.queryOptions).toEqual(QUERY_OPTIONS[info.kind].flatMap((g) => g.options));
    });

    it('has a label and a view that loads to a component', async () => {
      expect(def.label.trim().length).toBeGreaterThan(0);
      expect(isComponent(await loadedView(def.view)), `${cat}: its view loads nothing`).toBe(true);
    });

    it('parses its defaults with its config schema', () => {
      expect(def.config.safeParse(def.defaults).success).toBe(true);
      expect(ComponentView.safeParse(def.defaults).success).toBe(true);
    });

    // spec 02 section 5 as rules rather than a copy of the catalogue's figures: a list or chart needs room for its
    // rows or axes (at least 2 × 4), nothing is below 1 × 1, the default fits the grid and is not below the minimum
    // (the catalogue's), a fixed card (download) is exactly its minimum, a fixed width or height (title) is kept.
    it('has a minimum size that keeps section 5, not above its default size', () => {
      const { min, default: dflt, fixed } = def.size;
      expect(min.w).toBeGreaterThanOrEqual(1);
      expect(min.h).toBeGreaterThanOrEqual(1);
      if (def.category === 'list' || def.category === 'chart') {
        expect(min.w, `${cat}: narrower than a list or chart may be`).toBeGreaterThanOrEqual(2);
        expect(min.h, `${cat}: lower than a list or chart may be`).toBeGreaterThanOrEqual(4);
      }
      expect(min).toEqual({ w: info.size.fixedW ?? info.size.minW, h: info.size.fixedH ?? info.size.minH });
      expect(dflt.w).toBeGreaterThanOrEqual(min.w);
      expect(dflt.h).toBeGreaterThanOrEqual(min.h);
      expect(dflt.w).toBeLessThanOrEqual(GRID_WIDTH);
      if (fixed) expect(dflt).toEqual(min);
      expect(fixed).toBe(info.size.fixedW !== undefined && info.size.fixedH !== undefined);
      if (info.size.fixedW !== undefined) expect(dflt.w, `${cat}: not its fixed width`).toBe(info.size.fixedW);
      if (info.size.fixedH !== undefined) expect(dflt.h, `${cat}: not its fixed height`).toBe(info.size.fixedH);
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
