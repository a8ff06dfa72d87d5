// Device states as other domains read them off the per-message path, on the storage boundary's store (SQLite or
// PostgreSQL): the current value of one key of one device, and the values a key took in a window. The card engine
// reads a state's current value on every evaluation of a state card, so the queries are prepared once (a builder render
// per call costs ~10 times the read itself on SQLite).
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { deviceStateHistory, deviceStates } from './states.table.js';

export interface StateValue {
  /** the reported value (JSON), null when the device reported null */
  value: unknown;
  /** when the current value took effect */
  since: number;
  /** when it was last reported */
  ts: number;
}

export function parsedState(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** most value periods one history read returns */
export const MAX_STATE_PERIODS = 100_000;

export function createStateReads(store: AppStore) {
  const { db } = store;
  const h = deviceStateHistory;
  const s = deviceStates;
  const p = {
    appId: sql.placeholder('appId'),
    deviceId: sql.placeholder('deviceId'),
    key: sql.placeholder('key'),
    start: sql.placeholder('start'),
    end: sql.placeholder('end'),
  };
  // the device's application is checked against device_states (history rows carry no application)
  const ofApp = () =>
    db
      .select({ value: h.value, initialTs: h.initialTs })
      .from(h)
      .innerJoin(s, and(eq(s.deviceId, h.deviceId), eq(s.key, h.key), eq(s.appId, p.appId)));
  const mine = and(eq(h.deviceId, p.deviceId), eq(h.key, p.key));
  const before = ofApp()
    .where(and(mine, lt(h.initialTs, p.start)))
    .orderBy(desc(h.initialTs))
    .limit(1)
    .prepare();
  const periods = ofApp()
    .where(and(mine, gte(h.initialTs, p.start), lt(h.initialTs, p.end)))
    .orderBy(asc(h.initialTs))
    .limit(MAX_STATE_PERIODS)
    .prepare();
  const current = db
    .select({ value: s.value, since: s.initialTs, ts: s.latestTs })
    .from(s)
    .where(and(eq(s.deviceId, p.deviceId), eq(s.key, p.key), eq(s.appId, p.appId)))
    .prepare();
  return {
    /**
     * The values state `key` took in [start, end), oldest first: the one in effect at `start` (at `start`), then each
     * change at the time it took effect.
     */
    async history(
      appId: number,
      deviceId: number,
      key: string,
      start: number,
      end: number,
    ): Promise<{ ts: number; value: unknown }[]> {
      const args = { appId, deviceId, key, start, end };
      const [first, rows] = await Promise.all([before.get(args), periods.all(args)]);
      const out: { ts: number; value: unknown }[] = [];
      if (first) out.push({ ts: start, value: parsedState(first.value) });
      for (const r of rows) out.push({ ts: r.initialTs, value: parsedState(r.value) });
      return out;
    },
    /** the current state `key` of a device of the application; null when it never reported it */
    async current(appId: number, deviceId: number, key: string): Promise<StateValue | null> {
      const r = await current.get({ appId, deviceId, key });
      return r ? { value: parsedState(r.value), since: r.since, ts: r.ts } : null;
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
