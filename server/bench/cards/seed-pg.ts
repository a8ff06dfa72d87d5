// The card bench's data on PostgreSQL: the same devices, series, points and rollups as the SQLite seeder writes row by
// row (cards.bench.ts), made by the server itself with generate_series, 50 devices' points per statement until the
// budget runs out. Values follow the same curve (230 V ± 10, a step of 0.1).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { AppStore } from '../../src/db.js';

export interface PgSeed {
  appId: number;
  devices: number;
  /** the first `dense` devices get `densePoints` points, the others `sparsePoints` */
  dense: number;
  densePoints: number;
  sparsePoints: number;
  stepMs: number;
  now: number;
  budgetMs: number;
}

const rollup = (table: string, size: number, from: number, to: number) => sql`
  insert into ${sql.raw(table)} (series_id, bucket_ts, "count", "sum", "min", "max", "first", first_ts, "last", last_ts)
  select series_id, ts - ts % ${sql.raw(String(size))}, count(*), sum(num), min(num), max(num), (array_agg(num order by ts))[1], min(ts),
    (array_agg(num order by ts desc))[1], max(ts)
  from telemetry_points where series_id between ${from}::bigint and ${to}::bigint
  group by series_id, ts - ts % ${sql.raw(String(size))}`;

/** points (and their rollups) of the devices' series, in chunks of 50 devices; answers what was seeded */
export async function seedPostgres(store: AppStore, o: PgSeed): Promise<{ points: number; seededDevices: number }> {
  const started = performance.now();
  await store.exec(sql`
    insert into devices (id, app_id, category, category_text, device_type, name, serial_number, tags, online, created_at, updated_at)
    select d, ${o.appId}::bigint, 8, 'MQTT', 'MQTT', 'Meter ' || d, 'SN-' || d, '{"zona":["z' || (d % 10) || '"]}', 0, 0, 0
    from generate_series(1, ${o.devices}::int) d`);
  let points = 0;
  let seededDevices = 0;
  for (let d = 1; d <= o.devices; d += 50) {
    if (performance.now() - started > o.budgetMs) break;
    const last = Math.min(o.devices, d + 49);
    await store.tx(async () => {
      await store.exec(sql`
        insert into telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at)
        select ${o.appId}::bigint, d, 'pm', 'meter', 'voltage', '', 'number', 0 from generate_series(${d}::int, ${last}::int) d`);
      const ids = await store.rows<{ id: number; device_id: number }>(
        sql`select id, device_id from telemetry_series where app_id = ${o.appId} and device_id between ${d} and ${last}`,
      );
      for (const n of [o.densePoints, o.sparsePoints]) {
        const of = ids.filter((s) => (s.device_id <= o.dense ? o.densePoints : o.sparsePoints) === n).map((s) => s.id);
        if (of.length === 0) continue;
        const start = o.now - n * o.stepMs;
        await store.exec(sql`
          insert into telemetry_points (series_id, ts, num)
          select s, ${start}::bigint + i * ${o.stepMs}::bigint, round(((230 + 10 * sin(i / 500.0) + (i % 7)) * 10)::numeric) / 10
          from unnest(${sql.raw(`array[${of.join(',')}]::bigint[]`)}) s, generate_series(0, ${n - 1}::int) i`);
        points += n * of.length;
      }
      const from = Math.min(...ids.map((s) => s.id));
      const to = Math.max(...ids.map((s) => s.id));
      await store.exec(rollup('telemetry_rollup_minute', 60_000, from, to));
      await store.exec(rollup('telemetry_rollup_hour', 3_600_000, from, to));
    });
    seededDevices = last;
  }
  await store.exec(sql`analyze`);
  return { points, seededDevices };
}

/** the database's size on disk, MB */
export async function pgDatabaseMb(store: AppStore): Promise<number> {
  const row = await store.one<{ bytes: number }>(sql`select pg_database_size(current_database()) as bytes`);
  return Math.round((row?.bytes ?? 0) / 1048576);
}
