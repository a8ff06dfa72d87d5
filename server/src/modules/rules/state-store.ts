// The engine's state in rule_states: written on phase changes only (a transition, a firing), never per point, so the
// cost of the store is the rate of transitions, not of telemetry.
import type Database from 'better-sqlite3';
import type { EngineStateStore, PersistedState } from './engine.js';

interface Row {
  rule_id: number;
  device_id: number;
  phase: string;
  since: number;
  due: number | null;
  value: string | null;
  last_fire_ts: number | null;
}

const toState = (r: Row): PersistedState => ({
  ruleId: r.rule_id,
  deviceId: r.device_id,
  phase: r.phase === 'pending' || r.phase === 'active' ? r.phase : 'idle',
  since: r.since,
  due: r.due,
  value: r.value,
  lastFireTs: r.last_fire_ts,
});

export function createRuleStateStore(sqlite: Database.Database): EngineStateStore {
  const all = sqlite.prepare<[], Row>(
    'SELECT rule_id, device_id, phase, since, due, value, last_fire_ts FROM rule_states',
  );
  const read = sqlite.prepare<[number, number], Row>(
    'SELECT rule_id, device_id, phase, since, due, value, last_fire_ts FROM rule_states WHERE rule_id = ? AND device_id = ?',
  );
  const write = sqlite.prepare(
    `INSERT INTO rule_states (rule_id, device_id, phase, since, due, value, last_fire_ts) VALUES (@ruleId, @deviceId, @phase, @since, @due, @value, @lastFireTs)
     ON CONFLICT (rule_id, device_id) DO UPDATE SET phase = excluded.phase, since = excluded.since, due = excluded.due, value = excluded.value, last_fire_ts = excluded.last_fire_ts`,
  );
  const remove = sqlite.prepare('DELETE FROM rule_states WHERE rule_id = ? AND device_id = ?');
  const removeRule = sqlite.prepare('DELETE FROM rule_states WHERE rule_id = ?');
  const removeDevice = sqlite.prepare('DELETE FROM rule_states WHERE device_id = ?');
  return {
    all: () => all.all().map(toState),
    read: (ruleId, deviceId) => {
      const r = read.get(ruleId, deviceId);
      return r && toState(r);
    },
    write: (s) => void write.run(s),
    remove: (ruleId, deviceId) => void remove.run(ruleId, deviceId),
    removeRule: (ruleId) => void removeRule.run(ruleId),
    removeDevice: (deviceId) => void removeDevice.run(deviceId),
  };
}
