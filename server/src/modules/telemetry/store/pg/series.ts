// The series registry on PostgreSQL (store/series.ts' SeriesRegistry): every series is loaded into memory at start
// with its latest value, so a message naming known series resolves at once, as on SQLite. A message naming a series
// not held waits for it (a promise, never a blocking call): it is inserted with `on conflict do nothing` and read back,
// because another gateway of a scale-out may create the same key at the same moment; both then hold the one row.
// One creation per device at a time (a device's messages keep their order behind it), the per-device cap kept.
import type pg from 'pg';
import type { Logger } from '../../../../platform/log.js';
import type { Datatype } from '../../datatypes.js';
import { ById } from '../../slots.js';
import {
  noteLatest,
  seriesInfoOf,
  type LatestValue,
  type SeriesInfo,
  type SeriesKey,
  type SeriesRegistry,
  type SeriesResolution,
  type SeriesRow,
} from '../series.js';
import type { PointWindows } from '../telemetry-store.js';
import { texts } from './arrays.js';

type Key = SeriesKey & { datatype: Datatype };

const COLS = 's.id, s.app_id, s.device_id, s.sensor, s.configtype, s.param, s.subparam, s.datatype';

/** latest values read at start per statement (one index seek each) */
const LATEST_CHUNK = 5000;

export interface PgSeriesOptions {
  maxSeriesPerDevice: number;
  now: () => number;
  points: Pick<PointWindows, 'latest' | 'last'>;
  log?: Logger;
}

export async function openPgSeriesRegistry(pool: pg.Pool, opts: PgSeriesOptions): Promise<SeriesRegistry> {
  /** device → "sensor\0configtype\0param\0subparam" → series (a key's parts never hold U+0000 once stored) */
  const tree = new Map<number, Map<string, SeriesInfo>>();
  const keyOf = (k: SeriesKey) => `${k.sensor}\0${k.configtype}\0${k.param}\0${k.subparam}`;
  const byId = new ById<SeriesInfo>();
  const perDevice = new Map<number, number>();
  /** the creation under way per device: the device's next creation waits for it */
  const creating = new Map<number, Promise<unknown>>();
  /** ids asked for by `byId` and being read */
  const learning = new Set<number>();
  const stats = { created: 0, create_ms: 0, max_create_ms: 0 };
  let learnt = 0;

  function remember(row: SeriesRow, latest: LatestValue | null, askedAs?: SeriesKey): SeriesInfo {
    const known = byId.get(row.id);
    const info: SeriesInfo = known ?? seriesInfoOf(row, latest);
    let keys = tree.get(info.deviceId);
    if (!keys) tree.set(info.deviceId, (keys = new Map()));
    keys.set(keyOf(info), info);
    // a key asked with U+0000 is stored with U+FFFD (pgText): the asked spelling finds the same series
    if (askedAs) keys.set(keyOf(askedAs), info);
    if (!known) {
      byId.set(info.id, info);
      perDevice.set(info.deviceId, (perDevice.get(info.deviceId) ?? 0) + 1);
      learnt++;
    }
    return info;
  }

  const lookup = (deviceId: number, k: SeriesKey) => tree.get(deviceId)?.get(keyOf(k));

  /** resolutions of keys all held (or past the device's cap, as SQLite answers at once); null when one is to create */
  function resolveHeld(deviceId: number, keys: readonly Key[]): SeriesResolution[] | null {
    const out = new Array<SeriesResolution>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const info = lookup(deviceId, keys[i]!);
      if (!info) {
        if ((perDevice.get(deviceId) ?? 0) < opts.maxSeriesPerDevice) return null;
        out[i] = 'series_limit';
        continue;
      }
      out[i] = info.datatype === keys[i]!.datatype ? info : 'datatype_mismatch';
    }
    return out;
  }

  async function latestOf(ids: number[]): Promise<(LatestValue | null)[]> {
    const out: (LatestValue | null)[] = [];
    for (let i = 0; i < ids.length; i += LATEST_CHUNK) {
      const rows = await opts.points.latest(ids.slice(i, i + LATEST_CHUNK));
      for (const r of rows) out.push(r ? { ts: r[0], num: r[1], text: r[2] } : null);
    }
    return out;
  }

  async function create(appId: number, deviceId: number, keys: readonly Key[]): Promise<SeriesResolution[]> {
    const held = resolveHeld(deviceId, keys);
    if (held) return held; // created meanwhile (an earlier message of the device)
    const missing: Key[] = [];
    const seen = new Set<string>();
    for (const k of keys) if (!lookup(deviceId, k) && !seen.has(keyOf(k))) (seen.add(keyOf(k)), missing.push(k));
    const room = Math.max(0, opts.maxSeriesPerDevice - (perDevice.get(deviceId) ?? 0));
    const wanted = missing.slice(0, room);
    if (wanted.length) {
      const started = performance.now();
      const cols = (f: (k: Key) => string) => texts(wanted.map(f));
      const values = [cols((k) => k.sensor), cols((k) => k.configtype), cols((k) => k.param), cols((k) => k.subparam)];
      const inserted = await pool.query<{ id: number }>({
        name: 'tele_series_create',
        text: `insert into telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at)
               select $1, $2, k.sensor, k.configtype, k.param, k.subparam, k.datatype, $3
               from unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) k(sensor, configtype, param, subparam, datatype)
               on conflict (device_id, sensor, configtype, param, subparam) do nothing returning id`,
        values: [appId, deviceId, opts.now(), ...values, cols((k) => k.datatype)],
      });
      // read back: the rows this gateway inserted and those another one did first
      const { rows } = await pool.query<SeriesRow & { i: number }>({
        name: 'tele_series_read_back',
        text: `select k.i, ${COLS} from unnest($2::text[], $3::text[], $4::text[], $5::text[]) with ordinality k(sensor, configtype, param, subparam, i)
               join telemetry_series s on s.device_id = $1 and s.sensor = k.sensor and s.configtype = k.configtype
                 and s.param = k.param and s.subparam = k.subparam`,
        values: [deviceId, ...values],
      });
      const ours = new Set(inserted.rows.map((r) => r.id));
      const theirs = rows.filter((r) => !ours.has(r.id)).map((r) => r.id);
      const latest = new Map<number, LatestValue | null>();
      if (theirs.length) (await latestOf(theirs)).forEach((l, j) => latest.set(theirs[j]!, l));
      for (const r of rows) remember(r, latest.get(r.id) ?? null, wanted[r.i - 1]);
      const took = performance.now() - started;
      stats.created += ours.size;
      stats.create_ms += took;
      if (took > stats.max_create_ms) stats.max_create_ms = Math.round(took * 10) / 10;
    }
    return keys.map((k) => {
      const info = lookup(deviceId, k);
      if (!info) return 'series_limit';
      return info.datatype === k.datatype ? info : 'datatype_mismatch';
    });
  }

  // every series, with its latest stored value
  const { rows } = await pool.query<SeriesRow>(`select ${COLS} from telemetry_series s order by s.id`);
  const latest = await latestOf(rows.map((r) => r.id));
  rows.forEach((r, i) => remember(r, latest[i]!));

  return {
    stats,
    async refreshLatest() {
      const held = [...byId.values()];
      const latest = await latestOf(held.map((info) => info.id));
      let moved = 0;
      held.forEach((info, i) => {
        const l = latest[i];
        if (l && (!info.latest || l.ts > info.latest.ts)) (noteLatest(info, l), moved++);
      });
      return moved;
    },
    resolveAll(appId, deviceId, keys) {
      const held = resolveHeld(deviceId, keys);
      if (held) return held;
      const before = creating.get(deviceId);
      const run = (before ?? Promise.resolve()).then(
        () => create(appId, deviceId, keys),
        () => create(appId, deviceId, keys),
      );
      creating.set(deviceId, run);
      const done = () => {
        if (creating.get(deviceId) === run) creating.delete(deviceId);
      };
      run.then(done, done);
      return run;
    },
    byId(id) {
      const hit = byId.get(id);
      if (hit || learning.has(id)) return hit;
      // another gateway's new series (its commit named it): known from the next look on
      learning.add(id);
      void pool
        .query<SeriesRow>(`select ${COLS} from telemetry_series s where s.id = $1`, [id])
        .then(async ({ rows: [row] }) => {
          if (row) remember(row, (await latestOf([row.id]))[0]!);
        })
        .catch((err) => opts.log?.warn(`telemetry series ${id} could not be read: ${String(err)}`))
        .finally(() => learning.delete(id));
      return undefined;
    },
    forgetDevice(deviceId) {
      byId.dropWhere((info) => info.deviceId === deviceId);
      tree.delete(deviceId);
      perDevice.delete(deviceId);
    },
    get size() {
      return byId.size;
    },
    get learnt() {
      return learnt;
    },
  };
}
