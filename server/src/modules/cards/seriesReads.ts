// Reads the card engine needs beyond the telemetry read service, all through telemetry's engine-neutral reads
// (`telemetry.query`, asynchronous) and its in-memory latest values: series lookup by key inside an application (cached;
// a hit answers without a read),
// raw points of [start, end) as bare numbers, the point just before an instant (a counter's baseline), and the window
// decomposed into pieces: hour rollups where whole hours fit, minute rollups at the edges, raw points for the rest.
// Raw points come through the telemetry point reads (the clustered table merged with the points not yet compacted) and
// the rollups through the telemetry reads, which overlay the deltas not yet merged, so an aggregate is exact the
// moment its points are stored.
import type { EngineTelemetryPipeline } from '../telemetry/ingest/pipeline.js';
import { EARLIEST, LATEST, type PointRow } from '../telemetry/read/point-reads.js';
import type { SeriesRef } from '../telemetry/read/series-keys.js';
import type { BucketView } from '../telemetry/read/reads.js';
import type { CounterReading } from './functions/usage.js';

export type { SeriesRef };

/** Aggregates of a stretch of a series: one rollup bucket, or one raw point (count 1). `to` is exclusive. */
export interface Piece {
  from: number;
  to: number;
  count: number;
  sum: number;
  min: number;
  max: number;
  first: number;
  /** the oldest point time inside (rollups store it with their aggregates) */
  firstTs: number;
  last: number;
  /** the newest point time inside (rollups store it with their aggregates) */
  lastTs: number;
}

export type Level = 'hour' | 'minute' | 'raw';
const SIZE = { hour: 3_600_000, minute: 60_000 } as const;
const FINER: Record<Level, Level> = { hour: 'minute', minute: 'raw', raw: 'raw' };
/** a stretch of a window read at one level */
interface Stretch {
  level: Level;
  from: number;
  to: number;
}
/** raw points a single read may return; a window needing more is summarised by its rollups instead */
export const MAX_RAW_POINTS = 200_000;
/** how long a series found absent is answered absent without asking again (while no series becomes known) */
export const ABSENT_KEPT_MS = 1000;

/** what the card engine reads of telemetry: the engine-neutral reads, the latest values and series learnt in memory */
export type CardTelemetry = Pick<EngineTelemetryPipeline, 'query' | 'series' | 'seriesLearnt'>;

export function createSeriesReads(telemetry: CardTelemetry, opts: { now?: () => number } = {}) {
  const keys = telemetry.query;
  const { points } = telemetry.query;
  /** [start, end): timestamps are whole milliseconds */
  const rows = (s: SeriesRef, start: number, end: number, limit: number): Promise<PointRow[]> =>
    points.oldest(s.id, start, end - 1, limit);

  // series never change identity: a hit is kept. A series appears when its first point arrives, so an absent one is
  // remembered only while this process learns of no new series (`seriesLearnt`: created here, or named by another
  // gateway's commit) and for at most ABSENT_KEPT_MS: a list card over hundreds of devices asks, on every update, for
  // the series most of them lack.
  const cache = new Map<string, SeriesRef>();
  const remember = (k: string, s: SeriesRef) => {
    if (cache.size > 200_000) cache.clear();
    cache.set(k, s);
    return s;
  };
  const now = opts.now ?? Date.now;
  /** keys found absent: series by key, and params without any subparam series (apart: a subparam may be any name) */
  function absentKeys() {
    const found = new Map<string, { learnt: number; at: number }>();
    return {
      has(k: string): boolean {
        const a = found.get(k);
        return !!a && a.learnt === telemetry.seriesLearnt && now() - a.at < ABSENT_KEPT_MS;
      },
      add(k: string): void {
        if (found.size > 200_000) found.clear();
        found.set(k, { learnt: telemetry.seriesLearnt, at: now() });
      },
    };
  }
  const absentSeries = absentKeys();
  const absentParams = absentKeys();
  const keyOf = (appId: number, deviceId: number, sensor: string, configtype: string, param: string, subparam = '') =>
    `${appId}\u001f${deviceId}\u001f${sensor}\u001f${configtype}\u001f${param}\u001f${subparam}`;

  /** a known series (or one known absent) from memory; undefined when it must be read */
  function cachedSeries(k: string): SeriesRef | null | undefined {
    const hit = cache.get(k);
    if (hit) return hit;
    if (absentSeries.has(k)) return null;
    return undefined;
  }

  async function readSeries(
    k: string,
    appId: number,
    deviceId: number,
    sensor: string,
    configtype: string,
    param: string,
    subparam: string,
  ) {
    const row = await keys.byKey(appId, deviceId, sensor, configtype, param, subparam);
    if (row) return remember(k, row);
    absentSeries.add(k);
    return null;
  }

  /**
   * The series of the key, null when the application has none. A promise only on a cache miss: a card reads dozens of
   * series per evaluation and a promise per known one would be most of its cost.
   */
  function series(
    appId: number,
    deviceId: number,
    sensor: string,
    configtype: string,
    param: string,
    subparam = '',
  ): SeriesRef | null | Promise<SeriesRef | null> {
    const k = keyOf(appId, deviceId, sensor, configtype, param, subparam);
    const known = cachedSeries(k);
    return known !== undefined ? known : readSeries(k, appId, deviceId, sensor, configtype, param, subparam);
  }

  function rawPieces(rows: PointRow[], out: Piece[]) {
    for (const [ts, v] of rows) {
      if (v === null) continue;
      out.push({ from: ts, to: ts + 1, count: 1, sum: v, min: v, max: v, first: v, firstTs: ts, last: v, lastTs: ts });
    }
  }

  function rollupPieces(buckets: BucketView[], size: number, out: Piece[]) {
    for (const b of buckets) {
      if (b.count === 0) continue;
      out.push({
        from: b.ts,
        to: b.ts + size,
        count: b.count,
        sum: b.sum,
        min: b.min,
        max: b.max,
        first: b.first,
        firstTs: b.firstTs,
        last: b.last,
        lastTs: b.lastTs,
      });
    }
  }

  /** the stretches [from, to) of the window and the level each is read at, in time order */
  function plan(start: number, end: number, level: Level, out: Stretch[]): Stretch[] {
    if (end <= start) return out;
    if (level === 'raw') return (out.push({ level, from: start, to: end }), out);
    const size = SIZE[level];
    const a = Math.ceil(start / size) * size;
    const b = Math.floor(end / size) * size;
    if (a >= b) return plan(start, end, FINER[level], out);
    plan(start, a, FINER[level], out);
    out.push({ level, from: a, to: b });
    return plan(b, end, FINER[level], out);
  }

  /**
   * [start, end) as pieces in time order: `level` rollups where they fit whole, finer ones at the edges. The stretches
   * are read at once (one await for all; on PostgreSQL their round trips overlap).
   */
  async function pieces(s: SeriesRef, start: number, end: number, level: Level, out: Piece[] = []): Promise<Piece[]> {
    const stretches = plan(start, end, level, []);
    const read = await Promise.all(
      stretches.map((t) =>
        t.level === 'raw'
          ? rows(s, t.from, t.to, MAX_RAW_POINTS)
          : telemetry.query.rollups(s, { bucket: t.level, start: t.from, end: t.to }),
      ),
    );
    stretches.forEach((t, i) =>
      t.level === 'raw'
        ? rawPieces(read[i] as PointRow[], out)
        : rollupPieces(read[i] as BucketView[], SIZE[t.level], out),
    );
    return out;
  }

  return {
    series,
    /** the subparam series of a param (the whole param chosen without a subparam) */
    seriesOfParam(
      appId: number,
      deviceId: number,
      sensor: string,
      configtype: string,
      param: string,
    ): SeriesRef[] | Promise<SeriesRef[]> {
      const k = keyOf(appId, deviceId, sensor, configtype, param);
      // known absent: answered without a promise (a list card asks this of every device lacking the series)
      if (absentParams.has(k)) return [];
      return keys.ofParam(appId, deviceId, sensor, configtype, param).then((found) => {
        if (found.length === 0) absentParams.add(k);
        return found;
      });
    },
    /** the newest point time of any series of the device (LATEST_UPDATE), null when it never sent data */
    async newestOfDevice(appId: number, deviceId: number): Promise<number | null> {
      let newest: number | null = null;
      for (const id of await keys.idsOfDevice(appId, deviceId)) {
        const ts = telemetry.series(id)?.latest?.ts;
        if (ts !== undefined && (newest === null || ts > newest)) newest = ts;
      }
      return newest;
    },
    /** the latest stored point (the telemetry latest-value cache) */
    latest(s: SeriesRef): { ts: number; num: number | null; text: string | null } | null {
      return telemetry.series(s.id)?.latest ?? null;
    },
    /** the newest `n` points, oldest first */
    async latestN(s: SeriesRef, n: number): Promise<PointRow[]> {
      return (await points.newest(s.id, EARLIEST, LATEST, n)).reverse();
    },
    pieces,
    /** raw points in [start, end) as [ts, num, text] rows, oldest first */
    rawRows(s: SeriesRef, start: number, end: number, limit = MAX_RAW_POINTS): Promise<PointRow[]> {
      return rows(s, start, end, limit);
    },
    /** the last point before `ts`, when numeric */
    async pointBefore(s: SeriesRef, ts: number): Promise<{ ts: number; v: number } | null> {
      const row = (await points.newest(s.id, EARLIEST, ts - 1, 1))[0];
      return row && row[1] !== null ? { ts: row[0], v: row[1] } : null;
    },
    /** a counter's last reading before `ts` with the interval from the one before it (USAGE's baseline) */
    async counterBefore(s: SeriesRef, ts: number): Promise<CounterReading | null> {
      const [last, before] = await points.newest(s.id, EARLIEST, ts - 1, 2);
      if (!last || last[1] === null) return null;
      return { v: last[1], ts: last[0], interval: before ? last[0] - before[0] : null };
    },
    /** raw points of one piece (a rollup bucket whose counter is not monotone) */
    async expand(s: SeriesRef, p: Piece): Promise<Piece[]> {
      const out: Piece[] = [];
      if (p.to > p.from) rawPieces(await rows(s, p.from, p.to, MAX_RAW_POINTS), out);
      return out;
    },
  };
}

export type SeriesReads = ReturnType<typeof createSeriesReads>;

/** The coarsest rollup level every interior bucket edge is aligned to (edges of the window decompose finer). */
export function levelFor(boundaries: readonly number[]): Level {
  let level: Level = 'hour';
  for (let i = 1; i < boundaries.length - 1; i++) {
    const b = boundaries[i]!;
    if (level === 'hour' && b % SIZE.hour !== 0) level = 'minute';
    if (level === 'minute' && b % SIZE.minute !== 0) return 'raw';
  }
  return level;
}
