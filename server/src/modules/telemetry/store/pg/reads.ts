// Telemetry's reads on PostgreSQL, answering what SQLite's do (point-reads.ts, series-keys.ts, rollup-rows.ts): the
// same rows, order and limits. Named statements (prepared once per pooled connection). Text is ordered `collate "C"`, byte
// order as SQLite's BINARY, whatever the database's collation.
import type pg from 'pg';
import type { PointRow } from '../../read/recent.js';
import type { SeriesRef } from '../../read/series-keys.js';
import { ROLLUP_TABLE, type RollupBucket, type RollupLevel } from '../rollups.js';
import type { PointWindows, RollupWindows, SeriesLookup } from '../telemetry-store.js';
import { EARLIEST, LATEST } from '../../read/point-reads.js';

const count = (limit: number) => Math.max(0, Math.floor(limit));

export function pgPointWindows(pool: pg.Pool): PointWindows {
  async function window(order: 'asc' | 'desc', seriesId: number, lo: number, hi: number, limit: number) {
    const n = count(limit);
    if (n === 0 || hi < lo) return [];
    const { rows } = await pool.query<PointRow>({
      name: `tele_points_${order}`,
      text: `select ts, num, text from telemetry_points where series_id = $1 and ts >= $2 and ts <= $3 order by ts ${order} limit $4`,
      values: [seriesId, lo, hi, n],
      rowMode: 'array',
    });
    return rows;
  }
  const windows: PointWindows = {
    oldest: (seriesId, lo, hi, limit) => window('asc', seriesId, lo, hi, limit),
    newest: (seriesId, lo, hi, limit) => window('desc', seriesId, lo, hi, limit),
    last: async (seriesId) => (await window('desc', seriesId, EARLIEST, LATEST, 1))[0] ?? null,
    async latest(seriesIds) {
      if (seriesIds.length === 0) return [];
      // one seek per series (a backward index scan per partition, merged)
      const { rows } = await pool.query<[number, number, number | null, string | null]>({
        name: 'tele_points_latest',
        text: `select u.i, p.ts, p.num, p.text from unnest($1::bigint[]) with ordinality u(id, i)
               cross join lateral (select ts, num, text from telemetry_points where series_id = u.id
                                   order by ts desc limit 1) p`,
        values: [seriesIds],
        rowMode: 'array',
      });
      const out = new Array<PointRow | null>(seriesIds.length).fill(null);
      for (const [i, ts, num, text] of rows) out[i - 1] = [ts, num, text];
      return out;
    },
  };
  return windows;
}

const SERIES_COLS = 'id, device_id as "deviceId", sensor, configtype, param, subparam, datatype';

export function pgSeriesLookup(pool: pg.Pool): SeriesLookup {
  return {
    async byKey(appId, deviceId, sensor, configtype, param, subparam) {
      const { rows } = await pool.query<SeriesRef>({
        name: 'tele_series_key',
        text: `select ${SERIES_COLS} from telemetry_series where device_id = $1 and sensor = $2 and configtype = $3 and param = $4 and subparam = $5 and app_id = $6`,
        values: [deviceId, sensor, configtype, param, subparam, appId],
      });
      return rows[0];
    },
    async ofParam(appId, deviceId, sensor, configtype, param) {
      const { rows } = await pool.query<SeriesRef>({
        name: 'tele_series_param',
        text: `select ${SERIES_COLS} from telemetry_series where device_id = $1 and sensor = $2 and configtype = $3 and param = $4 and app_id = $5 order by subparam collate "C"`,
        values: [deviceId, sensor, configtype, param, appId],
      });
      return rows;
    },
    async idsOfDevice(appId, deviceId) {
      const { rows } = await pool.query<[number]>({
        name: 'tele_series_device',
        text: 'select id from telemetry_series where app_id = $1 and device_id = $2 order by id',
        values: [appId, deviceId],
        rowMode: 'array',
      });
      return rows.map((r) => r[0]);
    },
  };
}

const toBucket = (r: number[]): RollupBucket => ({
  bucketTs: r[1]!,
  count: r[2]!,
  sum: r[3]!,
  min: r[4]!,
  max: r[5]!,
  first: r[6]!,
  firstTs: r[7]!,
  last: r[8]!,
  lastTs: r[9]!,
});

export function pgRollupWindows(pool: pg.Pool): RollupWindows {
  return {
    async read(level: RollupLevel, seriesId: number, start: number, end: number, writer?: string) {
      // one statement, one snapshot: the rows and the writer's generation agree (a left join keeps the generation
      // when the window has no row)
      const { rows } = await pool.query<(number | null)[]>({
        name: `tele_rollup_read_${level}`,
        text: `select g.generation, r.bucket_ts, r."count", r."sum", r."min", r."max", r."first", r.first_ts, r."last", r.last_ts
               from (select coalesce((select rollup_generation from telemetry_writer_state where writer = $4), 0) as generation) g
               left join lateral (select * from ${ROLLUP_TABLE[level]} where series_id = $1 and bucket_ts >= $2 and bucket_ts < $3) r on true
               order by r.bucket_ts`,
        values: [seriesId, start, end, writer ?? null],
        rowMode: 'array',
      });
      const generation = writer === undefined ? 0 : ((rows[0]?.[0] as number | undefined) ?? 0);
      return { rows: rows.filter((r) => r[1] !== null).map((r) => toBucket(r as number[])), generation };
    },
  };
}
