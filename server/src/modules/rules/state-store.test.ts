// The engine's state store (rule_states) on both engines: an upsert per phase change, read back whole at start and per
// device (scale-out), removed per state, rule and device.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import type { EngineStateStore, PersistedState } from './engine.js';
import { createRulesStore } from './rules.store.js';
import { createRuleStateStore } from './state-store.js';

forEachEngine('rule state store', (open) => {
  let opened: OpenedStore;
  let states: EngineStateStore;
  let r1: number;
  let r2: number;
  beforeEach(async () => {
    opened = await open();
    const appId = await addApp(opened.store, await addTenant(opened.store, 'budi'), 'pabrik');
    const rules = createRulesStore(opened.store);
    const add = async (name: string) =>
      (await rules.create({
        appId,
        name,
        key: null,
        category: 11,
        description: '',
        condition: '{"triggers":[]}',
        action: '{"new":[],"response":[]}',
        details: '{}',
        active: true,
        createdAt: 1,
        updatedAt: 1,
      }))!.id;
    r1 = await add('a');
    r2 = await add('b');
    states = createRuleStateStore(opened.store);
  });
  afterEach(() => opened?.close());

  const state = (ruleId: number, deviceId: number, over: Partial<PersistedState> = {}): PersistedState => ({
    ruleId,
    deviceId,
    phase: 'pending',
    since: 1_000,
    due: 61_000,
    value: '12.5',
    lastFireTs: null,
    lastTs: null,
    ...over,
  });
  const sorted = (l: PersistedState[]) => [...l].sort((a, b) => a.ruleId - b.ruleId || a.deviceId - b.deviceId);

  it('writes a state and overwrites it on the next phase change', async () => {
    await states.write(state(r1, 3));
    expect(await states.all()).toEqual([state(r1, 3)]);
    const active = state(r1, 3, {
      phase: 'active',
      since: 61_000,
      due: null,
      value: null,
      lastFireTs: 61_000,
      lastTs: 60_500,
    });
    await states.write(active);
    expect(await states.all()).toEqual([active]);
  });

  it('reads a device’s states and removes them per state, rule and device', async () => {
    await states.write(state(r1, 3));
    await states.write(state(r2, 3, { phase: 'idle', due: null, lastFireTs: 5 }));
    await states.write(state(r1, 4));
    await states.write(state(r2, 4));
    expect(sorted(await states.ofDevice(3))).toEqual([
      state(r1, 3),
      state(r2, 3, { phase: 'idle', due: null, lastFireTs: 5 }),
    ]);
    await states.remove(r1, 3);
    expect((await states.ofDevice(3)).map((s) => s.ruleId)).toEqual([r2]);
    await states.removeRule(r2);
    expect(sorted(await states.all())).toEqual([state(r1, 4)]);
    await states.removeDevice(4);
    expect(await states.all()).toEqual([]);
  });
});
