// Device states as other domains read them (the card engine, for a query whose sensor is STATE_SENSOR): the current
// value of one key of one device by primary key, and the values a key took in a window. The telemetry writer keeps
// these tables (states.store.ts); committed batches carry the changes (`CommittedTelemetry.states`), which is what
// makes a card reading a state live. Prepared once: the card query path asks these on every evaluation.
import type Database from 'better-sqlite3';
import { asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { deviceStates } from './states.table.js';

export interface StateValue {
  /** the reported value (JSON), null when the device reported null */
  value: unknown;
  /** when the current value took effect */
  since: number;
  /** when it was last reported */
  ts: number;
}

interface Row {
  value: string | null;
  initial_ts: number;
  latest_ts: number;
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** most value periods one history read returns */
export const MAX_STATE_PERIODS = 100_000;

export function createStateReads(sqlite: Database.Database) {
  const one = sqlite.prepare(
    'SELECT value, initial_ts, latest_ts FROM device_states WHERE device_id = ? AND key = ? AND app_id = ?',
  );
  // the device's application is checked against device_states (history rows carry no application)
  const periods = sqlite.prepare(
    `SELECT h.value, h.initial_ts FROM device_state_history h JOIN device_states s ON s.device_id = h.device_id AND s.key = h.key AND s.app_id = ?
     WHERE h.device_id = ? AND h.key = ? AND h.initial_ts >= ? AND h.initial_ts < ? ORDER BY h.initial_ts LIMIT ?`,
  );
  const before = sqlite.prepare(
    `SELECT h.value, h.initial_ts FROM device_state_history h JOIN device_states s ON s.device_id = h.device_id AND s.key = h.key AND s.app_id = ?
     WHERE h.device_id = ? AND h.key = ? AND h.initial_ts < ? ORDER BY h.initial_ts DESC LIMIT 1`,
  );
  return {
    /**
     * The values state `key` took in [start, end), oldest first: the one in effect at `start` (at `start`), then each
     * change at the time it took effect.
     */
    history(
      appId: number,
      deviceId: number,
      key: string,
      start: number,
      end: number,
    ): { ts: number; value: unknown }[] {
      const out: { ts: number; value: unknown }[] = [];
      const first = before.get(appId, deviceId, key, start) as { value: string | null; initial_ts: number } | undefined;
      if (first) out.push({ ts: start, value: parsed(first.value) });
      for (const r of periods.all(appId, deviceId, key, start, end, MAX_STATE_PERIODS) as {
        value: string | null;
        initial_ts: number;
      }[])
        out.push({ ts: r.initial_ts, value: parsed(r.value) });
      return out;
    },
    /** the current state `key` of a device of the application; null when it never reported it */
    current(appId: number, deviceId: number, key: string): StateValue | null {
      const r = one.get(deviceId, key, appId) as Row | undefined;
      return r ? { value: parsed(r.value), since: r.initial_ts, ts: r.latest_ts } : null;
    },
  };
}

export type StateReads = ReturnType<typeof createStateReads>;

/** The state keys the application's devices hold, by device and key (the card editor's selection: dashboards domain). */
export function stateKeysOfApp(store: AppStore, appId: number): Promise<{ deviceId: number; key: string }[]> {
  return store.db
    .select({ deviceId: deviceStates.deviceId, key: deviceStates.key })
    .from(deviceStates)
    .where(eq(deviceStates.appId, appId))
    .orderBy(asc(deviceStates.deviceId), asc(deviceStates.key));
}
