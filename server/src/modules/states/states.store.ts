// Device states (spec "Daftar Kondisi"): the current value per key with initial_ts (since when) and latest_ts (last
// report), and the history as value periods. Written inside the telemetry writer's transaction; read by the state calls.
import type Database from 'better-sqlite3';
import { compareStateKeys, STATE_RANGE_MAX as STATE_PAGE_MAX } from '@sentra/contracts';
import type { StateValue } from './states.reads.js';

/** A state as reported: `value` is JSON text, null when the device reported null (the state is "Inactive"). */
export interface StateChange {
  key: string;
  value: string | null;
  ts: number;
}

export interface StateRow {
  key: string;
  value: unknown;
  is_null: boolean;
  initial_ts: number;
  latest_ts: number;
}

export interface StateRecord {
  key: string;
  value: string | null;
  initial_ts: number;
  latest_ts: number;
}

const toRow = (r: StateRecord): StateRow => ({
  key: r.key,
  value: r.value === null ? null : JSON.parse(r.value),
  is_null: r.value === null,
  initial_ts: r.initial_ts,
  latest_ts: r.latest_ts,
});

/**
 * The most state keys one device holds (as MAX series per device bound its points): a report of a key beyond it is
 * refused and counted, so a device inventing keys cannot grow the table, the list or the history without end. A key
 * removed with state/delete makes room again.
 */
export const MAX_STATE_KEYS_PER_DEVICE = 1000;

/**
 * What applying reports reads and writes, synchronously: SQLite's statements, or PostgreSQL's writer working on the
 * rows it loaded for the batch (pg/states.ts). `current` and `keyCount` see the writes made before them.
 */
export interface StatesView {
  current(deviceId: number, key: string): StateRecord | undefined;
  keyCount(deviceId: number): number;
  /** a new key: its current value and its first period */
  add(appId: number, deviceId: number, c: StateChange): void;
  /** the same value again: the current period goes on */
  extend(deviceId: number, c: StateChange, cur: StateRecord): void;
  /** another value: it becomes current and opens a period */
  change(deviceId: number, c: StateChange): void;
}

/**
 * The rules of a device's reports, one engine's `view` doing the reads and writes: answers the reports that changed
 * something (not stale); a new key past `maxKeys` is not applied and goes into `refused` when given.
 */
export function applyStateReports(
  view: StatesView,
  appId: number,
  deviceId: number,
  changes: readonly StateChange[],
  maxKeys: number,
  refused?: StateChange[],
): StateChange[] {
  const applied: StateChange[] = [];
  /** the device's keys, counted once per call when a new one comes */
  let keys = -1;
  for (const c of changes) {
    const cur = view.current(deviceId, c.key);
    if (!cur) {
      if (keys < 0) keys = view.keyCount(deviceId);
      if (keys >= maxKeys) {
        refused?.push(c);
        continue;
      }
      keys++;
      view.add(appId, deviceId, c);
    } else if (c.ts < cur.latest_ts) {
      continue; // an older report arriving late does not override what is known
    } else if (cur.value === c.value) {
      view.extend(deviceId, c, cur);
    } else {
      view.change(deviceId, c);
    }
    applied.push(c);
  }
  return applied;
}

export function createStatesStore(sqlite: Database.Database, opts: { maxKeysPerDevice?: number } = {}) {
  const maxKeys = opts.maxKeysPerDevice ?? MAX_STATE_KEYS_PER_DEVICE;
  const keyCount = sqlite.prepare('SELECT count(*) FROM device_states WHERE device_id = ?').pluck();
  const current = sqlite.prepare(
    'SELECT key, value, initial_ts, latest_ts FROM device_states WHERE device_id = ? AND key = ?',
  );
  const insertCurrent = sqlite.prepare(
    'INSERT INTO device_states (device_id, app_id, key, value, initial_ts, latest_ts) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const touchCurrent = sqlite.prepare('UPDATE device_states SET latest_ts = ? WHERE device_id = ? AND key = ?');
  const changeCurrent = sqlite.prepare(
    'UPDATE device_states SET value = ?, initial_ts = ?, latest_ts = ? WHERE device_id = ? AND key = ?',
  );
  const openPeriod = sqlite.prepare(
    'INSERT INTO device_state_history (device_id, key, initial_ts, value, latest_ts) VALUES (?, ?, ?, ?, ?) ON CONFLICT (device_id, key, initial_ts) DO UPDATE SET value = excluded.value, latest_ts = excluded.latest_ts',
  );
  const extendPeriod = sqlite.prepare(
    'UPDATE device_state_history SET latest_ts = ? WHERE device_id = ? AND key = ? AND initial_ts = ?',
  );
  const list = sqlite.prepare(
    'SELECT key, value, initial_ts, latest_ts FROM device_states WHERE app_id = ? AND device_id = ?',
  );
  const newest = sqlite.prepare(
    'SELECT key, value, initial_ts, latest_ts FROM device_state_history WHERE device_id = ? AND key = ? ORDER BY initial_ts DESC LIMIT ?',
  );
  const inRange = sqlite.prepare(
    'SELECT key, value, initial_ts, latest_ts FROM device_state_history WHERE device_id = ? AND key = ? AND initial_ts >= ? AND initial_ts <= ? ORDER BY initial_ts DESC LIMIT ?',
  );
  const before = sqlite.prepare(
    'SELECT key, value, initial_ts, latest_ts FROM device_state_history WHERE device_id = ? AND key = ? AND initial_ts < ? ORDER BY initial_ts DESC LIMIT 1',
  );
  const owns = sqlite.prepare('SELECT 1 FROM device_states WHERE app_id = ? AND device_id = ? AND key = ?').pluck();
  const removeCurrent = sqlite.prepare('DELETE FROM device_states WHERE device_id = ? AND key = ?');
  const removeHistory = sqlite.prepare('DELETE FROM device_state_history WHERE device_id = ? AND key = ?');
  const ownsDevice = sqlite.prepare('SELECT 1 FROM device_states WHERE app_id = ? AND device_id = ? LIMIT 1').pluck();

  const view: StatesView = {
    current: (deviceId, key) => current.get(deviceId, key) as StateRecord | undefined,
    keyCount: (deviceId) => keyCount.get(deviceId) as number,
    add(appId, deviceId, c) {
      insertCurrent.run(deviceId, appId, c.key, c.value, c.ts, c.ts);
      openPeriod.run(deviceId, c.key, c.ts, c.value, c.ts);
    },
    extend(deviceId, c, cur) {
      touchCurrent.run(c.ts, deviceId, c.key);
      extendPeriod.run(c.ts, deviceId, c.key, cur.initial_ts);
    },
    change(deviceId, c) {
      changeCurrent.run(c.value, c.ts, c.ts, deviceId, c.key);
      openPeriod.run(deviceId, c.key, c.ts, c.value, c.ts);
    },
  };

  return {
    /**
     * Applies reports in order (caller holds a transaction); answers those that changed something (not stale). A new
     * key past the device's MAX_STATE_KEYS_PER_DEVICE is not applied: it goes into `refused` when given.
     */
    apply(appId: number, deviceId: number, changes: readonly StateChange[], refused?: StateChange[]): StateChange[] {
      return applyStateReports(view, appId, deviceId, changes, maxKeys, refused);
    },
    /** current states of a device of the application, by key (the order the list's live updates keep) */
    list(appId: number, deviceId: number): StateRow[] {
      return (list.all(appId, deviceId) as StateRecord[]).sort((a, b) => compareStateKeys(a.key, b.key)).map(toRow);
    },
    /** the newest `n` value periods of a state, newest first; empty for another application's device */
    newest(appId: number, deviceId: number, key: string, n: number): StateRow[] {
      if (!ownsDevice.get(appId, deviceId)) return [];
      return (newest.all(deviceId, key, Math.max(1, Math.min(n, STATE_PAGE_MAX))) as StateRecord[]).map(toRow);
    },
    /**
     * Value periods overlapping [start, end], newest first, at most `limit`: the newest ones, `truncated` when older
     * ones were left out (ask again with `end` just before the oldest one returned to read on).
     */
    periodic(
      appId: number,
      deviceId: number,
      key: string,
      start: number,
      end: number,
      limit = STATE_PAGE_MAX,
    ): { rows: StateRow[]; truncated: boolean } {
      if (!ownsDevice.get(appId, deviceId)) return { rows: [], truncated: false };
      const rows = inRange.all(deviceId, key, start, end, limit + 1) as StateRecord[];
      // the period that began before `start` and was still going at `start` overlaps too; it is the oldest of all
      const earlier = before.get(deviceId, key, start) as StateRecord | undefined;
      if (earlier && earlier.latest_ts >= start) rows.push(earlier);
      return { rows: rows.slice(0, limit).map(toRow), truncated: rows.length > limit };
    },
    /** deletes a state and its history ("Konfirmasi Hapus State"); false when the application has no such state */
    remove(appId: number, deviceId: number, key: string): boolean {
      if (!owns.get(appId, deviceId, key)) return false;
      sqlite.transaction(() => {
        removeCurrent.run(deviceId, key);
        removeHistory.run(deviceId, key);
      })();
      return true;
    },
  };
}

/** SQLite's states store: synchronous, the writer applies reports with it inside its batch transaction */
export type SqliteStatesStore = ReturnType<typeof createStatesStore>;

/**
 * Device states as the routes, live channels and rules read them, on either engine: asynchronous (PostgreSQL answers
 * over the network). SQLite's answers at once (`asyncStates`), PostgreSQL's is telemetry's (store/pg/states.ts
 * `pgStatesStore`). Written only by the telemetry writer, in its batches.
 */
export interface StatesStore {
  /** current states of a device of the application, by key (the order the list's live updates keep) */
  list(appId: number, deviceId: number): Promise<StateRow[]>;
  /** the newest `n` value periods of a state, newest first; empty for another application's device */
  newest(appId: number, deviceId: number, key: string, n: number): Promise<StateRow[]>;
  /** value periods overlapping [start, end], newest first, at most `limit` (`truncated`: older ones left out) */
  periodic(
    appId: number,
    deviceId: number,
    key: string,
    start: number,
    end: number,
    limit?: number,
  ): Promise<{ rows: StateRow[]; truncated: boolean }>;
  /** deletes a state and its history; false when the application has no such state */
  remove(appId: number, deviceId: number, key: string): Promise<boolean>;
}

/** SQLite's synchronous store behind the asynchronous interface */
export function asyncStates(sync: SqliteStatesStore): StatesStore {
  return {
    list: async (appId, deviceId) => sync.list(appId, deviceId),
    newest: async (appId, deviceId, key, n) => sync.newest(appId, deviceId, key, n),
    periodic: async (appId, deviceId, key, start, end, limit) => sync.periodic(appId, deviceId, key, start, end, limit),
    remove: async (appId, deviceId, key) => sync.remove(appId, deviceId, key),
  };
}

/** rows as the store answers them (value parsed from its JSON text) */
export const stateRowOf = (r: StateRecord): StateRow => toRow(r);
