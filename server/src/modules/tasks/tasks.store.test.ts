// The tasks store on both engines: a task by its application, the list's paging, search and order, the open slot of a
// rule and device, the history, the changes the console makes, a removed task's history going with it.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { taskEvents, tasks } from './tasks.table.js';
import { createTasksStore, type TaskRow, type TasksStore } from './tasks.store.js';

forEachEngine('tasks store', (open) => {
  let opened: OpenedStore;
  let store: TasksStore;
  let appId: number;
  let otherApp: number;
  beforeEach(async () => {
    opened = await open();
    store = createTasksStore(opened.store);
    const tenant = await addTenant(opened.store, 'budi');
    appId = await addApp(opened.store, tenant, 'pabrik');
    otherApp = await addApp(opened.store, tenant, 'gudang');
  });
  afterEach(() => opened?.close());

  let n = 0;
  async function task(over: Partial<TaskRow> = {}): Promise<TaskRow> {
    n++;
    const [row] = await opened.store.db
      .insert(tasks)
      .values({
        appId,
        ruleId: 1,
        ruleName: 'Suhu tinggi',
        category: 11,
        deviceId: 100 + n,
        title: `Tugas ${n}`,
        firstTs: 1_000,
        lastTs: 1_000,
        createdAt: 1_000,
        updatedAt: 1_000 + n,
        ...over,
      })
      .returning();
    return row!;
  }

  it('reads a task by its application only, with its booleans as booleans', async () => {
    const t = await task();
    expect(await store.byId(appId, t.id)).toMatchObject({ id: t.id, open: true, notificationActive: true, status: 1 });
    expect(await store.byId(otherApp, t.id)).toBeUndefined();
    expect(await store.byId(appId, t.id + 1000)).toBeUndefined();
  });

  it('lists a page, the latest changed first (id breaks ties), with the total, by status and by a part of the title', async () => {
    const a = await task({ title: 'Pompa 50% mati', updatedAt: 5_000 });
    const b = await task({ title: 'Pompa_1 mati', updatedAt: 5_000 });
    const c = await task({ title: 'pompa 501 ka11', updatedAt: 6_000, status: 4, open: false });
    await task({ appId: otherApp, title: 'Pompa gudang' });
    const page = await store.list(appId, { page: 0, size: 2 });
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => r.id)).toEqual([c.id, b.id]);
    expect((await store.list(appId, { page: 1, size: 2 })).rows.map((r) => r.id)).toEqual([a.id]);
    // the search's own % and _ match themselves; case does not matter, as on SQLite
    expect((await store.list(appId, { search: '50%', page: 0, size: 10 })).rows.map((r) => r.id)).toEqual([a.id]);
    expect((await store.list(appId, { search: 'a_1', page: 0, size: 10 })).rows.map((r) => r.id)).toEqual([b.id]);
    expect((await store.list(appId, { search: 'POMPA', page: 0, size: 10 })).total).toBe(3);
    expect((await store.list(appId, { status: 4, page: 0, size: 10 })).rows.map((r) => r.id)).toEqual([c.id]);
  });

  it('finds the open task of a rule and device, and refuses a second open one', async () => {
    const t = await task({ ruleId: 7, deviceId: 3 });
    await task({ ruleId: 7, deviceId: 3, open: false, status: 4 });
    expect((await store.openOf(7, 3))?.id).toBe(t.id);
    expect(await store.openOf(7, 4)).toBeUndefined();
    await expect(task({ ruleId: 7, deviceId: 3 })).rejects.toThrow();
  });

  it('keeps the history newest first, at most the limit, and removes it with the task', async () => {
    const t = await task();
    const other = await task();
    await store.history(t.id, 10, 'created', { status: 1, value: '31.5' });
    await store.history(t.id, 20, 'status', { status: 2, previous: 1, actor: 'budi' });
    await store.history(t.id, 20, 'notification_off', { actor: 'budi' });
    await store.history(other.id, 5, 'created');
    const events = await store.events(t.id, 10);
    expect(events.map((e) => [e.ts, e.kind])).toEqual([
      [20, 'notification_off'],
      [20, 'status'],
      [10, 'created'],
    ]);
    expect(events[1]).toMatchObject({ status: 2, previous: 1, value: null, actor: 'budi' });
    expect(events[2]).toMatchObject({ status: 1, previous: null, value: '31.5', actor: null });
    expect(await store.events(t.id, 1)).toHaveLength(1);
    await store.remove(t.id);
    expect(await store.byId(appId, t.id)).toBeUndefined();
    expect(await opened.store.db.select().from(taskEvents)).toHaveLength(1);
  });

  it('changes notifications and status, answering the changed task (undefined when it is gone)', async () => {
    const t = await task();
    expect(await store.setNotification(t.id, false, 9_000)).toMatchObject({
      notificationActive: false,
      updatedAt: 9_000,
    });
    expect(await store.setStatus(t.id, 4, false, 9_500)).toMatchObject({ status: 4, open: false, updatedAt: 9_500 });
    expect(await store.setStatus(t.id + 1000, 4, false, 1)).toBeUndefined();
    // its slot is free again
    await task({ ruleId: t.ruleId, deviceId: t.deviceId });
  });

  it("detaches a removed rule's tasks from it", async () => {
    const a = await task({ ruleId: 9 });
    const b = await task({ ruleId: 10 });
    await store.detachRule(9);
    expect((await store.byId(appId, a.id))?.ruleId).toBeNull();
    expect((await store.byId(appId, b.id))?.ruleId).toBe(10);
  });

  it('answers the latest firing of each rule and device of a category, tasks without a rule left out', async () => {
    await task({ category: 10009, ruleId: 1, deviceId: 5, lastTs: 100 });
    await task({ category: 10009, ruleId: 1, deviceId: 5, lastTs: 300, open: false, status: 5 });
    await task({ category: 10009, ruleId: 2, deviceId: 5, lastTs: 200 });
    await task({ category: 10009, ruleId: null, deviceId: 6, lastTs: 900 });
    await task({ category: 11, ruleId: 3, deviceId: 5, lastTs: 999 });
    await task({ appId: otherApp, category: 10009, ruleId: 4, deviceId: 7, lastTs: 999 });
    expect(await store.lastFired(appId, 10009)).toEqual([
      { deviceId: 5, ruleId: 1, ts: 300 },
      { deviceId: 5, ruleId: 2, ts: 200 },
    ]);
  });
});
