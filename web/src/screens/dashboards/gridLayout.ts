// The dashboard grid of spec 02 sections 4 and 9, without React: conf_dashboard positions ⇄ react-grid-layout items
// (heights doubled on load and halved on save, except title and dropdown cards), minimum sizes per card type, which
// breakpoints may drag and save, the per-breakpoint layouts kept in local storage by dashboard id, and what a live
// dashboard reads from the record (refresh, global variables, decimals).
import {
  CARD_TYPES,
  EDIT_GRID_COLUMNS,
  dashboardRefreshMs,
  type DashboardRecord,
  GRID_BREAKPOINTS,
  LAYOUT_SAVE_MIN_WIDTH,
  SAVED_BREAKPOINTS,
  gridHeight,
  isCardType,
  storedHeight,
  type CardSize,
} from '@sentra/contracts';
import type { CardComponent } from '../../cards/common/definition.js';

export type Breakpoint = keyof typeof GRID_BREAKPOINTS;

/** One grid item, as react-grid-layout takes it. */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW?: number;
  minH?: number;
  maxW?: number;
  maxH?: number;
  static?: boolean;
}
export type GridLayouts = Partial<Record<Breakpoint, GridItem[]>>;

/** A component as stored, read leniently (older or generated dashboards may break today's rules). */
export interface StoredComponent extends CardComponent {
  static?: boolean;
  view?: { title?: string };
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The components of a stored conf_dashboard, in key order; entries that are not objects are skipped. */
/** What LiveDashboard takes from the dashboard record: its id, refresh, global variables and decimals. */
export const liveSettingsOf = (dashboard: DashboardRecord, conf: Record<string, unknown>) => ({
  dashboardId: dashboard.id,
  refreshMs: dashboardRefreshMs(conf),
  globals: conf.var as Record<string, unknown> | undefined,
  decimals: (conf.view as { decimal?: number } | undefined)?.decimal,
});

export function componentsOf(conf: Record<string, unknown> | undefined): StoredComponent[] {
  const map = conf?.dashboard;
  if (typeof map !== 'object' || map === null) return [];
  return Object.entries(map as Record<string, unknown>)
    .filter(([, c]) => typeof c === 'object' && c !== null && !Array.isArray(c))
    .map(([key, c]) => {
      const comp = c as Record<string, unknown>;
      return {
        ...comp,
        key,
        cat: String(comp.cat ?? ''),
        x: num(comp.x, 0),
        y: num(comp.y, 0),
        w: num(comp.w, 1),
        h: num(comp.h, 1),
      } as StoredComponent;
    });
}

export function cardSize(cat: string): CardSize {
  return isCardType(cat) ? (CARD_TYPES[cat].size as CardSize) : { minW: 1, minH: 1 };
}

/** "Card heights are doubled when loaded, except for title and dropdown-selector cards." */
export function loadHeight(c: StoredComponent): number {
  return isCardType(c.cat) ? gridHeight(c.cat, c.h) : c.h * 2;
}

/** "Heights of 2 or more are halved on save" (title and dropdown unscaled). */
export function saveHeight(cat: string, h: number): number {
  return isCardType(cat) ? storedHeight(cat, h) : h >= 2 ? h / 2 : h;
}

/** The grid item of a component: position, doubled height, and its type's minimum (fixed) size. */
export function gridItemOf(c: StoredComponent, opts: { static?: boolean } = {}): GridItem {
  const size = cardSize(c.cat);
  const item: GridItem = {
    i: c.key,
    x: c.x,
    y: c.y,
    w: c.w,
    h: Math.max(1, Math.round(loadHeight(c))),
    minW: size.fixedW ?? size.minW,
    minH: size.fixedH ?? size.minH,
  };
  if (size.fixedW !== undefined) item.maxW = size.fixedW;
  if (size.fixedH !== undefined) item.maxH = size.fixedH;
  if (opts.static || c.static) item.static = true;
  return item;
}

/**
 * The view's columns: the spec's 4 from `sm` (768 px) up; below it one column, since at 400 px four columns leave a
 * card ~80 px wide ("T…" titles, no values; docs/decisions/dashboard-views.md).
 */
export const VIEW_COLUMNS = { lg: 4, md: 4, sm: 4, xs: 1, xxs: 1 } as const satisfies Record<Breakpoint, number>;

/** Breakpoints where the view stacks its cards in one column. */
export const STACKED_BREAKPOINTS = ['xs', 'xxs'] as const satisfies readonly Breakpoint[];

/**
 * The view's items stacked in one column in reading order (top to bottom, then left to right), each full width and
 * as tall as on a wide screen.
 */
export function stackedItems(items: readonly GridItem[]): GridItem[] {
  const ordered = [...items].sort((a, b) => a.y - b.y || a.x - b.x);
  let y = 0;
  return ordered.map((it) => {
    const stacked: GridItem = { i: it.i, x: 0, y, w: 1, h: it.h, static: true };
    y += it.h;
    return stacked;
  });
}

/** Drag and resize: "only on wide screens (md and lg) and when not static". */
export const canArrange = (bp: Breakpoint) => (SAVED_BREAKPOINTS as readonly string[]).includes(bp);
/** "Save layout is available only on windows 996 px wide or more." */
export const canSaveLayout = (windowWidth: number) => windowWidth >= LAYOUT_SAVE_MIN_WIDTH;

/**
 * conf_dashboard with the positions of `layout` (an md or lg layout: 4 columns, as stored): x, y, w as laid out, h
 * halved. Components missing from the layout keep their stored position.
 */
export function withLayout<C extends Record<string, unknown>>(conf: C, layout: readonly GridItem[]): C {
  const byKey = new Map(layout.map((item) => [item.i, item]));
  const cards = (conf.dashboard ?? {}) as Record<string, Record<string, unknown>>;
  const next: Record<string, unknown> = {};
  for (const [key, c] of Object.entries(cards)) {
    const item = byKey.get(key);
    next[key] = item ? { ...c, x: item.x, y: item.y, w: item.w, h: saveHeight(String(c.cat), item.h) } : c;
  }
  return { ...conf, dashboard: next };
}

// ---- local storage: "Layout positions are kept in browser local storage, keyed by dashboard id", per breakpoint ----

export const layoutStorageKey = (dashboardId: number) => `sentra.dashboard.layout.${dashboardId}`;

/** What the server had when the local layouts were made: when it changes (a save elsewhere), local layouts are stale. */
export function layoutFingerprint(components: readonly StoredComponent[]): string {
  return components
    .map((c) => `${c.key}:${c.x},${c.y},${c.w},${c.h}`)
    .sort()
    .join('|');
}

interface StoredLayouts {
  base: string;
  layouts: GridLayouts;
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The layouts kept for a dashboard, if they were made from the same server positions. */
export function readLayouts(store: KeyValueStore, dashboardId: number, base: string): GridLayouts | undefined {
  try {
    const saved = JSON.parse(store.getItem(layoutStorageKey(dashboardId)) ?? 'null') as StoredLayouts | null;
    return saved && saved.base === base && typeof saved.layouts === 'object' ? saved.layouts : undefined;
  } catch {
    return undefined;
  }
}

export function writeLayouts(store: KeyValueStore, dashboardId: number, base: string, layouts: GridLayouts): void {
  try {
    store.setItem(layoutStorageKey(dashboardId), JSON.stringify({ base, layouts } satisfies StoredLayouts));
  } catch {
    // storage full or disabled: the layout still works for this page's life
  }
}

/**
 * The layouts to show in the edit view: per breakpoint, the kept item of each component, else the stored position;
 * kept items of removed components are dropped. Narrow breakpoints without a kept layout are left to the grid
 * (it derives them from the wider one).
 */
export function editLayouts(components: readonly StoredComponent[], kept: GridLayouts | undefined): GridLayouts {
  const fresh = components.map((c) => gridItemOf(c));
  const out: GridLayouts = { lg: fresh, md: fresh };
  for (const [bp, items] of Object.entries(kept ?? {}) as [Breakpoint, GridItem[]][]) {
    if (!Array.isArray(items)) continue;
    const byKey = new Map(items.map((i) => [i.i, i]));
    const cols = EDIT_GRID_COLUMNS[bp];
    out[bp] = fresh.map((f) => {
      const k = byKey.get(f.i);
      return k ? { ...f, x: Math.min(k.x, Math.max(0, cols - 1)), y: k.y, w: Math.min(k.w, cols), h: k.h } : f;
    });
  }
  return out;
}
