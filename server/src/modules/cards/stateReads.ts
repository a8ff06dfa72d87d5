// Device states as the card engine reads them (a query whose sensor is STATE_SENSOR): the current value of one key of
// one device, read from the states module's table by primary key. The telemetry writer keeps that table; committed
// batches carry the changes (`CommittedTelemetry.states`), which is what makes a card reading a state live.
import type Database from 'better-sqlite3';

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

export function createStateReads(sqlite: Database.Database) {
  const one = sqlite.prepare('SELECT value, initial_ts, latest_ts FROM device_states WHERE device_id = ? AND key = ? AND app_id = ?');
  return {
    /** the current state `key` of a device of the application; null when it never reported it */
    current(appId: number, deviceId: number, key: string): StateValue | null {
      const r = one.get(deviceId, key, appId) as Row | undefined;
      return r ? { value: parsed(r.value), since: r.initial_ts, ts: r.latest_ts } : null;
    },
  };
}

export type StateReads = ReturnType<typeof createStateReads>;
