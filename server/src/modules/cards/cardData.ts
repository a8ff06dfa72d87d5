// A card's live data fields (spec 02 section 3 "Live card data") from its component: the filter it is read with, its
// variables, and the fields its view uses, filled by its query kind (cardKinds.ts). Evaluation errors become `success: false` with `alert`.
// Values go out raw: the cards print them with the card display rules (web/src/cards/common/format.ts), once.
import {
  DECIMALS_DEFAULT,
  DeviceVariable,
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
import { CardError, VariableScope, type EngineSources, type EvalContext } from './cardQuery.js';
import { cardKind, fillCard } from './cardKinds.js';
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

function windowInfo(w: CardWindow | undefined): CardData['window'] {
  if (!w) return undefined;
  if (w.type === 'REALTIME') return { type: w.type, ndata: w.ndata };
  return { type: w.type, start: w.start, end: w.end, period: w.period, interval: w.interval };
}

export async function evaluateCard(src: EngineSources, req: CardRequest): Promise<CardResult> {
  const { component: c, conf } = req;
  const deps = new Set<string>();
  const decimals = c.view?.decimal ?? conf.view?.decimal ?? DECIMALS_DEFAULT;
  const vars = new VariableScope([
    overrides(req.query.vars),
    c.var as Record<string, unknown> | undefined,
    conf.var as Record<string, unknown> | undefined,
  ]);
  let window: CardWindow | undefined;
  const bucketed = cardKind(c.cat).bucketed;
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
    await fillCard(data, c, ctx);
  } catch (err) {
    if (!(err instanceof CardError)) throw err;
    data.success = false;
    data.alert = err.message;
  }
  data.window = windowInfo(window);
  if (window && window.name) data.secondary = window.name;
  return { data, deps, window };
}
