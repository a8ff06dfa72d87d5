// Telemetry's reads as the rest of the gateway asks them, on either engine: series by key inside an application, a
// device's series with their latest values, points of a window, rollups with the deltas not yet merged overlaid. Every
// read answers a promise, since PostgreSQL answers over the network; on SQLite the same synchronous reads as before
// answer at once (an `await` of a value already there costs a microtask, no thread or I/O).
import { decodeValue } from '../datatypes.js';
import type { RollupKeeper } from '../store/rollups.js';
import type { LatestValue } from '../store/series.js';
import type { TelemetryStore } from '../store/telemetry-store.js';
import { EARLIEST, LATEST, type PointReads } from './point-reads.js';
import { clampN, overlayPending, pointViews, rollupPlan, type SeriesView, type TelemetryReads } from './reads.js';
import type { SeriesKeys } from './series-keys.js';

type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** series, latest values, points and rollups (reads.ts, series-keys.ts), asynchronous */
export type TelemetryQuery = Async<TelemetryReads> &
  Async<SeriesKeys> & {
    /** raw point rows [ts, num, text] of one series, memory's uncompacted points merged in (point-reads.ts) */
    points: Async<PointReads>;
  };

function lift<T extends object>(sync: T): Async<T> {
  const out = {} as Record<string, unknown>;
  for (const [k, f] of Object.entries(sync))
    if (typeof f === 'function') out[k] = (...args: unknown[]) => Promise.resolve((f as Function)(...args));
  return out as Async<T>;
}

/** the SQLite reads behind the asynchronous interface */
export function sqliteTelemetryQuery(reads: TelemetryReads, keys: SeriesKeys, points: PointReads): TelemetryQuery {
  return { ...lift(reads), ...lift(keys), points: lift(points) };
}

/** what the store-backed reads need besides the telemetry store */
export interface StoreQuerySources {
  store: Pick<TelemetryStore, 'points' | 'series' | 'rollups'>;
  /** the application's series of a device, ordered by sensor, configtype, param, subparam (byte order) */
  seriesOfDevice(appId: number, deviceId: number): Promise<SeriesView[]>;
  /** latest values cached in memory (the series registry) */
  series?: { byId(id: number): { latest: LatestValue | null } | undefined };
  /** the rollup deltas not yet durable, overlaid on what the store holds */
  rollups?: RollupKeeper;
}

/**
 * The same reads over a telemetry store's asynchronous points, series and rollups (PostgreSQL): the rollup overlay,
 * the day grouping and the point decoding are reads.ts' own (overlayPending, rollupPlan, pointViews). No journal here:
 * every committed point is in the table.
 */
export function storeTelemetryQuery(src: StoreQuerySources): TelemetryQuery {
  const { store } = src;
  const last = async (s: SeriesView): Promise<LatestValue | null> => {
    const cached = src.series?.byId(s.id)?.latest;
    if (cached) return cached;
    const row = await store.points.last(s.id);
    return row ? { ts: row[0], num: row[1], text: row[2] } : null;
  };
  return {
    seriesOfDevice: (appId, deviceId) => src.seriesOfDevice(appId, deviceId),
    async findSeries(appId, deviceId, key) {
      const s = await store.series.byKey(appId, deviceId, key.sensor, key.configtype, key.param, key.subparam ?? '');
      return s ?? null;
    },
    async latestOfDevice(appId, deviceId) {
      const series = await src.seriesOfDevice(appId, deviceId);
      const lasts = await Promise.all(series.map(last));
      return series.map((s, i) => {
        const l = lasts[i]!;
        return {
          ...s,
          ts: l?.ts ?? null,
          value: l ? decodeValue(s.datatype, l.num, l.text) : null,
          data_exist: l !== null,
        };
      });
    },
    latestN: async (s, n) => pointViews(s, await store.points.newest(s.id, EARLIEST, LATEST, clampN(n))),
    range: async (s, start, end, limit = 10_000) =>
      pointViews(s, await store.points.oldest(s.id, start, end, clampN(limit))),
    newestInRange: async (s, start, end, limit) =>
      pointViews(s, await store.points.newest(s.id, start, end, clampN(limit))),
    async rollups(s, opts) {
      const plan = rollupPlan(opts);
      const keeper = src.rollups;
      const stored = await store.rollups.read(plan.level, s.id, plan.start, plan.end, keeper?.writer);
      return plan.group(overlayPending(stored, keeper, plan.level, s.id, plan.start, plan.end));
    },
    byKey: (appId, deviceId, sensor, configtype, param, subparam) =>
      store.series.byKey(appId, deviceId, sensor, configtype, param, subparam),
    ofParam: (appId, deviceId, sensor, configtype, param) =>
      store.series.ofParam(appId, deviceId, sensor, configtype, param),
    idsOfDevice: (appId, deviceId) => store.series.idsOfDevice(appId, deviceId),
    points: {
      oldest: (id, lo, hi, limit) => store.points.oldest(id, lo, hi, limit),
      newest: (id, lo, hi, limit) => store.points.newest(id, lo, hi, limit),
      last: (id) => store.points.last(id),
    },
  };
}
