// Series: one per (device, sensor, configtype, param, subparam), created on first sight, cached in memory with its
// latest stored value (the latest-value cache; on disk the latest value is the last row of the series' clustered range).
import type Database from 'better-sqlite3';
import { BUSY, lockTries } from '../../../platform/db/sqlite-lock.js';
import type { Datatype } from '../datatypes.js';
import type { PointReads } from '../read/point-reads.js';
import { ById } from '../slots.js';

export interface LatestValue {
  ts: number;
  num: number | null;
  text: string | null;
}

export interface SeriesInfo {
  readonly id: number;
  readonly appId: number;
  readonly deviceId: number;
  readonly sensor: string;
  readonly configtype: string;
  readonly param: string;
  readonly subparam: string;
  readonly datatype: Datatype;
  /** latest stored point (committed), null when the series has none yet */
  latest: LatestValue | null;
  /** the last timestamp given to a receive-time point, so two messages in one millisecond never collide */
  lastStampedTs: number;
}

/**
 * A committed point becomes the series' latest value unless an older one arrived late. The value is updated in place
 * (readers copy what they read at once): an object per point would live until the series' next point (~0.2 s), long
 * enough to outlive young collections and be promoted.
 */
export function noteLatest(series: SeriesInfo, p: LatestValue): void {
  const latest = series.latest;
  if (!latest) series.latest = { ts: p.ts, num: p.num, text: p.text };
  else if (p.ts >= latest.ts) ((latest.ts = p.ts), (latest.num = p.num), (latest.text = p.text));
}

export interface SeriesKey {
  sensor: string;
  configtype: string;
  param: string;
  subparam: string;
}

/** a telemetry_series row as both engines' registries read it */
export interface SeriesRow {
  id: number;
  app_id: number;
  device_id: number;
  sensor: string;
  configtype: string;
  param: string;
  subparam: string;
  datatype: Datatype;
}

/** the registry's record of a series row with its latest value (both engines) */
export const seriesInfoOf = (row: SeriesRow, latest: LatestValue | null): SeriesInfo => ({
  id: row.id,
  appId: row.app_id,
  deviceId: row.device_id,
  sensor: row.sensor,
  configtype: row.configtype,
  param: row.param,
  subparam: row.subparam,
  datatype: row.datatype,
  latest,
  lastStampedTs: latest?.ts ?? 0,
});

/** series whose latest value `refreshLatest` reads on SQLite before the event loop serves I/O again */
const REFRESH_SLICE = 2000;

/** devices whose last keys `resolveAll` remembers, at most (then it starts over) */
const MAX_REMEMBERED_DEVICES = 50_000;

function sameKeys(
  a: readonly (SeriesKey & { datatype: Datatype })[],
  b: readonly (SeriesKey & { datatype: Datatype })[],
) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (
      x.param !== y.param ||
      x.sensor !== y.sensor ||
      x.configtype !== y.configtype ||
      x.subparam !== y.subparam ||
      x.datatype !== y.datatype
    )
      return false;
  }
  return true;
}

/** device → sensor → configtype → param → subparam → series: looked up for every point, so no key string is built */
type SeriesTree = Map<number, Map<string, Map<string, Map<string, Map<string, SeriesInfo>>>>>;

function child<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = make()));
  return v;
}

export type SeriesResolution = SeriesInfo | 'datatype_mismatch' | 'series_limit';

export function createSeriesRegistry(
  sqlite: Database.Database,
  opts: { maxSeriesPerDevice: number; now: () => number; points: PointReads },
) {
  return createSqliteSeriesRegistry(sqlite, opts) satisfies SeriesRegistry;
}

function createSqliteSeriesRegistry(
  sqlite: Database.Database,
  opts: { maxSeriesPerDevice: number; now: () => number; points: PointReads },
) {
  const tree: SeriesTree = new Map();
  const lookup = (deviceId: number, k: SeriesKey) =>
    tree.get(deviceId)?.get(k.sensor)?.get(k.configtype)?.get(k.param)?.get(k.subparam);
  const byId = new ById<SeriesInfo>();
  const perDevice = new Map<number, number>();
  const COLS = 'id, app_id, device_id, sensor, configtype, param, subparam, datatype';
  const findByKey = sqlite.prepare(
    `SELECT ${COLS} FROM telemetry_series WHERE device_id = ? AND sensor = ? AND configtype = ? AND param = ? AND subparam = ?`,
  );
  const findById = sqlite.prepare(`SELECT ${COLS} FROM telemetry_series WHERE id = ?`);
  const countOfDevice = sqlite.prepare('SELECT count(*) AS n FROM telemetry_series WHERE device_id = ?').pluck();
  const insert = sqlite.prepare(
    `INSERT INTO telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLS}`,
  );

  /** `created`: the row was just inserted, so the series has no point to read yet */
  function remember(row: SeriesRow, created = false): SeriesInfo {
    const last = created ? null : opts.points.last(row.id);
    const latest: LatestValue | null = last ? { ts: last[0], num: last[1], text: last[2] } : null;
    const info = seriesInfoOf(row, latest);
    const params = child(
      child(
        child(tree, info.deviceId, () => new Map()),
        info.sensor,
        () => new Map(),
      ),
      info.configtype,
      () => new Map(),
    );
    child(params, info.param, () => new Map()).set(info.subparam, info);
    byId.set(info.id, info);
    learnt++;
    return info;
  }

  /** series created by this process, and the time their inserts took */
  const stats = { created: 0, create_ms: 0, max_create_ms: 0 };
  /** series this registry has come to know: created here, or read from the table (another gateway's, a restart) */
  let learnt = 0;

  /**
   * Each device's last message's keys with the series they resolved to (all of them found): a device names the same
   * points message after message, so comparing its keys (strings the JSON parser interned, compared by identity
   * mostly) replaces five map lookups per point. Only a device forgotten drops its entry (its series go with it).
   */
  const lastOf = new Map<
    number,
    { keys: readonly (SeriesKey & { datatype: Datatype })[]; out: readonly SeriesResolution[] }
  >();

  /** the series of a point, created on first sight; a datatype differing from the series' own is refused */
  function resolve(appId: number, deviceId: number, key: SeriesKey, datatype: Datatype): SeriesResolution {
    let info = lookup(deviceId, key);
    if (!info) {
      const row = findByKey.get(deviceId, key.sensor, key.configtype, key.param, key.subparam) as SeriesRow | undefined;
      if (row) info = remember(row);
      else {
        let count = perDevice.get(deviceId);
        if (count === undefined) count = countOfDevice.get(deviceId) as number;
        if (count >= opts.maxSeriesPerDevice) {
          perDevice.set(deviceId, count);
          return 'series_limit';
        }
        perDevice.set(deviceId, count + 1);
        const started = performance.now();
        const row = insert.get(
          appId,
          deviceId,
          key.sensor,
          key.configtype,
          key.param,
          key.subparam,
          datatype,
          opts.now(),
        ) as SeriesRow;
        const took = performance.now() - started;
        stats.created++;
        stats.create_ms += took;
        if (took > stats.max_create_ms) stats.max_create_ms = Math.round(took * 10) / 10;
        info = remember(row, true);
      }
    }
    return info.datatype === datatype ? info : 'datatype_mismatch';
  }

  /** drops a device's series from memory (the device was removed, or their creation rolled back) */
  function forgetDevice(deviceId: number): void {
    lastOf.delete(deviceId);
    byId.dropWhere((info) => info.deviceId === deviceId);
    tree.delete(deviceId);
    perDevice.delete(deviceId);
  }

  type Keys = readonly (SeriesKey & { datatype: Datatype })[];
  interface Creation {
    appId: number;
    deviceId: number;
    keys: Keys;
  }
  // messages' new series in one transaction (one commit, not one per series). Immediate: a deferred transaction that
  // reads first cannot take the write lock once the writer thread has committed since its read began.
  const create = sqlite.transaction((cs: readonly Creation[]) =>
    cs.map((c) => c.keys.map((k) => resolve(c.appId, c.deviceId, k, k.datatype))),
  );

  // While the telemetry writer thread holds the write lock, a message naming a new series waits (the pipeline holds
  // its acknowledgement and the device's later messages) and the event loop goes on: the creations waiting meanwhile
  // are made together, in one transaction, once the lock is free (platform/db/sqlite-lock.ts).
  const lock = lockTries(sqlite);
  interface Waiting extends Creation {
    done: (r: readonly SeriesResolution[]) => void;
    failed: (err: unknown) => void;
  }
  let waiting: Waiting[] = [];
  /** creations are being made later (one transaction at a time): a new one joins them */
  let draining = false;
  async function drain(): Promise<void> {
    draining = true;
    try {
      while (waiting.length) {
        const ws = waiting;
        waiting = [];
        try {
          const answers = await lock.unblocked(() => create.immediate(ws));
          ws.forEach((w, i) => w.done(answers[i]!));
        } catch (err) {
          // rolled back: the series remembered meanwhile have no rows; read them again from the table next time
          for (const w of ws) (forgetDevice(w.deviceId), w.failed(err));
        }
      }
    } finally {
      draining = false;
    }
  }
  function createLater(appId: number, deviceId: number, keys: Keys): Promise<readonly SeriesResolution[]> {
    return new Promise((done, failed) => {
      // a copy: the caller's points are its own to reuse
      waiting.push({ appId, deviceId, keys: keys.map((k) => ({ ...k })), done, failed });
      if (!draining) void drain();
    });
  }

  return {
    stats,
    /** the series of a message's points, in order (see `resolve`); only a message naming a new series writes */
    resolveAll(
      appId: number,
      deviceId: number,
      keys: readonly (SeriesKey & { datatype: Datatype })[],
    ): readonly SeriesResolution[] | Promise<readonly SeriesResolution[]> {
      const last = lastOf.get(deviceId);
      if (last !== undefined && sameKeys(last.keys, keys)) return last.out;
      const out = new Array<SeriesResolution>(keys.length);
      for (let i = 0; i < keys.length; i++) {
        const info = lookup(deviceId, keys[i]!);
        if (!info) {
          let made: readonly SeriesResolution[] | typeof BUSY;
          try {
            made = draining ? BUSY : lock.unwaited(() => create.immediate([{ appId, deviceId, keys }])[0]!);
          } catch (err) {
            // rolled back: the series remembered meanwhile have no rows; read them again from the table next time
            forgetDevice(deviceId);
            throw err;
          }
          return made === BUSY ? createLater(appId, deviceId, keys) : made;
        }
        out[i] = info.datatype === keys[i]!.datatype ? info : 'datatype_mismatch';
      }
      if (out.every((r) => typeof r !== 'string')) {
        if (lastOf.size >= MAX_REMEMBERED_DEVICES) lastOf.clear();
        // a copy: the caller's points are its own to reuse
        const kept = keys.map(({ sensor, configtype, param, subparam, datatype }) => ({
          sensor,
          configtype,
          param,
          subparam,
          datatype,
        }));
        lastOf.set(deviceId, { keys: kept, out });
      }
      return out;
    },
    byId(id: number): SeriesInfo | undefined {
      const hit = byId.get(id);
      if (hit) return hit;
      const row = findById.get(id) as SeriesRow | undefined;
      return row ? remember(row) : undefined;
    },
    forgetDevice,
    async refreshLatest(): Promise<number> {
      let moved = 0;
      let n = 0;
      for (const info of [...byId.values()]) {
        const last = opts.points.last(info.id);
        if (last && (!info.latest || last[0] > info.latest.ts))
          (noteLatest(info, { ts: last[0], num: last[1], text: last[2] }), moved++);
        // one read each: the event loop serves I/O between slices
        if (++n % REFRESH_SLICE === 0) await new Promise((r) => setImmediate(r));
      }
      return moved;
    },
    get size() {
      return byId.size;
    },
    /** grows whenever a series becomes known here (see `learnt`): what a cache of absent series compares */
    get learnt() {
      return learnt;
    },
  };
}

/**
 * The series registry as the pipeline asks it, on either engine. SQLite's (`createSeriesRegistry`) answers at once,
 * a new series inserted synchronously on the gateway's connection, unless the telemetry writer holds the write lock:
 * then, as PostgreSQL's (pg/series.ts) for every series it does not hold yet, it answers a promise and the message
 * waits.
 */
export interface SeriesRegistry {
  readonly stats: { created: number; create_ms: number; max_create_ms: number };
  resolveAll(
    appId: number,
    deviceId: number,
    keys: readonly (SeriesKey & { datatype: Datatype })[],
  ): readonly SeriesResolution[] | Promise<readonly SeriesResolution[]>;
  byId(id: number): SeriesInfo | undefined;
  forgetDevice(deviceId: number): void;
  /**
   * Every held series' latest value read again from the store, kept where it is newer than the one held (a gateway
   * that missed other gateways' commits while its bus connection was down); answers how many moved.
   */
  refreshLatest(): Promise<number>;
  readonly size: number;
  readonly learnt: number;
}
