// A card's live data fields (spec 02 section 3 "Live card data") from its component: the filter it is read with, its
// variables, and per card kind the fields its view uses. Evaluation errors become `success: false` with `alert`.
// Values go out raw: the cards print them with the card display rules (web/src/cards/common/format.ts), once.
import {
  CARD_TYPES,
  DECIMALS_DEFAULT,
  DeviceVariable,
  QueryEntity,
  T,
  cardFilterList,
  fixedCardFilter,
  initialViewFilter,
  type CardData,
  type CardFilterQuery,
  type Component,
  type ConfDashboard,
  type FilterVariable,
} from '@sentra/contracts';
import { ownValue } from '../../platform/own.js';
import {
  CardError,
  MAX_LIST_DEVICES,
  VariableScope,
  chartLatest,
  chartQuery,
  perDeviceQuery,
  scalarQuery,
  threePhaseQuery,
  type EngineSources,
  type EvalContext,
} from './cardQuery.js';
import { FilterError, requestFilter, resolveWindow, type CardWindow, type FilterSpec } from './filters.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import type { DashboardView } from '../dashboards/views.js';

/** The card `key` of a dashboard: a component that fails the schema on its own is a CardError, an unknown key 404. */
export function componentOf(view: DashboardView, key: string): Component {
  const c = ownValue(view.conf.dashboard, key);
  if (c) return c;
  if (view.broken.has(key)) throw new CardError(T.cards.invalidComponent);
  throw notFound();
}

/** `componentOf` for a call on one card: a broken component is the caller's -10 (its message), never a 500. */
export function componentForCall(view: DashboardView, key: string): Component {
  try {
    return componentOf(view, key);
  } catch (err) {
    if (err instanceof CardError) throw invalid(err.message);
    throw err;
  }
}

export interface CardRequest {
  component: Component;
  conf: ConfDashboard;
  appId: number;
  tz: string;
  now: number;
  query: CardFilterQuery;
}

export interface CardResult {
  data: CardData;
  deps: Set<string>;
  window?: CardWindow;
}

const CHART_CARD_GROUP = 'chart';
const PIE_CARDS = new Set(['PIE_CHART_CARD', 'PIE_MONITORING_CHART_CARD']);
const MONITORING_CARDS = new Set([
  'LINE_MONITORING_CHART_CARD',
  'AREA_MONITORING_CHART_CARD',
  'BAR_MONITORING_CHART_CARD',
]);
const TAG_COMMAND_CARDS = new Set([
  'BUTTON_TAGS_CARD',
  'INPUT_TOGGLE_TAGS_CARD',
  'INPUT_TEXT_TAGS_CARD',
  'INPUT_NUMBER_TAGS_CARD',
]);

/**
 * The filter a card is read with: its own when it is fixed to it (a "today" card stays today's), else the request's
 * fields, a filter it names, the card's first, the dashboard's default. `explicit`: the request's own range wins even
 * over a fixed filter (a CSV download names the range the user asked for).
 */
export function filterOf(component: Component, conf: ConfDashboard, q: CardFilterQuery, explicit = false): FilterSpec {
  const cardFilters = component.model?.filter;
  const fixed = fixedCardFilter(cardFilters);
  const fromRequest = requestFilter(q);
  if (fromRequest && (explicit || !fixed)) return fromRequest;
  if (fixed) return fixed as FilterSpec;
  if (q.filter) {
    const own = ownValue(cardFilters, q.filter);
    if (own) return own as FilterSpec;
    const v = conf.var?.[q.filter];
    if (v && typeof v === 'object' && (v as { _varType?: string })._varType === 'filter') return v as FilterSpec;
    throw new CardError(T.cards.unknownFilter);
  }
  const first = cardFilterList(cardFilters)[0]!.filter;
  if (Object.keys(first).some((k) => k !== 'name')) return first as FilterSpec;
  const dashboardFilters = Object.values(conf.var ?? {}).filter(
    (v): v is FilterVariable =>
      typeof v === 'object' && v !== null && (v as { _varType?: string })._varType === 'filter',
  );
  return (initialViewFilter(dashboardFilters) ?? dashboardFilters[0] ?? {}) as FilterSpec;
}

/** Request overrides of variables: plain values, or device selections (as a device dropdown stores them). */
export function overrides(vars: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!vars) return undefined;
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(vars).slice(0, 50)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    else if (typeof v === 'object' && DeviceVariable.safeParse(v).success) out[k] = v;
  }
  return out;
}

/** A stored query, checked again (a hand-written conf may hold anything); undefined when absent. */
function queryOf(raw: unknown): QueryEntity | undefined {
  if (raw === undefined || raw === null) return undefined;
  const parsed = QueryEntity.safeParse(raw);
  if (!parsed.success) throw new CardError(T.dashboards.component.incomplete);
  return parsed.data;
}

function windowInfo(w: CardWindow | undefined): CardData['window'] {
  if (!w) return undefined;
  if (w.type === 'REALTIME') return { type: w.type, ndata: w.ndata };
  return { type: w.type, start: w.start, end: w.end, period: w.period, interval: w.interval };
}

export async function evaluateCard(src: EngineSources, req: CardRequest): Promise<CardResult> {
  const { component: c, conf } = req;
  const info = CARD_TYPES[c.cat];
  const deps = new Set<string>();
  const decimals = c.view?.decimal ?? conf.view?.decimal ?? DECIMALS_DEFAULT;
  const vars = new VariableScope([
    overrides(req.query.vars),
    c.var as Record<string, unknown> | undefined,
    conf.var as Record<string, unknown> | undefined,
  ]);
  let window: CardWindow | undefined;
  const bucketed = info.group === CHART_CARD_GROUP || c.cat === 'DOWNLOAD_DATA_CARD' || c.cat === 'COORDINATE_CARD';
  const ctx: EvalContext = {
    src,
    appId: req.appId,
    tz: req.tz,
    now: req.now,
    decimals,
    tags: c.model?.tags,
    vars,
    deps,
    window() {
      if (!window) {
        const spec = filterOf(c, conf, req.query);
        try {
          window = resolveWindow(spec, req.now, req.tz, bucketed);
        } catch (err) {
          if (err instanceof FilterError) throw new CardError(err.message);
          throw err;
        }
      }
      return window;
    },
  };
  vars.ctx = ctx;
  const data: CardData = { key: c.key, cat: c.cat, success: true };
  if (c.model?.affected_by?.length) data.affect = c.model.affected_by;
  try {
    await fill(data, c, ctx);
  } catch (err) {
    if (!(err instanceof CardError)) throw err;
    data.success = false;
    data.alert = err.message;
  }
  data.window = windowInfo(window);
  if (window && window.name) data.secondary = window.name;
  return { data, deps, window };
}

async function fill(data: CardData, c: Component, ctx: EvalContext): Promise<void> {
  const info = CARD_TYPES[c.cat];
  const model = c.model ?? {};
  const value = queryOf(model.value);
  const status = queryOf(model.status);
  switch (info.kind) {
    case 'none':
      return;
    case 'threePhase': {
      if (!value) throw new CardError(T.cards.noQuery);
      const [a, b, d] = await threePhaseQuery(value, ctx);
      data.value_1 = a!.value;
      data.value_2 = b!.value;
      data.value_3 = d!.value;
      data.status_1 = a!.value !== null;
      data.status_2 = b!.value !== null;
      data.status_3 = d!.value !== null;
      data.time = [a, b, d].reduce<number | null>(
        (t, s) => (s!.time !== null && (t === null || s!.time > t) ? s!.time : t),
        null,
      );
      return;
    }
    case 'chart':
      return fillChart(data, c, value, ctx);
    case 'list':
    case 'map':
      return fillDevices(data, c, ctx);
    case 'title':
    case 'single':
      break;
  }
  if (c.cat === 'COORDINATE_CARD') return fillCoordinates(data, value, queryOf(model.output), ctx);
  if (c.cat === 'DATA_VALUE_CARD') {
    // the three-value card: value_1 to value_3 from model.value_1..3 (value_1 falls back to model.value)
    const extra = model as Record<string, unknown>;
    const qs = [queryOf(extra.value_1) ?? value, queryOf(extra.value_2), queryOf(extra.value_3)];
    for (let i = 0; i < qs.length; i++) {
      const q = qs[i];
      if (!q) continue;
      const v = await scalarQuery(q, ctx);
      data[`value_${i + 1}`] = v.value;
      if (v.time !== null && (data.time == null || v.time > data.time)) data.time = v.time;
    }
    return;
  }
  if (info.group === 'control' || info.group === 'controlVariant') return fillCommand(data, c, value, status, ctx);
  // a title or picture card with only its view has nothing to evaluate
  if (!value) return;
  const v = await scalarQuery(value, ctx);
  data.value = v.value;
  data.time = v.time;
  if (status) data.status = (await scalarQuery(status, ctx)).value;
}

async function fillChart(data: CardData, c: Component, value: QueryEntity | undefined, ctx: EvalContext) {
  if (!value) throw new CardError(T.cards.noQuery);
  const chart = await chartQuery(value, ctx);
  data.chart_keys = chart.keys;
  if (PIE_CARDS.has(c.cat)) {
    // a pie is one slice per series: the function over the whole window (the buckets folded)
    const fn = value.query ?? 'AVG';
    data.chart_data = chart.keys.map((key) => {
      const values = chart.rows.map((r) => r[key]).filter((v): v is number => typeof v === 'number');
      const total =
        fn === 'AVG'
          ? values.length
            ? values.reduce((a, v) => a + v, 0) / values.length
            : null
          : fn === 'MAX'
            ? values.length
              ? Math.max(...values)
              : null
            : fn === 'MIN'
              ? values.length
                ? Math.min(...values)
                : null
              : fn === 'LAST'
                ? (values.at(-1) ?? null)
                : fn === 'SAMPLE'
                  ? (values[0] ?? null)
                  : values.length
                    ? values.reduce((a, v) => a + v, 0)
                    : null;
      return { key, value: total };
    });
  } else data.chart_data = chart.rows;
  const last = chart.rows.at(-1);
  data.time = last ? (last.ts as number) : null;
  // a monitoring chart's headline: each series' newest reading (one source with the list and value cards)
  if (MONITORING_CARDS.has(c.cat) && ctx.window().type !== 'REALTIME') {
    const latest = await chartLatest(value, ctx);
    if (latest)
      data.latest = Object.fromEntries(Object.entries(latest).map(([k, v]) => [k, { value: v.value, time: v.time }]));
  }
}

async function fillCoordinates(
  data: CardData,
  x: QueryEntity | undefined,
  y: QueryEntity | undefined,
  ctx: EvalContext,
) {
  if (!x || !y) throw new CardError(T.cards.noQuery);
  // x from model.value and y from model.output, paired by time (LAST of each bucket, or the last N points)
  const asLast = (q: QueryEntity): QueryEntity =>
    q.queryType === 'device' || q.queryType === 'graph'
      ? ({ ...q, queryType: 'graph', query: q.query === 'LATEST' || !q.query ? 'LAST' : q.query } as QueryEntity)
      : q;
  const cx = await chartQuery(asLast(x), ctx);
  const cy = await chartQuery(asLast(y), ctx);
  const ys = new Map(cy.rows.map((r) => [r.ts as number, r[cy.keys[0]!]]));
  data.coord_data = cx.rows
    .map((r) => ({ x: r[cx.keys[0]!], y: ys.get(r.ts as number), ts: r.ts as number }))
    .filter((p) => p.x !== null && p.x !== undefined && p.y !== null && p.y !== undefined);
  data.time = data.coord_data.at(-1)?.ts ?? null;
}

async function fillDevices(data: CardData, c: Component, ctx: EvalContext) {
  const model = c.model ?? {};
  const devices = await ctx.src.directory.matching(ctx.appId, model.tags);
  ctx.deps.add(`app:${ctx.appId}`);
  data.devices = devices.map((d) => d.id);
  const value = queryOf(model.value);
  const status = queryOf(model.status);
  const cols: [string, QueryEntity | undefined][] = [
    ['value', value],
    ['status', status],
  ];
  if (c.cat === 'MAP_CARD') cols.push(['latitude', queryOf(model.latitude)], ['longitude', queryOf(model.longitude)]);
  const shown = devices.slice(0, MAX_LIST_DEVICES);
  const columns = new Map<string, Map<number, { value: unknown; time: number | null }>>();
  for (const [name, q] of cols) {
    if (!q) continue;
    const rows = (await perDeviceQuery(q, ctx, shown)).rows;
    columns.set(name, new Map(rows.map((r) => [r.device.id, { value: r.value, time: r.time }])));
  }
  if (c.cat === 'MAP_CARD') {
    data.map_marker = shown.flatMap((d) => {
      const lat = columns.get('latitude')?.get(d.id)?.value ?? d.latitude;
      const lon = columns.get('longitude')?.get(d.id)?.value ?? d.longitude;
      if (typeof lat !== 'number' || typeof lon !== 'number') return [];
      const marker: Record<string, unknown> = {
        device_id: d.id,
        label: d.label,
        latitude: lat,
        longitude: lon,
        online: d.online && !d.disabled,
      };
      if (columns.has('value')) marker.value = columns.get('value')!.get(d.id)?.value ?? null;
      if (columns.has('status')) marker.status = columns.get('status')!.get(d.id)?.value ?? null;
      // the marker's last update: the newest reading among its columns (its position included), as a list row's time
      let time: number | null = null;
      for (const col of columns.values()) {
        const t = col.get(d.id)?.time;
        if (t != null && (time === null || t > time)) time = t;
      }
      marker.time = time;
      return [marker];
    });
    return;
  }
  const keys = ['device_id', 'label', ...[...columns.keys()], 'time'];
  data.table_keys = keys;
  data.table_data = shown.map((d) => {
    const row: Record<string, unknown> = { device_id: d.id, label: d.label };
    let time: number | null = null;
    for (const [name, col] of columns) {
      const cell = col.get(d.id);
      row[name] = cell?.value ?? null;
      if (cell?.time != null && (time === null || cell.time > time)) time = cell.time;
    }
    row.time = time;
    return row;
  });
  if (devices.length === 0 && (model.tags?.length ?? 0) > 0) data.alert = T.dashboards.component.noDataByTags;
}

async function fillCommand(
  data: CardData,
  c: Component,
  value: QueryEntity | undefined,
  status: QueryEntity | undefined,
  ctx: EvalContext,
) {
  const target = (c.model?.config ?? {}) as { device_id?: unknown };
  if (TAG_COMMAND_CARDS.has(c.cat)) {
    const devices = await ctx.src.directory.matching(ctx.appId, c.model?.tags);
    ctx.deps.add(`app:${ctx.appId}`);
    data.devices = devices.map((d) => d.id);
    data.enable = devices.some((d) => d.online && !d.disabled);
  } else if (target.device_id !== undefined && target.device_id !== '') {
    const id = Number(target.device_id);
    ctx.deps.add(`dev:${id}`);
    const d = Number.isSafeInteger(id) ? await ctx.src.directory.device(ctx.appId, id) : null;
    data.enable = !!d && d.online && !d.disabled;
  }
  const q = status ?? value;
  if (q) {
    const v = await scalarQuery(q, ctx);
    data.status = v.value;
    data.value = v.value;
    data.time = v.time;
  }
}
