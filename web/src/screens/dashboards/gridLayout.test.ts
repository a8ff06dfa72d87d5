// The grid rules of spec 02 sections 4 and 9: heights doubled on load and halved on save (not title/dropdown),
// minimum sizes, arrange/save only at md and lg (≥ 996 px), layouts kept per breakpoint by dashboard id.
import { describe, expect, it } from 'vitest';
import {
  VIEW_COLUMNS,
  canArrange,
  canSaveLayout,
  componentsOf,
  editLayouts,
  gridItemOf,
  layoutFingerprint,
  readLayouts,
  stackedItems,
  withLayout,
  writeLayouts,
  type StoredComponent,
} from './gridLayout.js';

const comp = (key: string, cat: string, x: number, y: number, w: number, h: number): StoredComponent => ({
  key,
  cat,
  x,
  y,
  w,
  h,
});

function memoryStore() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

describe('dashboard grid', () => {
  it('doubles heights on load except for title and dropdown cards, with the type minimum sizes', () => {
    expect(gridItemOf(comp('v', 'SINGLE_VALUE_CARD', 0, 0, 1, 1))).toMatchObject({ h: 2, minW: 1, minH: 2 });
    expect(gridItemOf(comp('c', 'LINE_CHART_CARD', 0, 0, 2, 2))).toMatchObject({ h: 4, minW: 2, minH: 4 });
    expect(gridItemOf(comp('t', 'TITLE', 0, 0, 4, 1))).toMatchObject({ h: 1, minH: 1, maxH: 1 });
    expect(gridItemOf(comp('d', 'DROPDOWN_SELECTOR', 0, 0, 2, 1))).toMatchObject({ h: 1, minW: 2 });
    expect(gridItemOf(comp('dl', 'DOWNLOAD_DATA_CARD', 0, 0, 1, 1))).toMatchObject({
      w: 1,
      h: 2,
      minW: 1,
      maxW: 1,
      minH: 2,
      maxH: 2,
    });
  });

  it('halves heights of 2 or more on save, keeping x, y, w as laid out', () => {
    const conf = {
      version: '2',
      dashboard: {
        v: comp('v', 'SINGLE_VALUE_CARD', 0, 0, 1, 1),
        t: comp('t', 'TITLE', 0, 0, 4, 1),
        k: comp('k', 'SINGLE_VALUE_CARD', 3, 0, 1, 1),
      },
    };
    const saved = withLayout(conf, [
      { i: 'v', x: 1, y: 2, w: 2, h: 5 },
      { i: 't', x: 0, y: 0, w: 4, h: 1 },
    ]);
    expect(saved.dashboard).toEqual({
      v: { key: 'v', cat: 'SINGLE_VALUE_CARD', x: 1, y: 2, w: 2, h: 2.5 },
      t: { key: 't', cat: 'TITLE', x: 0, y: 0, w: 4, h: 1 },
      k: { key: 'k', cat: 'SINGLE_VALUE_CARD', x: 3, y: 0, w: 1, h: 1 },
    });
    // a round trip gives the same grid heights
    expect(componentsOf(saved).map((c) => gridItemOf(c).h)).toEqual([5, 1, 2]);
  });

  it('arranges only at md and lg, and saves only from 996 px', () => {
    expect(['lg', 'md', 'sm', 'xs', 'xxs'].map((b) => canArrange(b as never))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(canSaveLayout(995)).toBe(false);
    expect(canSaveLayout(996)).toBe(true);
  });

  it('keeps layouts per breakpoint by dashboard id, dropped when the server positions changed', () => {
    const store = memoryStore();
    const comps = [comp('a', 'SINGLE_VALUE_CARD', 0, 0, 1, 1)];
    const base = layoutFingerprint(comps);
    writeLayouts(store, 7, base, {
      lg: [{ i: 'a', x: 2, y: 0, w: 2, h: 3 }],
      sm: [{ i: 'a', x: 1, y: 0, w: 1, h: 2 }],
    });
    expect(readLayouts(store, 8, base)).toBeUndefined();
    expect(readLayouts(store, 7, 'other')).toBeUndefined();
    const layouts = editLayouts(comps, readLayouts(store, 7, base));
    expect(layouts.lg?.[0]).toMatchObject({ i: 'a', x: 2, w: 2, h: 3, minH: 2 });
    expect(layouts.md?.[0]).toMatchObject({ x: 0, w: 1, h: 2 });
    expect(layouts.sm?.[0]).toMatchObject({ x: 1, w: 1 });
  });

  it('drops kept items of removed components and adds new components at their stored place', () => {
    const kept = { lg: [{ i: 'gone', x: 0, y: 0, w: 1, h: 2 }] };
    expect(editLayouts([comp('n', 'SINGLE_VALUE_CARD', 2, 0, 1, 1)], kept).lg).toEqual([
      expect.objectContaining({ i: 'n', x: 2, h: 2 }),
    ]);
  });

  it('reads stored components leniently', () => {
    expect(componentsOf({ dashboard: { a: { cat: 'TITLE' }, b: 'x' } })).toEqual([
      { key: 'a', cat: 'TITLE', x: 0, y: 0, w: 1, h: 1 },
    ]);
    expect(componentsOf(undefined)).toEqual([]);
  });
});

describe('dashboard view below the sm breakpoint', () => {
  it('keeps the spec 4 columns from sm (768 px) up and one column below it', () => {
    expect(VIEW_COLUMNS).toEqual({ lg: 4, md: 4, sm: 4, xs: 1, xxs: 1 });
  });

  it('stacks the cards full width in reading order (top to bottom, then left to right), each as tall as on a wide screen', () => {
    const items = [
      gridItemOf(comp('chart', 'LINE_CHART_CARD', 0, 2, 4, 2)),
      gridItemOf(comp('right', 'SINGLE_VALUE_CARD', 3, 0, 1, 1)),
      gridItemOf(comp('left', 'SINGLE_VALUE_CARD', 0, 0, 1, 1)),
      gridItemOf(comp('title', 'TITLE', 1, 0, 2, 1)),
    ];
    expect(stackedItems(items)).toEqual([
      { i: 'left', x: 0, y: 0, w: 1, h: 2, static: true },
      { i: 'title', x: 0, y: 2, w: 1, h: 1, static: true },
      { i: 'right', x: 0, y: 3, w: 1, h: 2, static: true },
      { i: 'chart', x: 0, y: 5, w: 1, h: 4, static: true },
    ]);
  });
});
