// Evaluates a query entity (spec 02 section 3 "Query entity") inside a card's context: which series or devices it
// names, over which window, through which function. Four shapes come out: one value (single-value, title, status),
// a chart (graph), one value per device (list and map cards), three values (three-phase). Every series or device
// read is recorded in `deps` (the live index keys of cards.live.ts), so a push recomputes exactly the cards it touches.
// A query whose sensor is STATE_SENSOR reads a device state (Tasmota's POWER) instead of a series.
// Evaluation is asynchronous (the sources answer promises: PostgreSQL answers over a socket); what memory already
// holds (known series, latest values) answers without one.
// Over 500 lines: one evaluator; selection, windows, functions and variables call each other (a variable's query is
// evaluated by the same code), so split they would import each other in a circle.
import { NO_SUBPARAM, STATE_SENSOR, T, querySeriesLabels, type QueryEntity } from '@sentra/contracts';
import { decodeValue } from '../telemetry/datatypes.js';
import type { DeviceFacts } from '../devices/device-facts.js';
import type { DeviceDirectory } from './deviceDirectory.js';
import { ExpressionError, type ExprValue } from './expression.js';
import { FilterError, type CardWindow } from './filters.js';
import { bucketAggregates, isAggregate, valuesAggregate, type AggregateFn } from './functions/aggregates.js';
import { conditionVariables, evaluateCondition, isCondition, type ConditionFn } from './functions/conditions.js';
import { risesOnly } from './functions/usage.js';
import { deviceCount, deviceInfo, isDeviceInfo } from './functions/deviceInfo.js';
import { levelFor, type Piece, type SeriesReads, type SeriesRef } from './seriesReads.js';
import type { StateReads } from '../states/states.reads.js';

/** Why a card could not be evaluated: shown on the card (`success: false, alert`), never a 500. */
export class CardError extends Error {}

/** list and map cards evaluate at most this many devices (`devices` still lists every match) */
export const MAX_LIST_DEVICES = 1000;
const MAX_VARIABLE_DEPTH = 8;

export interface EngineSources {
  reads: SeriesReads;
  directory: DeviceDirectory;
  states: Pick<StateReads, 'current' | 'history'>;
}

/**
 * Live index keys: `d:<device>|<sensor>|<config>|<param>`, `a:<app>|<sensor>|<config>|<param>`, `s:<device>|<state>`,
 * `sa:<app>|<state>`, `dev:<device>`, `app:<app>`.
 */
export const depKey = {
  param: (deviceId: number, sensor: string, config: string, param: string) =>
    `d:${deviceId}|${sensor}|${config}|${param}`,
  anyDevice: (appId: number, sensor: string, config: string, param: string) =>
    `a:${appId}|${sensor}|${config}|${param}`,
  /** a device state (its key), on one device or on any device of the application */
  state: (deviceId: number, key: string) => `s:${deviceId}|${key}`,
  anyState: (appId: number, key: string) => `sa:${appId}|${key}`,
  device: (deviceId: number) => `dev:${deviceId}`,
  app: (appId: number) => `app:${appId}`,
};

export interface EvalContext {
  src: EngineSources;
  appId: number;
  tz: string;
  now: number;
  decimals: number;
  /** the card's window; throws FilterError for a filter it cannot use */
  window(): CardWindow;
  /** the component's tags (list and map cards read their devices) */
  tags?: string[];
  vars: VariableScope;
  deps: Set<string>;
}

export interface Scalar {
  value: unknown;
  time: number | null;
}
export interface Chart {
  keys: string[];
  rows: Record<string, unknown>[];
}

type Query = QueryEntity;
const wrap = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ExpressionError || err instanceof FilterError) throw new CardError(err.message);
    throw err;
  }
};

// ---- variables ----

/**
 * The variables an expression sees: request overrides (dropdown selections), then the component's, then the
 * dashboard's. Values resolve on first use: a device variable is its series' latest value, a function variable its
 * query's value, a conditional object its expression's value. Resolving reads (asynchronous) and expressions evaluate
 * synchronously, so the variables an expression names are resolved first (`need`) and `lookup` answers from them; a
 * variable that failed to resolve throws its error only where an expression reads it.
 */
export class VariableScope {
  private resolved = new Map<string, ExprValue>();
  private failed = new Map<string, unknown>();
  private resolving = new Set<string>();
  ctx!: EvalContext;
  constructor(private readonly layers: readonly (Record<string, unknown> | undefined)[]) {}

  raw(name: string): unknown {
    for (const layer of this.layers) if (layer && Object.prototype.hasOwnProperty.call(layer, name)) return layer[name];
    return undefined;
  }

  /** resolves the variables of these names (one after the other: the chain being resolved detects a cycle) */
  async need(names: Iterable<string>): Promise<void> {
    for (const name of names) {
      if (this.resolved.has(name) || this.failed.has(name) || this.resolving.has(name)) continue;
      const raw = this.raw(name);
      if (raw === undefined || raw === null || typeof raw !== 'object') continue;
      if (this.resolving.size >= MAX_VARIABLE_DEPTH) continue;
      this.resolving.add(name);
      try {
        this.resolved.set(name, await this.resolve(raw));
      } catch (err) {
        this.failed.set(name, err);
      } finally {
        this.resolving.delete(name);
      }
    }
  }

  lookup = (name: string): ExprValue | undefined => {
    const v = this.resolved.get(name);
    if (v !== undefined || this.resolved.has(name)) return v;
    if (this.failed.has(name)) throw this.failed.get(name);
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    if (raw === null || typeof raw !== 'object') return raw as ExprValue;
    // not resolved by `need`: it is being resolved further up this chain (a cycle) or the chain is too deep
    throw new CardError(T.cards.variableCycle(name));
  };

  /** a condition function over these variables, once they are resolved */
  async condition(fn: ConditionFn, q: Parameters<typeof evaluateCondition>[1]): Promise<ExprValue> {
    await this.need(conditionVariables(fn, q));
    return wrap(() => evaluateCondition(fn, q, this.lookup, this.ctx.decimals));
  }

  private async resolve(raw: unknown): Promise<ExprValue> {
    if (Array.isArray(raw)) return JSON.stringify(raw);
    const v = raw as Record<string, unknown>;
    switch (v._varType) {
      case 'device': {
        const q = {
          query: 'LATEST',
          queryType: 'device',
          device_id: v.device_id,
          sensor: v.sensor,
          config: v.config,
          param: v.param,
        } as Query;
        return asExprValue((await scalarQuery(q, this.ctx)).value);
      }
      case 'func':
        return asExprValue((await scalarQuery(v as unknown as Query, this.ctx)).value);
      case 'filter':
        return typeof v.name === 'string' ? v.name : null;
      default:
        if ((v.queryType === 'condition' || v.queryType === 'condition_bool') && typeof v.condition === 'string') {
          const fn = v.queryType === 'condition_bool' ? 'IFELSE' : 'BOOL';
          return this.condition(fn, v as never);
        }
        return JSON.stringify(v);
    }
  }
}

const asExprValue = (v: unknown): ExprValue =>
  v === undefined
    ? null
    : v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean'
      ? v
      : JSON.stringify(v);

// ---- devices and series ----

/** The device a query names: an id, a numeric string, or `{variable}` of a device variable (a dropdown selector). */
export function deviceIdOf(q: Query, ctx: EvalContext): number {
  let id: unknown = q.device_id;
  if (typeof id === 'string') {
    const m = /^\{(.+)\}$/.exec(id.trim());
    const variable = m ? ctx.vars.raw(m[1]!) : undefined;
    if (m) id = variable && typeof variable === 'object' ? (variable as { device_id?: unknown }).device_id : variable;
    if (typeof id === 'string' && /^\d+$/.test(id)) id = Number(id);
  }
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new CardError(T.cards.deviceNotFound);
  return id;
}

async function oneDevice(q: Query, ctx: EvalContext): Promise<DeviceFacts> {
  const id = deviceIdOf(q, ctx);
  ctx.deps.add(depKey.device(id));
  const d = await ctx.src.directory.device(ctx.appId, id);
  if (!d) throw new CardError(T.cards.deviceNotFound);
  return d;
}

/** A series that does not exist yet is fine (no data), a device that is not the application's is not. */
async function requireDevice(ctx: EvalContext, deviceId: number): Promise<void> {
  if (!(await ctx.src.directory.device(ctx.appId, deviceId))) throw new CardError(T.cards.deviceNotFound);
}

interface LabelledSeries {
  label: string;
  subparam: string;
  series: SeriesRef | null;
  /** one of the subparams of a param chosen whole */
  whole?: true;
}

/**
 * The series a query reads on one device: its subparam(s), or every subparam of a param chosen whole. `known`: the
 * device came from the application's directory, so a series it lacks needs no check that the device is the app's.
 */
export function seriesOf(
  q: Query,
  ctx: EvalContext,
  deviceId: number,
  forChart: boolean,
  known = false,
): LabelledSeries[] | Promise<LabelledSeries[]> {
  // what memory answers (a series known, or known absent on a directory device) answers without a promise: a list
  // card asks this of every device, and a promise chain per device doubled its cost
  if (!Array.isArray(q.subparam)) {
    const { sensor = '', config = '', param = '' } = q;
    const r = ctx.src.reads;
    const sub = typeof q.subparam === 'string' ? q.subparam : '';
    const s = r.series(ctx.appId, deviceId, sensor, config, param, sub);
    if (!(s instanceof Promise) && (s || (known && sub !== ''))) {
      return [{ label: querySeriesLabels({ ...q, param })[0]!, subparam: sub, series: s }];
    }
    if (s === null && known) {
      const subs = r.seriesOfParam(ctx.appId, deviceId, sensor, config, param);
      if (!(subs instanceof Promise) && subs.length === 0)
        return [{ label: querySeriesLabels({ ...q, param })[0]!, subparam: '', series: null }];
    }
  }
  return seriesRead(q, ctx, deviceId, forChart, known);
}

async function seriesRead(
  q: Query,
  ctx: EvalContext,
  deviceId: number,
  forChart: boolean,
  known: boolean,
): Promise<LabelledSeries[]> {
  const { sensor = '', config = '', param = '' } = q;
  const r = ctx.src.reads;
  const one = async (sub: string, label: string): Promise<LabelledSeries> => ({
    label,
    subparam: sub,
    series: await r.series(ctx.appId, deviceId, sensor, config, param, sub),
  });
  const checked = async (list: LabelledSeries[]) => {
    if (!known && list.some((l) => !l.series)) await requireDevice(ctx, deviceId);
    return list;
  };
  const labels = querySeriesLabels({ ...q, param });
  if (Array.isArray(q.subparam)) {
    const list: LabelledSeries[] = [];
    for (let i = 0; i < q.subparam.length; i++) list.push(await one(q.subparam[i]!, labels[i]!));
    return checked(list);
  }
  if (typeof q.subparam === 'string' && q.subparam !== '') return checked([await one(q.subparam, labels[0]!)]);
  const plain = await one('', labels[0]!);
  if (plain.series) return [plain];
  const subs = (await r.seriesOfParam(ctx.appId, deviceId, sensor, config, param)).filter((s) => s.subparam !== '');
  if (subs.length === 0) {
    if (!known) await requireDevice(ctx, deviceId);
    return [plain];
  }
  return subs.map((s) => ({
    label: forChart && q.param_label ? `${q.param_label} ${s.subparam}` : s.subparam,
    subparam: s.subparam,
    series: s,
    whole: true as const,
  }));
}

// ---- device states ----

/** The query names a device state (param = the state's key), not a telemetry series. */
export const isStateQuery = (q: Pick<Query, 'sensor'>): boolean => q.sensor === STATE_SENSOR;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A device state through LATEST (states are values, not series: nothing to aggregate): its value and the time it was
 * last reported; a subparam picks one field of an object value. `known`: the device is one of the directory's.
 */
async function stateValue(
  fn: string,
  q: Query,
  ctx: EvalContext,
  deviceId: number,
  subparam?: string,
  known = false,
): Promise<Scalar> {
  if (fn !== 'LATEST') throw new CardError(T.cards.stateLatestOnly);
  const s = await ctx.src.states.current(ctx.appId, deviceId, q.param ?? '');
  if (!s) {
    if (!known) await requireDevice(ctx, deviceId);
    return { value: null, time: null };
  }
  return { value: stateField(s.value, subparam ?? stateSubparam(q)), time: s.ts };
}

/** the subparam a state query names ('' for the whole value) */
export const stateSubparam = (q: Pick<Query, 'subparam'>): string => (typeof q.subparam === 'string' ? q.subparam : '');

/** a state's value, or the field `sub` of an object value (null when it has none) */
export function stateField(value: unknown, sub: string): unknown {
  if (sub === '' || sub === NO_SUBPARAM) return value;
  return isRecord(value) && Object.prototype.hasOwnProperty.call(value, sub) ? value[sub] : null;
}

function latestOf(s: SeriesRef | null, ctx: EvalContext): Scalar {
  if (!s) return { value: null, time: null };
  const p = ctx.src.reads.latest(s);
  return p ? { value: decodeValue(s.datatype, p.num, p.text), time: p.ts } : { value: null, time: null };
}

/**
 * USAGE's context for bucketAggregates: the counter's baseline before `start`, and the raw points of each rollup piece
 * whose counter was reset inside (read here, since the fold is synchronous).
 */
async function usageContext(r: SeriesReads, s: SeriesRef, start: number, pieces: readonly Piece[]) {
  const baseline = await r.counterBefore(s, start);
  const expanded = new Map<Piece, Piece[]>();
  for (const p of pieces) if (!risesOnly(p)) expanded.set(p, await r.expand(s, p));
  return { baseline, expand: (p: Piece) => expanded.get(p) ?? [p] };
}

async function aggregateOf(fn: AggregateFn, s: SeriesRef | null, ctx: EvalContext): Promise<Scalar> {
  const w = wrap(() => ctx.window());
  if (w.type === 'REALTIME') {
    if (!s) return { value: fn === 'COUNT' ? 0 : null, time: null };
    const rows = await ctx.src.reads.latestN(s, w.ndata);
    const readings = rows.filter((p) => p[1] !== null).map((p) => [p[0], p[1]!] as const);
    return { value: valuesAggregate(fn, readings), time: rows.length ? rows[rows.length - 1]![0] : null };
  }
  if (!s) return { value: fn === 'COUNT' ? 0 : null, time: null };
  const r = ctx.src.reads;
  const bounds = [w.start, w.end];
  const pieces = await r.pieces(s, w.start, w.end, 'hour');
  const usage = fn === 'USAGE' ? await usageContext(r, s, w.start, pieces) : undefined;
  const value = bucketAggregates(fn, pieces, bounds, usage)[0] ?? null;
  const last = pieces.length ? pieces[pieces.length - 1]!.lastTs : null;
  return { value, time: last === null ? null : Math.min(last, w.end - 1) };
}

/** A series value through a data or aggregate function. */
function seriesValue(fn: string, s: SeriesRef | null, ctx: EvalContext): Scalar | Promise<Scalar> {
  if (fn === 'LATEST') return latestOf(s, ctx);
  if (isAggregate(fn)) return aggregateOf(fn, s, ctx);
  throw new CardError(T.dashboards.component.queryNotOffered);
}

/** One value per labelled series; a param read whole answers an object of its subparams. */
function valueOfSeries(fn: string, list: LabelledSeries[], ctx: EvalContext): Scalar | Promise<Scalar> {
  if (list.length === 1 && !list[0]!.whole) return seriesValue(fn, list[0]!.series, ctx);
  return valuesOfSeries(fn, list, ctx);
}

async function valuesOfSeries(fn: string, list: LabelledSeries[], ctx: EvalContext): Promise<Scalar> {
  const value: Record<string, unknown> = {};
  let time: number | null = null;
  for (const l of list) {
    const v = await seriesValue(fn, l.series, ctx);
    value[l.label] = v.value;
    if (v.time !== null && (time === null || v.time > time)) time = v.time;
  }
  return { value, time };
}

// ---- the four shapes ----

/** One value: single-value, title and command status lines, variables. */
export async function scalarQuery(q: Query, ctx: EvalContext): Promise<Scalar> {
  const fn = q.query ?? 'LATEST';
  switch (q.queryType) {
    case 'device':
    case 'graph':
    case 'three_phase': {
      const deviceId = deviceIdOf(q, ctx);
      if (isStateQuery(q)) {
        ctx.deps.add(depKey.state(deviceId, q.param ?? ''));
        return stateValue(fn, q, ctx, deviceId);
      }
      ctx.deps.add(depKey.param(deviceId, q.sensor ?? '', q.config ?? '', q.param ?? ''));
      return valueOfSeries(fn, await seriesOf(q, ctx, deviceId, false), ctx);
    }
    case 'device_id': {
      const d = await oneDevice(q, ctx);
      if (isDeviceInfo(fn)) return { value: deviceInfo(fn, d), time: fn === 'ONLINE' ? d.lastOnlineTs : null };
      if (fn === 'LATEST_UPDATE') return { value: await ctx.src.reads.newestOfDevice(ctx.appId, d.id), time: null };
      throw new CardError(T.dashboards.component.queryNotOffered);
    }
    case 'tags': {
      ctx.deps.add(depKey.app(ctx.appId));
      const devices = await ctx.src.directory.matching(ctx.appId, q.tags);
      if (fn !== 'TOTAL_DEVICE' && fn !== 'APP_ONLINE') throw new CardError(T.dashboards.component.queryNotOffered);
      return { value: deviceCount(fn, devices), time: ctx.now };
    }
    case 'condition':
    case 'condition_bool': {
      if (!isCondition(fn)) throw new CardError(T.dashboards.component.queryNotOffered);
      return { value: await ctx.vars.condition(fn, q), time: ctx.now };
    }
    case 'device_no_id':
    case 'none': {
      // a list/map query read as one value: the first device of the card's tags
      const rows = await perDeviceQuery(q, ctx);
      const first = rows.rows[0];
      return first ? { value: first.value, time: first.time } : { value: null, time: null };
    }
  }
}

/** A chart: one row per bucket (or per point for REALTIME), one key per series label. */
export async function chartQuery(q: Query, ctx: EvalContext): Promise<Chart> {
  const fn = q.query ?? 'AVG';
  if (q.queryType === 'condition' || q.queryType === 'condition_bool') {
    const v = await scalarQuery(q, ctx);
    return { keys: ['value'], rows: [{ ts: ctx.now, value: v.value }] };
  }
  if (q.queryType !== 'graph' && q.queryType !== 'device' && q.queryType !== 'three_phase')
    throw new CardError(T.dashboards.component.queryNotOffered);
  if (isStateQuery(q)) throw new CardError(T.cards.stateLatestOnly);
  if (!isAggregate(fn)) throw new CardError(T.dashboards.component.queryNotOffered);
  const deviceId = deviceIdOf(q, ctx);
  ctx.deps.add(depKey.param(deviceId, q.sensor ?? '', q.config ?? '', q.param ?? ''));
  const list = await seriesOf(q, ctx, deviceId, true);
  const keys = list.map((l) => l.label);
  const w = wrap(() => ctx.window());
  const r = ctx.src.reads;
  if (w.type === 'REALTIME') {
    // the last N points of each series, rows merged by time
    const byTs = new Map<number, Record<string, unknown>>();
    for (const l of list) {
      if (!l.series) continue;
      for (const [ts, num, text] of await r.latestN(l.series, w.ndata)) {
        let row = byTs.get(ts);
        if (!row) byTs.set(ts, (row = { ts }));
        row[l.label] = decodeValue(l.series.datatype, num, text);
      }
    }
    return { keys, rows: [...byTs.values()].sort((a, b) => (a.ts as number) - (b.ts as number)) };
  }
  const level = levelFor(w.boundaries);
  const n = w.boundaries.length - 1;
  const rows: Record<string, unknown>[] = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = { ts: w.boundaries[i] };
  for (const l of list) {
    const s = l.series;
    let values: (number | null)[];
    if (s) {
      const pieces = await r.pieces(s, w.start, w.end, level);
      const usage = fn === 'USAGE' ? await usageContext(r, s, w.start, pieces) : undefined;
      values = bucketAggregates(fn, pieces, w.boundaries, usage);
    } else values = new Array(n).fill(fn === 'COUNT' ? 0 : null);
    for (let i = 0; i < n; i++) rows[i]![l.label] = values[i];
  }
  return { keys, rows };
}

/** The functions whose buckets hold readings (a level, not an amount): their newest reading is the series' value now. */
const LEVEL_FUNCTIONS = new Set(['AVG', 'MAX', 'MIN', 'LAST', 'SAMPLE']);

/**
 * The newest reading of each series a chart query draws, by its label: a monitoring chart's headline, which must say
 * what the device reports now (as a list card's LATEST does), not the last bucket's MAX or AVG. Undefined for amounts
 * (USAGE, SUM, COUNT: the last bucket is "this hour so far", a reading would be a lifetime counter) and for queries
 * that are not a device's series.
 */
export async function chartLatest(q: Query, ctx: EvalContext): Promise<Record<string, Scalar> | undefined> {
  const fn = q.query ?? 'AVG';
  if (!LEVEL_FUNCTIONS.has(fn) || (q.queryType !== 'graph' && q.queryType !== 'device') || isStateQuery(q))
    return undefined;
  const deviceId = deviceIdOf(q, ctx);
  const out: Record<string, Scalar> = {};
  for (const l of await seriesOf(q, ctx, deviceId, true)) out[l.label] = latestOf(l.series, ctx);
  return out;
}

export interface DeviceRow extends Scalar {
  device: DeviceFacts;
}

/** One value per device of the card's tags (list and map cards): device_no_id reads a series, none a device fact. */
export async function perDeviceQuery(
  q: Query,
  ctx: EvalContext,
  devices?: DeviceFacts[],
): Promise<{ rows: DeviceRow[]; total: number }> {
  const fn = q.query ?? 'LATEST';
  const all = devices ?? (await ctx.src.directory.matching(ctx.appId, ctx.tags));
  ctx.deps.add(depKey.app(ctx.appId));
  const list = all.length > MAX_LIST_DEVICES ? all.slice(0, MAX_LIST_DEVICES) : all;
  const rows: DeviceRow[] = new Array(list.length);
  if (q.queryType === 'device_no_id' && isStateQuery(q)) {
    ctx.deps.add(depKey.anyState(ctx.appId, q.param ?? ''));
    for (let i = 0; i < list.length; i++)
      rows[i] = { device: list[i]!, ...(await stateValue(fn, q, ctx, list[i]!.id, undefined, true)) };
  } else if (q.queryType === 'device_no_id') {
    ctx.deps.add(depKey.anyDevice(ctx.appId, q.sensor ?? '', q.config ?? '', q.param ?? ''));
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!;
      // awaited only when something is read (see seriesOf)
      let series = seriesOf(q, ctx, d.id, false, true);
      if (series instanceof Promise) series = await series;
      let v = valueOfSeries(fn, series, ctx);
      if (v instanceof Promise) v = await v;
      rows[i] = { device: d, ...v };
    }
  } else if (q.queryType === 'none') {
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!;
      if (isDeviceInfo(fn)) rows[i] = { device: d, value: deviceInfo(fn, d), time: null };
      else if (fn === 'LATEST_UPDATE')
        rows[i] = { device: d, value: await ctx.src.reads.newestOfDevice(ctx.appId, d.id), time: null };
      else throw new CardError(T.dashboards.component.queryNotOffered);
    }
  } else {
    const v = await scalarQuery(q, ctx);
    for (let i = 0; i < list.length; i++) rows[i] = { device: list[i]!, ...v };
  }
  return { rows, total: all.length };
}

/** Three-phase: the latest of the three subparams (Data 1, 2, 3). */
export async function threePhaseQuery(q: Query, ctx: EvalContext): Promise<Scalar[]> {
  const deviceId = deviceIdOf(q, ctx);
  const subs = Array.isArray(q.subparam) ? q.subparam : [];
  if (isStateQuery(q)) {
    // a state whose value is an object: Data 1-3 are three of its fields
    ctx.deps.add(depKey.state(deviceId, q.param ?? ''));
    const out: Scalar[] = [];
    for (let i = 0; i < 3; i++)
      out.push(
        subs[i] === undefined
          ? { value: null, time: null }
          : await stateValue(q.query ?? 'LATEST', q, ctx, deviceId, subs[i]),
      );
    return out;
  }
  ctx.deps.add(depKey.param(deviceId, q.sensor ?? '', q.config ?? '', q.param ?? ''));
  const out: Scalar[] = [];
  for (let i = 0; i < 3; i++) {
    const sub = subs[i];
    if (sub === undefined) {
      out.push({ value: null, time: null });
      continue;
    }
    const s = await ctx.src.reads.series(ctx.appId, deviceId, q.sensor ?? '', q.config ?? '', q.param ?? '', sub);
    if (!s) await requireDevice(ctx, deviceId);
    out.push(await seriesValue(q.query ?? 'LATEST', s, ctx));
  }
  return out;
}
