// Test and bench support: writes devices, series, points and their minute/hour rollups straight into the tables, as
// the ingest writer would have left them (the rollups folded with the writer's own merge rule). Never used by the
// gateway itself.
import type Database from 'better-sqlite3';
import { bucketOf, mergeBucket, ROLLUP_TABLE, type RollupBucket } from '../../telemetry/store/rollups.js';

export interface SeedDevice {
  id?: number;
  appId: number;
  name: string;
  label?: string;
  serialNumber?: string;
  category?: number;
  categoryText?: string;
  deviceType?: string;
  firmwareVersion?: string;
  latitude?: number | null;
  longitude?: number | null;
  online?: boolean;
  lastOnlineTs?: number | null;
  tags?: Record<string, string[]>;
}

export function seedDevice(sqlite: Database.Database, d: SeedDevice): number {
  const r = sqlite
    .prepare(
      `INSERT INTO devices (id, app_id, category, category_text, device_type, name, label, serial_number, latitude, longitude, tags, firmware_version, online, last_online_ts, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
    )
    .run(
      d.id ?? null,
      d.appId,
      d.category ?? 8,
      d.categoryText ?? 'MQTT',
      d.deviceType ?? 'MQTT',
      d.name,
      d.label ?? null,
      d.serialNumber ?? `SN-${d.name}`,
      d.latitude ?? null,
      d.longitude ?? null,
      JSON.stringify(d.tags ?? {}),
      d.firmwareVersion ?? '1.0',
      d.online ? 1 : 0,
      d.lastOnlineTs ?? null,
    );
  return Number(r.lastInsertRowid);
}

export function seedSeries(
  sqlite: Database.Database,
  s: {
    appId: number;
    deviceId: number;
    sensor: string;
    configtype: string;
    param: string;
    subparam?: string;
    datatype?: string;
  },
): number {
  const r = sqlite
    .prepare(
      'INSERT INTO telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0)',
    )
    .run(s.appId, s.deviceId, s.sensor, s.configtype, s.param, s.subparam ?? '', s.datatype ?? 'number');
  return Number(r.lastInsertRowid);
}

/** Points of one series (any order) with their rollups; call inside a transaction for speed. */
export function seedPoints(
  sqlite: Database.Database,
  seriesId: number,
  points: readonly (readonly [number, number])[],
): void {
  const insert = sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num) VALUES (?, ?, ?)');
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  const levels = { minute: new Map<number, RollupBucket>(), hour: new Map<number, RollupBucket>() };
  for (const [ts, v] of sorted) {
    insert.run(seriesId, ts, v);
    for (const [level, size] of [
      ['minute', 60_000],
      ['hour', 3_600_000],
    ] as const) {
      const b = bucketOf(ts, size);
      const one = { bucketTs: b, count: 1, sum: v, min: v, max: v, first: v, firstTs: ts, last: v, lastTs: ts };
      const hit = levels[level].get(b);
      if (hit) mergeBucket(hit, one);
      else levels[level].set(b, one);
    }
  }
  for (const level of ['minute', 'hour'] as const) {
    const up = sqlite.prepare(
      `INSERT INTO ${ROLLUP_TABLE[level]} (series_id, bucket_ts, "count", "sum", "min", "max", "first", first_ts, "last", last_ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const b of levels[level].values())
      up.run(seriesId, b.bucketTs, b.count, b.sum, b.min, b.max, b.first, b.firstTs, b.last, b.lastTs);
  }
}

/** A device's current state as the telemetry writer leaves it (`value` is stored as JSON text). */
export function seedState(
  sqlite: Database.Database,
  s: { appId: number; deviceId: number; key: string; value: unknown; since: number; ts: number },
): void {
  sqlite
    .prepare(
      'INSERT INTO device_states (device_id, app_id, key, value, initial_ts, latest_ts) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(s.deviceId, s.appId, s.key, s.value === null ? null : JSON.stringify(s.value), s.since, s.ts);
}
