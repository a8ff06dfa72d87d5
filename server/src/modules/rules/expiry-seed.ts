// What the database knows of when an application's devices were last heard, for the node-expiry watch (expiry.ts):
// read once when the application gets its first node-expired rule (at start: after the rules are loaded), never per
// tick. A device's last sign of life is the newest of its stored points (the clustered table and the journal's points
// held in memory) and its last online/offline change; a device never heard is left out. Each domain is asked for its
// own: the devices their presence, telemetry the series, the tasks the expiries already reported.
import type { TelemetryQuery } from '../telemetry/read/query.js';
import type { RuleEngine } from './engine.js';
import { expiryOf, type SeedDevice } from './expiry.js';

export interface LastHeardSources {
  /** the application's devices with their last online and offline changes (devices domain) */
  presenceOf: (appId: number) => Promise<Array<{ id: number; on: number | null; off: number | null }>>;
  /** the application's series (telemetry domain) */
  seriesOf: (appId: number) => Promise<Array<{ id: number; deviceId: number }>>;
  /** the latest firing of each rule and device among the application's tasks of a category (tasks domain) */
  lastFired: (appId: number, category: number) => Promise<Array<{ deviceId: number; ruleId: number; ts: number }>>;
}

const SEEKS_AT_ONCE = 16;

export function storedLastHeard({
  sources,
  engine,
  points,
}: {
  sources: LastHeardSources;
  engine: Pick<RuleEngine, 'rule'>;
  points: Pick<TelemetryQuery['points'], 'last'>;
}) {
  return async (appId: number): Promise<SeedDevice[]> => {
    const [presence, series, fired] = await Promise.all([
      sources.presenceOf(appId),
      sources.seriesOf(appId),
      // an expiry of this silence that already made (or added to) a task of a node-expired rule is not reported again
      sources.lastFired(appId, 10009),
    ]);
    const at = new Map<number, number>();
    const later = (deviceId: number, ts: number | null | undefined) => {
      if (ts && ts > (at.get(deviceId) ?? 0)) at.set(deviceId, ts);
    };
    for (const d of presence) {
      later(d.id, d.on);
      later(d.id, d.off);
    }
    // one seek per series (the newest row of its clustered range, or the journal's newest point in memory), a few
    // at a time: on PostgreSQL each is a round trip, and the pool is shared
    for (let i = 0; i < series.length; i += SEEKS_AT_ONCE) {
      const part = series.slice(i, i + SEEKS_AT_ONCE);
      const newest = await Promise.all(part.map((s) => points.last(s.id)));
      part.forEach((s, j) => later(s.deviceId, newest[j]?.[0]));
    }
    const reported = new Map<number, number[]>();
    for (const f of fired) {
      const rule = engine.rule(f.ruleId);
      const seen = at.get(f.deviceId);
      if (!rule || rule.category !== 10009 || seen === undefined || f.ts === null || f.ts < seen) continue;
      let list = reported.get(f.deviceId);
      if (!list) reported.set(f.deviceId, (list = []));
      list.push(expiryOf(rule.durationMs));
    }
    return [...at].map(([deviceId, ts]) => ({ deviceId, at: ts, reported: reported.get(deviceId) }));
  };
}
