// The live context of one dashboard view: which feed each card reads (the dashboard's filter; cards affected by a
// dropdown selector read a second feed carrying the selected variables), the dashboard decimals, and the variables
// set by selectors. `useCardData(dashboardId, componentKey)` is how a card gets its data.
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { CARD_LIVE, contracts, REFRESH_MIN_MS, type CardSubscribeParams } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { filterQuery, type ViewFilter } from '../../screens/dashboards/viewFilter.js';
import { subscriptionKey, type LiveHub } from '../../live/hub.js';
import { liveHubOrRefusing } from '../../live/socket.js';
import { acquireFeed, peekFeed, releaseFeed, type CardFeed, type CardState, type FeedStatus } from './cardFeed.js';
import { preloadView } from '../../cards/common/preloadView.js';
import { cardDefinition } from '../../cards/registry.js';
import { preloadChartLibrary } from '../../cards/chart/chartDraws.js';

export interface LiveDashboardValue {
  dashboardId: number;
  hub: LiveHub;
  base: CardSubscribeParams;
  /** the feed of the cards affected by selected variables (undefined while nothing is selected) */
  selected?: { params: CardSubscribeParams; keys: ReadonlySet<string> };
  variables: Readonly<Record<string, unknown>>;
  /** the dashboard's stored global variables (conf_dashboard.var) */
  globals?: Readonly<Record<string, unknown>>;
  setVariable(key: string, value: unknown, setter?: string): void;
  decimals?: number;
  /** fallback polling interval when the live channel is refused (ms) */
  pollMs: number;
}

const LiveDashboardContext = createContext<LiveDashboardValue | null>(null);

/** The channel's filter fields of a view filter: a filter variable by id, or the range (a span ending now, or instants). */
export function filterParams(filter: ViewFilter | undefined): Omit<CardSubscribeParams, 'dashboard_id'> {
  return filterQuery(filter) as Omit<CardSubscribeParams, 'dashboard_id'>;
}

interface AffectableComponent {
  key: string;
  cat?: string;
  model?: { affected_by?: unknown };
}

/** The cards a variable change re-queries: those listing the variable (or the selector setting it) in `affected_by`. */
export function affectedCards(components: readonly AffectableComponent[], changed: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const c of components) {
    const by = c.model?.affected_by;
    if (Array.isArray(by) && by.some((k) => changed.has(String(k)))) out.add(c.key);
  }
  return out;
}

/**
 * What a dashboard's cards will need, requested as soon as its record is known (the view screen calls this when the
 * record arrives, before it renders; LiveDashboard again, for the other ways in): the cards' view chunks, and Plotly's
 * chunk (1.1 MB) when a Plotly chart is shown, at low priority so the views still come first: its compile (on a
 * background thread) must be over before the first chart draws. Repeated calls request nothing twice.
 */
export function preloadDashboardViews(components: readonly { cat?: string }[]): void {
  const views = new Set(
    components.map((c) => (c.cat ? cardDefinition(c.cat)?.view : undefined)).filter((v) => v !== undefined),
  );
  const charts = components.some((c) => !!c.cat && c.cat.endsWith('CHART_CARD') && c.cat !== 'TEXT_CHART_CARD');
  if (charts) preloadChartLibrary();
  void Promise.all([...views].map(preloadView));
}

/** The channel parameters of a dashboard view with this filter (its cards' shared feed). */
export const dashboardParams = (dashboardId: number, filter: ViewFilter | undefined): CardSubscribeParams =>
  ({ dashboard_id: dashboardId, ...filterParams(filter) }) as CardSubscribeParams;

/**
 * A dashboard view about to render (its record just arrived): its channel is joined now, so the gateway computes the
 * cards' first frames while the browser renders the page, instead of from the moment LiveDashboard mounts (~150 ms
 * later). The feed is released at once and kept for the hub's release delay: LiveDashboard takes it over, or it closes.
 */
export function joinDashboardEarly(
  dashboardId: number,
  filter: ViewFilter | undefined,
  hub: LiveHub = liveHubOrRefusing(),
): void {
  releaseFeed(hub, acquireFeed(hub, dashboardParams(dashboardId, filter)));
}

/** how often a card polls its GET when the channel is refused and the dashboard has no refresh rate (auto, ≤ 5 cards) */
const FALLBACK_POLL_MS = 10_000;

export function LiveDashboard(props: {
  dashboardId: number;
  filter?: ViewFilter;
  components: readonly AffectableComponent[];
  decimals?: number;
  /** the dashboard's refresh (`dashboardRefreshMs`): how often a card without pushes (channel refused) polls */
  refreshMs?: number;
  globals?: Record<string, unknown>;
  /** the live hub (default: the page's, see web/src/live/socket.ts) */
  hub?: LiveHub;
  children: ReactNode;
}) {
  const { dashboardId, filter, components, decimals } = props;
  const [pageHub] = useState(() => (props.hub ? undefined : liveHubOrRefusing()));
  const hub = props.hub ?? pageHub!;
  const [variables, setVariables] = useState<Record<string, unknown>>({});
  // the selectors that set each variable count as changed too (a card may name the selector's key)
  const [setters, setSetters] = useState<Record<string, string>>({});
  const base = useMemo(() => dashboardParams(dashboardId, filter), [dashboardId, filter]);
  const setVariable = useCallback((key: string, value: unknown, setter?: string) => {
    setVariables((v) => ({ ...v, [key]: value }));
    if (setter) setSetters((s) => ({ ...s, [key]: setter }));
  }, []);
  const selected = useMemo(() => {
    const names = Object.keys(variables);
    if (names.length === 0) return undefined;
    const changed = new Set([...names, ...names.map((n) => setters[n]).filter((s): s is string => !!s)]);
    const keys = affectedCards(components, changed);
    if (keys.size === 0) return undefined;
    return { params: { ...base, vars: variables, keys: [...keys].sort() } as CardSubscribeParams, keys };
  }, [variables, setters, components, base]);
  const value = useMemo<LiveDashboardValue>(
    () => ({
      dashboardId,
      hub,
      base,
      selected,
      variables,
      globals: props.globals,
      setVariable,
      decimals,
      pollMs: props.refreshMs && props.refreshMs > 0 ? Math.max(REFRESH_MIN_MS, props.refreshMs) : FALLBACK_POLL_MS,
    }),
    [dashboardId, hub, base, selected, variables, props.globals, setVariable, decimals, props.refreshMs],
  );
  // the dashboard's channel is joined before its cards render: the gateway computes their first frames while the
  // browser is busy drawing the grid (the cards then share this feed); it is left with the view. The cards' view
  // chunks are requested now too, so they are there when the first frames come (a card whose view is still loading
  // suspends, and React reveals it throttled). The grid then renders in a transition: React yields to the browser
  // every few milliseconds, so the socket's handshake and the subscribe go out while the 30 cards render, instead of
  // after them (measured: the subscribe left only once the grid was drawn).
  const baseSig = subscriptionKey(CARD_LIVE.channel, base);
  const [joined, setJoined] = useState(false);
  useLayoutEffect(() => {
    const feed = acquireFeed(hub, base);
    startTransition(() => setJoined(true));
    return () => releaseFeed(hub, feed);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hub, baseSig]);
  useLayoutEffect(() => preloadDashboardViews(components), [components]);
  return <LiveDashboardContext.Provider value={value}>{joined && props.children}</LiveDashboardContext.Provider>;
}

export function useLiveDashboard(): LiveDashboardValue | null {
  return useContext(LiveDashboardContext);
}

const noop = () => () => undefined;

export interface CardDataResult {
  state?: CardState;
  status: FeedStatus | 'idle';
}

/**
 * A card's live data: the shared feed of its dashboard channel (one subscription for all cards), updated once per
 * animation frame; a push re-renders only the card it is for. When the live channel is refused, the card's GET is
 * polled instead (first paint still works).
 */
export function useCardData(dashboardId: number, componentKey: string, enabled = true): CardDataResult {
  const ctx = useLiveDashboard();
  const params =
    ctx && enabled && ctx.dashboardId === dashboardId
      ? ctx.selected?.keys.has(componentKey)
        ? ctx.selected.params
        : ctx.base
      : undefined;
  const sig = params ? subscriptionKey(CARD_LIVE.channel, params) : '';
  // the dashboard's feed is open already (LiveDashboard joined it before rendering the grid): a card mounting after
  // its first frame came renders with it at once, instead of a loading state and two more renders
  const [feed, setFeed] = useState<CardFeed | undefined>(() => (ctx && params ? peekFeed(ctx.hub, params) : undefined));
  useEffect(() => {
    if (!ctx || !params) return setFeed(undefined);
    const f = acquireFeed(ctx.hub, params);
    setFeed(f);
    return () => releaseFeed(ctx.hub, f);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ctx?.hub, sig]);
  // Plain state, not useSyncExternalStore: the feed hands over pushes in an animation frame, so the cards render in
  // React's default lane, where the commit paints before effects (a map's markers, chart draws) run; a store's updates
  // are synchronous, and so are the effects after them, which kept the values off screen until every effect had run.
  const [state, setState] = useState<CardState | undefined>(() => feed?.get(componentKey));
  useEffect(() => {
    if (!feed) return setState(undefined);
    setState(feed.get(componentKey));
    return feed.listen(componentKey, () => setState(feed.get(componentKey)));
  }, [feed, componentKey]);
  const status = useSyncExternalStore(
    useMemo(() => (feed ? (cb: () => void) => feed.listenStatus(cb) : noop), [feed]),
    () => feed?.status ?? 'idle',
  );
  // fallback: the channel was refused (no socket, a proxy without WebSocket): poll the card's GET
  const pollMs = ctx?.pollMs ?? 10_000;
  useEffect(() => {
    if (!feed || status !== 'failed') return;
    let live = true;
    const load = async () => {
      const { dashboard_id, keys: _keys, vars, ...filter } = feed.params;
      const r = await api.call(contracts.cards.get, {
        dashboardId: dashboard_id,
        componentKey,
        ...filter,
        ...(vars ? { vars: JSON.stringify(vars) } : {}),
      } as never);
      if (live && isOk(r)) feed.receive(componentKey, 'full', r.body as never);
    };
    void load();
    const timer = setInterval(() => void load(), pollMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [feed, status, componentKey, pollMs]);
  return { state, status: feed ? status : 'idle' };
}
