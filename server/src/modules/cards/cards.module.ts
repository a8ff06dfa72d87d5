// Composes the card query engine: the sources it reads through their owners (telemetry series and rollups, devices,
// states, dashboards), the evaluation the GET, the CSV and the live push share, and the listeners that feed the live
// index (committed points; the device registry's presence and changes). What app.ts mounts and closes. Every source
// is engine-neutral: telemetry through its asynchronous reads and in-memory latest values, devices and states on the
// storage boundary's store.
import type { AppStore } from '../../db.js';
import type { CardFilterQuery } from '@sentra/contracts';
import type { Caller } from '../../platform/http/mount.js';
import type { Logger } from '../../platform/log.js';
import type { Realtime } from '../../platform/realtime/types.js';
import type { EngineTelemetryPipeline } from '../telemetry/ingest/pipeline.js';
import { createStateReads } from '../states/states.reads.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { componentOf, evaluateCard, type CardResult } from './cardData.js';
import { CardError, depKey, type EngineSources } from './cardQuery.js';
import { createCardsLive, type CardsLive } from './cards.live.js';
import { createAnswerCache, type AnswerCache } from './answerCache.js';
import { cardsRoutes, type CardCommandSender } from './cards.routes.js';
import type { DashboardGrants } from '../dashboards/grants.js';
import type { DashboardsStore } from '../dashboards/dashboards.store.js';
import { createDashboardViews, type DashboardViews, type DashboardView } from '../dashboards/views.js';
import { createDeviceDirectory } from './deviceDirectory.js';
import { createDeviceFactsReads } from '../devices/device-facts.js';
import { createSeriesReads, type CardTelemetry } from './seriesReads.js';

export interface CardEngine {
  src: EngineSources;
  /** the dashboards as the card calls view them (dashboards/views.ts: parsed, cached, the grants rule checked) */
  source: DashboardViews;
  /** evaluates one card of a dashboard the caller may view (the GET); answers asked "now" are cached (`answers`) */
  evaluate(caller: Caller, view: DashboardView, key: string, query: CardFilterQuery, now?: number): Promise<CardResult>;
  /** the same "now", synchronously when the answer is cached (a GET answered from memory pays no promise) */
  answerNow(caller: Caller, view: DashboardView, key: string, query: CardFilterQuery): CardResult | Promise<CardResult>;
  /** GET answers until what they read changes (the domain feeds it the same keys as the live index) */
  answers: AnswerCache;
  /** evaluates a card of a stored dashboard without an access check (rooms already joined); null when it is gone */
  evaluateStored(
    appId: number,
    tz: string,
    dashboardId: number,
    key: string,
    query: CardFilterQuery,
    now: number,
  ): Promise<CardResult | null>;
}

export function createCardEngine(
  store: AppStore,
  telemetry: CardTelemetry,
  opts: {
    grants: DashboardGrants;
    /** the dashboards' stored conf text (dashboards domain) */
    dashboards: Pick<DashboardsStore, 'confText'>;
    now?: () => number;
    directoryTtlMs?: number;
    changes?: Pick<AccessChanges, 'access' | 'dashboards'>;
    answerTtlMs?: number;
  },
): CardEngine {
  const now = opts.now ?? Date.now;
  const src: EngineSources = {
    reads: createSeriesReads(telemetry),
    directory: createDeviceDirectory(createDeviceFactsReads(store), { ttlMs: opts.directoryTtlMs, now }),
    states: createStateReads(store),
  };
  const source = createDashboardViews(opts.dashboards, { now, changes: opts.changes, grants: opts.grants });
  // 1 s: the clock drift of a relative window a cached answer may show (device facts are already read with 3 s)
  const answers = createAnswerCache({ ttlMs: opts.answerTtlMs ?? 1000, maxEntries: 5000, now });

  function run(
    appId: number,
    tz: string,
    view: DashboardView,
    key: string,
    query: CardFilterQuery,
    at: number,
  ): Promise<CardResult> {
    let component;
    try {
      component = componentOf(view, key);
    } catch (err) {
      if (err instanceof CardError)
        return Promise.resolve({ data: { key, cat: 'UNKNOWN', success: false, alert: err.message }, deps: new Set() });
      throw err;
    }
    return evaluateCard(src, { component, conf: view.conf, appId, tz, now: at, query });
  }

  // the same question asked again while it is being answered waits for that answer instead of reading again
  const answering = new Map<string, Promise<CardResult>>();
  async function answer(k: string, caller: Caller, view: DashboardView, key: string, query: CardFilterQuery) {
    const app = caller.app!;
    const evaluation = answers.begin();
    try {
      const result = await run(app.id, app.timezone, view, key, query, now());
      answers.set(k, result, evaluation);
      return result;
    } finally {
      answers.end(evaluation);
      answering.delete(k);
    }
  }

  function answerNow(caller: Caller, view: DashboardView, key: string, query: CardFilterQuery) {
    const app = caller.app!;
    // the view is per application and the answer depends on nothing of the caller beyond it (access was checked)
    const k = answers.keyOf(view, `${app.timezone}\u0000${key}`, query);
    const hit = answers.get(k);
    if (hit) return hit;
    let pending = answering.get(k);
    if (!pending) answering.set(k, (pending = answer(k, caller, view, key, query)));
    return pending;
  }

  return {
    src,
    source,
    answers,
    answerNow,
    evaluate(caller, view, key, query, at) {
      if (at !== undefined) {
        const app = caller.app!;
        return run(app.id, app.timezone, view, key, query, at);
      }
      const answer = answerNow(caller, view, key, query);
      return answer instanceof Promise ? answer : Promise.resolve(answer);
    },
    async evaluateStored(appId, tz, dashboardId, key, query, at) {
      const view = await source.load(appId, dashboardId);
      return !view || !(view.conf.dashboard?.[key] || view.broken.has(key))
        ? null
        : run(appId, tz, view, key, query, at);
    },
  };
}

/** a device row as the registry announces it */
interface DeviceChange {
  id: number;
  appId: number;
  online: boolean;
  lastOnlineTs: number | null;
}

export interface CardsDomainDeps {
  /** the storage boundary's store (devices and states are read through it) */
  store: AppStore;
  telemetry: EngineTelemetryPipeline;
  log: Logger;
  /** the device registry: its change events (added, removed, disabled) and presence (`status`: online ↔ offline) */
  devices?: { on(event: 'added' | 'removed' | 'disabled' | 'status', fn: (row: DeviceChange) => void): void };
  /** the command path (commands module); without it `/fetch/web/p` is not mounted */
  sendCommand?: CardCommandSender;
  /** dashboard and access writes: parsed dashboards and role menus are cached until the next one */
  changes?: Pick<AccessChanges, 'access' | 'dashboards'>;
  /** the application's one dashboard-grants rule and its cache (dashboards/grants.ts), shared with the dashboard calls */
  grants: DashboardGrants;
  /** the dashboards' stored conf text (dashboards domain) */
  dashboards: Pick<DashboardsStore, 'confText'>;
  now?: () => number;
}

/**
 * The card calls now (they are mounted before the HTTP server exists), the live push once socket.io is there
 * (`attachRealtime`): the commit, presence and registry listeners feed its index.
 */
export function createCardsDomain(deps: CardsDomainDeps) {
  const engine = createCardEngine(deps.store, deps.telemetry, {
    now: deps.now,
    changes: deps.changes,
    grants: deps.grants,
    dashboards: deps.dashboards,
  });
  let live: CardsLive | undefined;
  const offs: (() => void)[] = [];

  // what changed → the index keys it stands for → the live cards to recompute and the cached answers to drop
  const changedKeys = (keys: Iterable<string>) => {
    engine.answers.touch(keys);
    if (live?.watching) live.pointsCommitted(keys);
  };
  // committed points → the cards reading their param, on this device or on any device of the application;
  // committed states → the cards reading that state key (a query with sensor STATE_SENSOR)
  offs.push(
    deps.telemetry.subscribe((batch) => {
      if (!live?.watching && engine.answers.size === 0 && engine.answers.evaluating === 0) return;
      const keys = new Set<string>();
      for (const p of batch.points) {
        const s = deps.telemetry.series(p.seriesId);
        if (!s) continue;
        keys.add(depKey.param(s.deviceId, s.sensor, s.configtype, s.param));
        keys.add(depKey.anyDevice(s.appId, s.sensor, s.configtype, s.param));
      }
      for (const st of batch.states) {
        keys.add(depKey.state(batch.deviceId, st.key));
        keys.add(depKey.anyState(batch.appId, st.key));
      }
      changedKeys(keys);
    }),
  );
  // other gateways' commits and presence changes may have been missed (the bus reconnected; the latest values were read
  // again): every kept answer and snapshot goes, every watched card is computed again
  offs.push(
    deps.telemetry.onMended(() => {
      engine.answers.clear();
      engine.src.directory.invalidate();
      live?.refreshAll();
    }),
  );
  const deviceKeys = (appId: number, deviceId: number) => [depKey.device(deviceId), depKey.app(appId)];
  // presence is the registry's: it announces each online ↔ offline transition with the row it wrote (connect, last
  // disconnect, LWT, first message, silence, a crashed gateway's devices); recomputed after the broker event's turn
  const presence = (row: DeviceChange) => {
    engine.src.directory.presence(row.id, row.online, row.lastOnlineTs ?? 0);
    engine.answers.touch(deviceKeys(row.appId, row.id));
    live?.deviceChanged(row.appId, row.id);
  };
  deps.devices?.on('status', (row) => setImmediate(() => presence(row)));

  function attachRealtime(realtime: Realtime): CardsLive {
    if (live) return live;
    return (live = createCardsLive({ realtime, engine, log: deps.log, now: deps.now }));
  }

  const changed = (row: { id: number; appId: number }) => {
    engine.src.directory.invalidate(row.appId);
    engine.answers.touch(deviceKeys(row.appId, row.id));
    live?.deviceChanged(row.appId, row.id);
  };
  deps.devices?.on('added', changed);
  deps.devices?.on('removed', changed);
  deps.devices?.on('disabled', changed);

  return {
    engine,
    get live() {
      return live;
    },
    attachRealtime,
    routes: cardsRoutes({ engine, sendCommand: deps.sendCommand }),
    close() {
      for (const off of offs.splice(0)) off();
      live?.close();
    },
  };
}

export type CardsDomain = ReturnType<typeof createCardsDomain>;
