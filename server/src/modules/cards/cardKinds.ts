// How each query kind of the catalogue (contracts `CARD_TYPES[cat].kind`) is evaluated into a card's live data fields
// (spec 02 section 3 "Live card data"): one entry per kind, so a card type of an existing kind needs nothing here and
// a new kind adds its entry (the type check asks for it). The web's editor asks the same kinds' query rows in
// web/src/screens/dashboards/editor/querySlots.ts.
import {
  CARD_TYPES,
  QueryEntity,
  T,
  type CardData,
  type CardTypeCode,
  type Component,
  type QueryKind,
} from '@sentra/contracts';
import {
  CardError,
  MAX_LIST_DEVICES,
  chartLatest,
  chartQuery,
  perDeviceQuery,
  scalarQuery,
  threePhaseQuery,
  type EvalContext,
} from './cardQuery.js';

/** A card's stored value and status queries (read for every kind: a broken one fails the card whatever its kind). */
interface Queries {
  value?: QueryEntity;
  status?: QueryEntity;
}
interface CardKind {
  /** whether its filter window is cut into buckets (series read per interval) rather than read as points */
  bucketed: boolean;
  fill(data: CardData, c: Component, q: Queries, ctx: EvalContext): Promise<void>;
}

const PIE_CARDS = new Set(['PIE_CHART_CARD', 'PIE_MONITORING_CHART_CARD']);
const MONITORING_CARDS = new Set([
  'LINE_MONITORING_CHART_CARD',
  'AREA_MONITORING_CHART_CARD',
  'BAR_MONITORING_CHART_CARD',
]);

const point = (fill: CardKind['fill']): CardKind => ({ bucketed: false, fill });

const KINDS: Record<QueryKind, CardKind> = {
  none: point(async () => {}),
  // a title or picture card with only its view has nothing to evaluate
  single: point(fillValue),
  title: point(fillValue),
  threePhase: point(fillThreePhase),
  threeValue: point(fillThreeValues),
  list: point((data, c, _q, ctx) => fillDevices(data, c, ctx, false)),
  map: point((data, c, _q, ctx) => fillDevices(data, c, ctx, true)),
  command: point((data, c, q, ctx) => fillCommand(data, c, q, ctx, false)),
  tagCommand: point((data, c, q, ctx) => fillCommand(data, c, q, ctx, true)),
  chart: { bucketed: true, fill: (data, c, q, ctx) => fillChart(data, c, q.value, ctx) },
  coordinate: {
    bucketed: true,
    fill: (data, c, q, ctx) => fillCoordinates(data, q.value, queryOf(c.model?.output), ctx),
  },
};

/** The evaluation of a card type's kind. */
export const cardKind = (cat: CardTypeCode): CardKind => KINDS[CARD_TYPES[cat].kind];

/** Command cards (POST /p): those of the command kinds. */
export const isCommandCard = (cat: CardTypeCode): boolean =>
  CARD_TYPES[cat].kind === 'command' || CARD_TYPES[cat].kind === 'tagCommand';

/** Command cards whose target is every device of the card's tags (`_TAGS_`), not one device. */
export const commandsByTags = (cat: CardTypeCode): boolean => CARD_TYPES[cat].kind === 'tagCommand';

/** A stored query, checked again (a hand-written conf may hold anything); undefined when absent. */
export function queryOf(raw: unknown): QueryEntity | undefined {
  if (raw === undefined || raw === null) return undefined;
  const parsed = QueryEntity.safeParse(raw);
  if (!parsed.success) throw new CardError(T.dashboards.component.incomplete);
  return parsed.data;
}

/** A card's live data fields by its kind. */
export function fillCard(data: CardData, c: Component, ctx: EvalContext): Promise<void> {
  const model = c.model ?? {};
  const value = queryOf(model.value);
  const status = queryOf(model.status);
  return cardKind(c.cat).fill(data, c, { value, status }, ctx);
}

async function fillValue(data: CardData, _c: Component, { value, status }: Queries, ctx: EvalContext) {
  if (!value) return;
  const v = await scalarQuery(value, ctx);
  data.value = v.value;
  data.time = v.time;
  if (status) data.status = (await scalarQuery(status, ctx)).value;
}

async function fillThreePhase(data: CardData, _c: Component, { value }: Queries, ctx: EvalContext) {
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
}

/** The three-value card: value_1 to value_3 from model.value_1..3 (value_1 falls back to model.value). */
async function fillThreeValues(data: CardData, c: Component, { value }: Queries, ctx: EvalContext) {
  const extra = (c.model ?? {}) as Record<string, unknown>;
  const qs = [queryOf(extra.value_1) ?? value, queryOf(extra.value_2), queryOf(extra.value_3)];
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i];
    if (!q) continue;
    const v = await scalarQuery(q, ctx);
    data[`value_${i + 1}`] = v.value;
    if (v.time !== null && (data.time == null || v.time > data.time)) data.time = v.time;
  }
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

async function fillDevices(data: CardData, c: Component, ctx: EvalContext, map: boolean) {
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
  if (map) cols.push(['latitude', queryOf(model.latitude)], ['longitude', queryOf(model.longitude)]);
  const shown = devices.slice(0, MAX_LIST_DEVICES);
  const columns = new Map<string, Map<number, { value: unknown; time: number | null }>>();
  for (const [name, q] of cols) {
    if (!q) continue;
    const rows = (await perDeviceQuery(q, ctx, shown)).rows;
    columns.set(name, new Map(rows.map((r) => [r.device.id, { value: r.value, time: r.time }])));
  }
  if (map) {
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
  { value, status }: Queries,
  ctx: EvalContext,
  byTags: boolean,
) {
  const target = (c.model?.config ?? {}) as { device_id?: unknown };
  if (byTags) {
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
