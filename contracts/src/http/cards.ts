// The card calls of a dashboard view (spec 02 section 7): a card's live data (`/fetch/web/g`), a command through a
// control card (`/fetch/web/p`) and a card's data as CSV. The same live data is pushed over socket.io (CARD_LIVE).
import { z } from 'zod';
import { Result } from '../codes.js';
import { T } from '../text/id.js';
import { defineCall, type Access } from './define.js';
import { INSTANT_MAX_MS } from '../models/fields.js';
import { jsonObject } from '../models/access.js';
import { Component } from '../models/dashboard/index.js';
import { CARD_SPAN_MIN_MS, CARD_WINDOW_MAX_MS } from '../catalogue/filters.js';

/**
 * Who may read a card: every principal of the application passes the route table's check; the server then lets a
 * member through only when the dashboard is in their role's menu or they hold `_dashboard_manage_`.
 */
const VIEW: Access = { navs: [] };
/** The component editor's preview: only who may edit the dashboard's cards ("Kelola Dasboard"), within its grants. */
const EDIT: Access = { navs: ['_dashboard_manage_'] };

const numeric = z.coerce.number().finite();
/** epoch ms, or an ISO-8601 date */
const instant = z.union([z.coerce.number().int(), z.string().min(1).max(40)]).transform((v, ctx) => {
  const ms = typeof v === 'number' ? v : /^-?\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(ms) || Math.abs(ms) > INSTANT_MAX_MS) {
    ctx.addIssue({ code: 'custom', message: T.common.invalidInput });
    return z.NEVER;
  }
  return ms;
});

/**
 * The filter a card is read with: a key of the card's filters or the id of a dashboard filter variable (`filter`),
 * or the fields themselves (REALTIME `ndata`; PERIODIC `range`, `range_param`; CUSTOM `start`, `end` (end inclusive;
 * start before end, at most CARD_WINDOW_MAX_MS apart) or `span`, a window of that many ms ending now that moves with
 * the clock (a dashboard's "last 7 days"); `period` and `interval` of the buckets, `period` also 'march' | 'april' |
 * 'may' as the request layer's fixed months). `vars` (JSON object) overrides dashboard variables, as a dropdown
 * selector does.
 */
export const CardFilterQuery = z.object({
  filter: z.string().max(64).optional(),
  type: z.enum(['REALTIME', 'PERIODIC', 'CUSTOM']).optional(),
  range: z.string().max(32).optional(),
  range_param: numeric.optional(),
  period: z.string().max(16).optional(),
  interval: numeric.optional(),
  ndata: numeric.optional(),
  start: instant.optional(),
  end: instant.optional(),
  span: z.coerce.number().int().min(CARD_SPAN_MIN_MS).max(CARD_WINDOW_MAX_MS).optional(),
  // as text at most a query string's worth; as an object (socket.io) nested no deeper than any JSON field
  vars: z
    .union([z.string().max(4096), z.record(z.string(), z.unknown())])
    .pipe(jsonObject(T.common.invalidInput))
    .optional(),
});
export type CardFilterQuery = z.output<typeof CardFilterQuery>;

const CardPath = z.object({
  dashboardId: z.coerce.number().int().positive(),
  componentKey: z.string().min(1).max(30),
});

const value = z.unknown();
/** A chart row: `ts` (bucket start or point time, epoch ms) and one field per series label. */
export const ChartRow = z.record(z.string(), z.unknown());

/** The live data fields of a card (spec 02 section 3 "Live card data"), those its kind uses. */
export const CardData = z.looseObject({
  key: z.string(),
  cat: z.string(),
  /** false when the card cannot be evaluated; `alert` then says why */
  success: z.boolean(),
  alert: z.string().optional(),
  value: value.optional(),
  value_1: value.optional(),
  value_2: value.optional(),
  value_3: value.optional(),
  status: value.optional(),
  status_1: value.optional(),
  status_2: value.optional(),
  status_3: value.optional(),
  /** epoch ms the value belongs to */
  time: z.number().nullable().optional(),
  chart_data: z.array(ChartRow).optional(),
  chart_keys: z.array(z.string()).optional(),
  /**
   * a monitoring chart's headline (not in the spec): each series' newest reading by its key, for charts of levels
   * (AVG, MAX, MIN, LAST, SAMPLE) over a time window; the last bucket would say the hour's MAX, not the tank now
   */
  latest: z.record(z.string(), z.object({ value: value, time: z.number().nullable() })).optional(),
  coord_data: z.array(z.object({ x: value, y: value, ts: z.number() })).optional(),
  /** a map card's devices: device_id, label, latitude, longitude, online, value, status, time (its newest reading) */
  map_marker: z.array(z.record(z.string(), z.unknown())).optional(),
  devices: z.array(z.number()).optional(),
  affect: z.array(z.string()).optional(),
  table_data: z.array(z.record(z.string(), z.unknown())).optional(),
  table_keys: z.array(z.string()).optional(),
  // no `primary` text: values go out raw and each card prints them with the display rules (decimals, k/M/B/T, unit)
  secondary: z.string().optional(),
  enable: z.boolean().optional(),
  /** the window the card was evaluated over (absent for LATEST-only cards) */
  window: z
    .object({
      type: z.string(),
      start: z.number().optional(),
      end: z.number().optional(),
      ndata: z.number().optional(),
      period: z.string().optional(),
      interval: z.number().optional(),
    })
    .optional(),
});
export type CardData = z.output<typeof CardData>;

/** Command card failures (docs/conventions.md "Codes of the domain") and their words (spec 02 section 8). */
export const CardCommandCode = {
  OFFLINE: Result.DEVICE_OFFLINE,
  BUSY: Result.DEVICE_BUSY,
  TIMEOUT: Result.DEVICE_TIMEOUT,
} as const;

export const cardsContract = {
  get: defineCall({
    method: 'GET',
    path: '/fetch/web/g/{dashboardId}/{componentKey}',
    summary: "A card's live data, evaluated with the filter query (the payload socket.io pushes on every change)",
    audience: 'member',
    access: VIEW,
    input: CardPath.extend(CardFilterQuery.shape),
    output: CardData,
  }),
  command: defineCall({
    method: 'POST',
    path: '/fetch/web/p/{dashboardId}/{componentKey}',
    summary: 'Sends the command of a control card (to every matching device for tag cards)',
    audience: 'member',
    access: VIEW,
    input: CardPath.extend({
      value: z.unknown().optional(),
      device_id: z.union([z.coerce.number().int(), z.string().min(1).max(64)]).optional(),
      sensor: z.string().max(64).optional(),
      config: z.string().max(64).optional(),
      param: z.string().max(64).optional(),
    }),
    output: z.object({
      message: z.string(),
      results: z
        .array(z.object({ device_id: z.number(), response_result: z.number(), message: z.string() }))
        .optional(),
    }),
    timeoutMs: 60_000,
    errors: {
      [Result.DEVICE_OFFLINE]: `${T.dashboards.commands.failed} ${T.dashboards.commands.offline}`,
      [Result.DEVICE_BUSY]: `${T.dashboards.commands.failed} ${T.dashboards.commands.busy}`,
      [Result.DEVICE_TIMEOUT]: `${T.dashboards.commands.failed} ${T.dashboards.commands.timeout}`,
    },
  }),
  preview: defineCall({
    method: 'POST',
    path: '/fetch/web/preview/{dashboardId}',
    summary:
      "The component editor's preview: a card not saved yet, evaluated as the card query evaluates a stored one (the dashboard's variables and filters, the filter query), without storing it",
    audience: 'member',
    access: EDIT,
    input: z.object({ dashboardId: CardPath.shape.dashboardId, component: Component }).extend(CardFilterQuery.shape),
    output: CardData,
  }),
  csv: defineCall({
    method: 'GET',
    path: '/fetch/web/file/csv/card/{dashboardId}/{componentKey}',
    summary: "A card's points in the window as CSV (period, or start and end), streamed",
    audience: 'member',
    access: VIEW,
    input: CardPath.extend(CardFilterQuery.shape),
    output: z.null(),
    timeoutMs: 120_000,
    stream: 'text/csv',
  }),
} as const;

/** The socket.io channel of a dashboard view: `subscribe` with `{ channel: CARD_LIVE.channel, params }`. */
export const CARD_LIVE = {
  channel: 'dashboard',
  /** server → client: `{ room, dashboard_id, key, mode: 'full' | 'append', data }` */
  event: 'card',
  /** at most one update per card per this many ms */
  coalesceMs: 100,
} as const;

export const CardSubscribeParams = CardFilterQuery.extend({
  dashboard_id: z.coerce.number().int().positive(),
  /** only these cards (default: every card of the dashboard) */
  keys: z.array(z.string().max(30)).max(200).optional(),
});
export type CardSubscribeParams = z.output<typeof CardSubscribeParams>;

export interface CardPush {
  room: string;
  dashboard_id: number;
  key: string;
  /** full: `data` replaces the card; append: `data.chart_data` rows follow the card's REALTIME chart (keep `ndata`) */
  mode: 'full' | 'append';
  data: CardData;
}
