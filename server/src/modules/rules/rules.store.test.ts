// The rules store on both engines: a rule by its application, the list's paging and search, a key unique per
// application (the index decides when two adds race), edits, removal with the engine's state, the active ones.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { ruleStates } from './rules.table.js';
import { createRulesStore, type NewRule, type RulesStore } from './rules.store.js';

forEachEngine('rules store', (open) => {
  let opened: OpenedStore;
  let store: RulesStore;
  let appId: number;
  let otherApp: number;
  beforeEach(async () => {
    opened = await open();
    store = createRulesStore(opened.store);
    const tenant = await addTenant(opened.store, 'budi');
    appId = await addApp(opened.store, tenant, 'pabrik');
    otherApp = await addApp(opened.store, tenant, 'gudang');
  });
  afterEach(() => opened?.close());

  const rule = (over: Partial<NewRule> = {}): NewRule => ({
    appId,
    name: 'Suhu tinggi',
    key: null,
    category: 11,
    description: '',
    condition: '{"triggers":[]}',
    action: '{"new":[],"response":[]}',
    details: '{}',
    active: true,
    createdAt: 1_000,
    updatedAt: 1_000,
    ...over,
  });
  const add = async (over: Partial<NewRule> = {}) => (await store.create(rule(over)))!;

  it('creates a rule and reads it back by its application only, booleans as booleans', async () => {
    const r = await add({ name: 'Tegangan', key: 'volt' });
    expect(r).toMatchObject({ appId, name: 'Tegangan', key: 'volt', active: true, details: '{}' });
    expect(await store.byId(appId, r.id)).toEqual(r);
    expect(await store.byId(otherApp, r.id)).toBeUndefined();
    expect(await store.anyById(r.id)).toEqual(r);
    expect(await store.anyById(r.id + 1000)).toBeUndefined();
  });

  it('keeps a key unique per application: taken is told, and a racing add is refused by the index', async () => {
    await add({ key: 'volt' });
    expect(await store.keyTaken(appId, 'volt')).toBe(true);
    expect(await store.keyTaken(otherApp, 'volt')).toBe(false);
    expect(await store.create(rule({ key: 'volt' }))).toBeUndefined();
    expect(await store.create(rule({ appId: otherApp, key: 'volt' }))).toBeDefined();
    // rules without a key are not limited
    await add();
    await add();
    expect((await store.list(appId, { page: 0, size: 10 })).total).toBe(3);
  });

  it('lists a page, newest first, with the total and by a part of the name as typed', async () => {
    const a = await add({ name: 'Level 50% solar' });
    const b = await add({ name: 'Level_1 air' });
    const c = await add({ name: 'level 501 ka11' });
    await add({ appId: otherApp, name: 'Level gudang' });
    const first = await store.list(appId, { page: 0, size: 2 });
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => r.id)).toEqual([c.id, b.id]);
    expect((await store.list(appId, { page: 1, size: 2 })).rows.map((r) => r.id)).toEqual([a.id]);
    expect((await store.list(appId, { search: '50%', page: 0, size: 10 })).rows.map((r) => r.id)).toEqual([a.id]);
    expect((await store.list(appId, { search: 'l_1', page: 0, size: 10 })).rows.map((r) => r.id)).toEqual([b.id]);
    expect((await store.list(appId, { search: 'LEVEL', page: 0, size: 10 })).total).toBe(3);
  });

  it('updates what an edit changes, answering the rule (undefined when it is gone)', async () => {
    const r = await add();
    expect(await store.update(r.id, { name: 'Baru', active: false, updatedAt: 2_000 })).toMatchObject({
      id: r.id,
      name: 'Baru',
      active: false,
      updatedAt: 2_000,
      createdAt: 1_000,
    });
    expect(await store.update(r.id + 1000, { active: true, updatedAt: 1 })).toBeUndefined();
  });

  it('removes a rule with its engine state, and answers the active ones', async () => {
    const a = await add();
    const b = await add({ active: false });
    const c = await add({ appId: otherApp });
    await opened.store.db.insert(ruleStates).values([
      { ruleId: a.id, deviceId: 1, phase: 'active', since: 1 },
      { ruleId: c.id, deviceId: 1, phase: 'active', since: 1 },
    ]);
    expect((await store.activeOf(appId)).map((r) => r.id)).toEqual([a.id]);
    expect((await store.allActive()).map((r) => r.id)).toEqual([a.id, c.id]);
    await store.remove(a.id);
    expect(await store.byId(appId, a.id)).toBeUndefined();
    expect((await opened.store.db.select().from(ruleStates)).map((s) => s.ruleId)).toEqual([c.id]);
    expect((await store.allActive()).map((r) => r.id)).toEqual([c.id]);
    expect(await store.byId(appId, b.id)).toBeDefined();
  });
});
