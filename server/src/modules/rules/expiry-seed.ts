// What the database knows of when an application's devices were last heard, for the node-expiry watch (expiry.ts):
// read once when the application gets its first node-expired rule (at start: after the rules are loaded), never per
// tick. A device's last sign of life is the newest of its stored points (the clustered table and the journal's points
// held in memory) and its last online/offline change; a device never heard is left out.
import { and, eq, isNotNull, max } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { devices } from '../devices/devices.table.js';
import { telemetrySeries } from '../telemetry/telemetry.table.js';
import type { PointReads } from '../telemetry/read/point-reads.js';
import { tasks } from '../tasks/tasks.table.js';
import type { RuleEngine } from './engine.js';
import { expiryOf, type SeedDevice } from './expiry.js';

export function storedLastHeard({
  db,
  engine,
  points,
}: {
  db: Db;
  engine: Pick<RuleEngine, 'rule'>;
  points: Pick<PointReads, 'last'>;
}) {
  return (appId: number): SeedDevice[] => {
    const at = new Map<number, number>();
    const later = (deviceId: number, ts: number | null | undefined) => {
      if (ts && ts > (at.get(deviceId) ?? 0)) at.set(deviceId, ts);
    };
    for (const d of db
      .select({ id: devices.id, on: devices.lastOnlineTs, off: devices.lastOfflineTs })
      .from(devices)
      .where(eq(devices.appId, appId))
      .all()) {
      later(d.id, d.on);
      later(d.id, d.off);
    }
    // one seek per series (the newest row of its clustered range, or the journal's newest point in memory)
    for (const s of db
      .select({ id: telemetrySeries.id, deviceId: telemetrySeries.deviceId })
      .from(telemetrySeries)
      .where(eq(telemetrySeries.appId, appId))
      .all())
      later(s.deviceId, points.last(s.id)?.[0]);
    // an expiry of this silence that already made (or added to) a task of a node-expired rule is not reported again
    const reported = new Map<number, number[]>();
    const fired = db
      .select({ deviceId: tasks.deviceId, ruleId: tasks.ruleId, ts: max(tasks.lastTs) })
      .from(tasks)
      .where(and(eq(tasks.appId, appId), eq(tasks.category, 10009), isNotNull(tasks.ruleId)))
      .groupBy(tasks.deviceId, tasks.ruleId)
      .all();
    for (const f of fired) {
      const rule = f.ruleId === null ? undefined : engine.rule(f.ruleId);
      const seen = at.get(f.deviceId);
      if (!rule || rule.category !== 10009 || seen === undefined || f.ts === null || f.ts < seen) continue;
      let list = reported.get(f.deviceId);
      if (!list) reported.set(f.deviceId, (list = []));
      list.push(expiryOf(rule.durationMs));
    }
    return [...at].map(([deviceId, ts]) => ({ deviceId, at: ts, reported: reported.get(deviceId) }));
  };
}
