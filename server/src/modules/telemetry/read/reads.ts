// Reads for the data screens and card queries: a device's series with latest values, latest-N, ranges and rollups.
// Every read is an index seek on a clustered key: (device_id, ...) for series, (series_id, ts) for points and rollups.
import type Database from 'better-sqlite3';
import { decodeValue, type Datatype } from '../datatypes.js';
import { BUCKET_MS, mergeBucket, type RollupBucket, type RollupKeeper, type RollupLevel } from '../store/rollups.js';
import type { SeriesRegistry } from '../store/series.js';
import { zoneOffset } from '../../../platform/time/zone.js';
import { createRollupRows, type StoredRollups } from './rollup-rows.js';
import { createPointReads, EARLIEST, LATEST, type PointReads, type PointRow } from './point-reads.js';

/** A series found through its application: pass only these to the point reads (that is the tenant filter). */
export interface SeriesView {
  id: number;
  deviceId: number;
  sensor: string;
  configtype: string;
  param: string;
  subparam: string;
  datatype: Datatype;
}

export interface PointView {
  ts: number;
  value: unknown;
}

export interface LatestView extends SeriesView {
  ts: number | null;
  value: unknown;
  data_exist: boolean;
}

export interface BucketView {
  /** bucket start, epoch ms */
  ts: number;
  count: number;
  sum: number;
  min: number;
  max: number;
  avg: number;
  first: number;
  /** time of the oldest point inside, epoch ms (a counter's steps between buckets need both ends' times) */
  firstTs: number;
  last: number;
  /** time of the newest point inside, epoch ms (the rollups store it: "Diperbarui" shows it, not the bucket end) */
  lastTs: number;
}

export type BucketSize = 'minute' | 'hour' | 'day';

export const MAX_RANGE_POINTS = 100_000;

interface SeriesRow {
  id: number;
  device_id: number;
  sensor: string;
  configtype: string;
  param: string;
  subparam: string;
  datatype: Datatype;
}
const view = (r: SeriesRow): SeriesView => ({
  id: r.id,
  deviceId: r.device_id,
  sensor: r.sensor,
  configtype: r.configtype,
  param: r.param,
  subparam: r.subparam,
  datatype: r.datatype,
});

/** Start of the local day containing `ts`. */
export function startOfDay(ts: number, timeZone: string): number {
  const off = zoneOffset(ts, timeZone);
  const localMidnight = Math.floor((ts + off) / 86_400_000) * 86_400_000;
  return localMidnight - zoneOffset(localMidnight - off, timeZone);
}

const toView = (b: RollupBucket, ts = b.bucketTs): BucketView => ({
  ts,
  count: b.count,
  sum: b.sum,
  min: b.min,
  max: b.max,
  avg: b.sum / b.count,
  first: b.first,
  firstTs: b.firstTs,
  last: b.last,
  lastTs: b.lastTs,
});

/**
 * The stored rollup rows of a window with the keeper's deltas not yet durable folded in, in time order: one overlay
 * for both engines (the rows and the writer's durable generation read in one snapshot, by SQLite's statements or
 * PostgreSQL's).
 */
export function overlayPending(
  stored: StoredRollups,
  keeper: RollupKeeper | undefined,
  level: RollupLevel,
  seriesId: number,
  start: number,
  end: number,
): RollupBucket[] {
  const out = stored.rows;
  const pending = keeper?.pendingOf(level, seriesId, start, end, stored.generation) ?? [];
  if (pending.length === 0) return out;
  for (const p of pending) {
    const hit = out.find((b) => b.bucketTs === p.bucketTs);
    if (hit) mergeBucket(hit, p);
    else out.push(p);
  }
  return out.sort((a, b) => a.bucketTs - b.bucketTs);
}

/**
 * What a rollup read asks of the stored buckets (level and window) and how it makes its answer of them: minute and
 * hour straight from their rollups, day from the hour rollups grouped by local day of `timeZone` (from minute rollups
 * when the zone's offset is not whole hours). One implementation for both engines.
 */
export function rollupPlan(opts: { bucket: BucketSize; start: number; end: number; timeZone?: string }): {
  level: RollupLevel;
  start: number;
  end: number;
  group(buckets: RollupBucket[]): BucketView[];
} {
  const { start, end } = opts;
  if (opts.bucket !== 'day') {
    const size = BUCKET_MS[opts.bucket];
    return {
      level: opts.bucket,
      start: start - (((start % size) + size) % size),
      end,
      group: (buckets) => buckets.map((b) => toView(b)),
    };
  }
  const tz = opts.timeZone ?? 'Asia/Jakarta';
  const first = startOfDay(start, tz);
  const level: RollupLevel = zoneOffset(first, tz) % BUCKET_MS.hour === 0 ? 'hour' : 'minute';
  return {
    level,
    start: first,
    end,
    group(buckets) {
      const days: BucketView[] = [];
      let day: RollupBucket | undefined;
      let dayStart = first;
      let nextDay = startOfDay(first + 36 * 3_600_000, tz);
      for (const b of buckets) {
        while (b.bucketTs >= nextDay) {
          if (day) (days.push(toView(day, dayStart)), (day = undefined));
          dayStart = nextDay;
          nextDay = startOfDay(nextDay + 36 * 3_600_000, tz);
        }
        day = day ? mergeBucket(day, b) : { ...b };
      }
      if (day) days.push(toView(day, dayStart));
      return days;
    },
  };
}

/** stored point rows as the reads answer them; numbers, most points, need no decoding */
export function pointViews(s: SeriesView, rows: PointRow[]): PointView[] {
  const out = new Array<PointView>(rows.length);
  if (s.datatype === 'number') for (let i = 0; i < rows.length; i++) out[i] = { ts: rows[i]![0], value: rows[i]![1] };
  else
    for (let i = 0; i < rows.length; i++)
      out[i] = { ts: rows[i]![0], value: decodeValue(s.datatype, rows[i]![1], rows[i]![2]) };
  return out;
}

/** a count of points asked, within 1..MAX_RANGE_POINTS */
export const clampN = (n: number) => Math.max(1, Math.min(Math.floor(n), MAX_RANGE_POINTS));

export function createTelemetryReads(
  sqlite: Database.Database,
  live: { series?: SeriesRegistry; rollups?: RollupKeeper; points?: PointReads } = {},
) {
  const pointReads = live.points ?? createPointReads(sqlite, null);
  const COLS = 'id, device_id, sensor, configtype, param, subparam, datatype';
  const seriesOfDevice = sqlite.prepare(
    `SELECT ${COLS} FROM telemetry_series WHERE app_id = ? AND device_id = ? ORDER BY sensor, configtype, param, subparam`,
  );
  const findSeries = sqlite.prepare(
    `SELECT ${COLS} FROM telemetry_series WHERE device_id = ? AND sensor = ? AND configtype = ? AND param = ? AND subparam = ? AND app_id = ?`,
  );
  const rollupRows = createRollupRows(sqlite);

  const points = pointViews;

  /** stored buckets of [start, end) with the not-yet-flushed deltas folded in, in time order */
  function buckets(level: RollupLevel, seriesId: number, start: number, end: number): RollupBucket[] {
    const keeper = live.rollups;
    return overlayPending(
      rollupRows.read(level, seriesId, start, end, keeper?.writer),
      keeper,
      level,
      seriesId,
      start,
      end,
    );
  }

  return {
    seriesOfDevice(appId: number, deviceId: number): SeriesView[] {
      return (seriesOfDevice.all(appId, deviceId) as SeriesRow[]).map(view);
    },
    findSeries(
      appId: number,
      deviceId: number,
      key: { sensor: string; configtype: string; param: string; subparam?: string },
    ): SeriesView | null {
      const row = findSeries.get(deviceId, key.sensor, key.configtype, key.param, key.subparam ?? '', appId) as
        SeriesRow | undefined;
      return row ? view(row) : null;
    },
    /** every series of the device with its latest value (memory first, else one seek per series) */
    latestOfDevice(appId: number, deviceId: number): LatestView[] {
      return (seriesOfDevice.all(appId, deviceId) as SeriesRow[]).map((r) => {
        const s = view(r);
        const cached = live.series?.byId(s.id)?.latest;
        const row = cached ? null : pointReads.last(s.id);
        const last = cached ?? (row ? { ts: row[0], num: row[1], text: row[2] } : null);
        return {
          ...s,
          ts: last?.ts ?? null,
          value: last ? decodeValue(s.datatype, last.num, last.text) : null,
          data_exist: last !== null,
        };
      });
    },
    /** the newest `n` points, newest first */
    latestN(series: SeriesView, n: number): PointView[] {
      return points(series, pointReads.newest(series.id, EARLIEST, LATEST, clampN(n)));
    },
    /** points with start ≤ ts ≤ end, oldest first, at most `limit` */
    range(series: SeriesView, start: number, end: number, limit = 10_000): PointView[] {
      return points(series, pointReads.oldest(series.id, start, end, clampN(limit)));
    },
    /** points with start ≤ ts ≤ end, newest first, at most `limit` */
    newestInRange(series: SeriesView, start: number, end: number, limit: number): PointView[] {
      return points(series, pointReads.newest(series.id, start, end, clampN(limit)));
    },
    /**
     * Aggregates per bucket over [start, end): minute and hour straight from their rollups, day from the hour rollups
     * grouped by local day of `timeZone` (from minute rollups when the zone's offset is not whole hours).
     */
    rollups(
      series: SeriesView,
      opts: { bucket: BucketSize; start: number; end: number; timeZone?: string },
    ): BucketView[] {
      const plan = rollupPlan(opts);
      return plan.group(buckets(plan.level, series.id, plan.start, plan.end));
    },
  };
}

export type TelemetryReads = ReturnType<typeof createTelemetryReads>;
