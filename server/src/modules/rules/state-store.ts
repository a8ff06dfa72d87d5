// The engine's state in rule_states, on the storage boundary's store (SQLite or PostgreSQL): written on phase changes
// only (a transition, a firing), never per point, so the cost of the store is the rate of transitions, not of
// telemetry. The engine keeps its state in memory and evaluates synchronously; only this persistence is asynchronous.
// The writes are drizzle prepared queries (rendered once, not per call): they run inside the engine's write
// transactions (write-queue.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import type { EngineStateStore, PersistedState } from './engine.js';
import { ruleStates } from './rules.table.js';

type Row = typeof ruleStates.$inferSelect;

const toState = (r: Row): PersistedState => ({
  ruleId: r.ruleId,
  deviceId: r.deviceId,
  phase: r.phase === 'pending' || r.phase === 'active' ? r.phase : 'idle',
  since: r.since,
  due: r.due,
  value: r.value,
  lastFireTs: r.lastFireTs,
  lastTs: r.lastTs,
});

export function createRuleStateStore(store: AppStore): EngineStateStore {
  const { db } = store;
  const p = (name: string) => sql.placeholder(name);
  const write = db
    .insert(ruleStates)
    .values({
      ruleId: p('ruleId'),
      deviceId: p('deviceId'),
      phase: p('phase'),
      since: p('since'),
      due: p('due'),
      value: p('value'),
      lastFireTs: p('lastFireTs'),
      lastTs: p('lastTs'),
    })
    .onConflictDoUpdate({
      target: [ruleStates.ruleId, ruleStates.deviceId],
      set: {
        phase: sql`excluded.phase`,
        since: sql`excluded.since`,
        due: sql`excluded.due`,
        value: sql`excluded.value`,
        lastFireTs: sql`excluded.last_fire_ts`,
        lastTs: sql`excluded.last_ts`,
      },
    })
    .prepare();
  const remove = db
    .delete(ruleStates)
    .where(and(eq(ruleStates.ruleId, p('ruleId')), eq(ruleStates.deviceId, p('deviceId'))))
    .prepare();
  const ofDevice = db
    .select()
    .from(ruleStates)
    .where(eq(ruleStates.deviceId, p('deviceId')))
    .prepare();
  return {
    all: async () => (await db.select().from(ruleStates)).map(toState),
    ofDevice: async (deviceId) => (await ofDevice.all({ deviceId })).map(toState),
    async write(s) {
      await write.run({ ...s });
    },
    async remove(ruleId, deviceId) {
      await remove.run({ ruleId, deviceId });
    },
    async removeRule(ruleId) {
      await db.delete(ruleStates).where(eq(ruleStates.ruleId, ruleId));
    },
    async removeDevice(deviceId) {
      await db.delete(ruleStates).where(eq(ruleStates.deviceId, deviceId));
    },
  };
}
