// A firing's writes on both engines: the engine's state (state-store.ts), the task with its history and the `new`
// group's messages (tasks.service.ts `fire` over the tasks store and the outbox, the same writers the console uses)
// commit in one transaction of the write queue, and the task push is published after the commit; a failure rolls
// all of it back and publishes nothing.
import type { TaskPush } from '@sentra/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppStore } from '../../db.js';
import { addApp, addTenant } from '../apps/testing/owners.js';
import { createOutbox, type Outbox } from '../notifications/outbox.js';
import { createTasksService } from '../tasks/tasks.service.js';
import { createTasksStore } from '../tasks/tasks.store.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createRuleEngine, type RuleEngine } from './engine.js';
import { createRulesStore } from './rules.store.js';
import { createRuleStateStore } from './state-store.js';
import { createWriteQueue, type WriteQueue } from './write-queue.js';

const DEVICE = 41;

forEachEngine('a firing’s writes', (open) => {
  let opened: OpenedStore;
  let appId: number;
  let ruleId: number;
  let pushes: TaskPush[];
  let engine: RuleEngine;
  let writes: WriteQueue;
  let outbox: Outbox;
  let failEnqueue: boolean;
  let tenantId: number;
  let ruleRecord: Parameters<RuleEngine['upsert']>[0];

  /**
   * One gateway storing locally (its own tasks service, write queue and engine evaluating once) whose write queue's
   * transactions go through `queueStore`
   */
  function gateway(queueStore: Pick<AppStore, 'kind' | 'tx' | 'tryTx'>, trace?: (line: string) => void) {
    const tasks = createTasksService({
      store: createTasksStore(opened.store),
      tx: (fn) => opened.store.tx(fn),
      outbox,
      appOf: async (id) => (id === appId ? { name: 'Pabrik', timezone: 'Asia/Makassar', tenantId } : undefined),
      deviceOf: async (_, id) => (id === DEVICE ? { name: 'Genset-01', serialNumber: 'SN-9' } : undefined),
      ruleOf: async () => undefined,
      bus: { publish: () => undefined },
      now: () => 60,
    });
    const queue = createWriteQueue({ store: queueStore, committed: tasks.flush, rolledBack: tasks.discard });
    const e = createRuleEngine({
      store: createRuleStateStore(opened.store),
      onFire: tasks.fire,
      write: queue.run,
      shared: true,
      evaluatedOnce: true,
      trace,
      now: () => 1_000,
    });
    e.upsert(ruleRecord);
    return { engine: e, writes: queue };
  }

  beforeEach(async () => {
    opened = await open();
    const { store } = opened;
    tenantId = await addTenant(store, 'budi');
    appId = await addApp(store, tenantId, 'pabrik');
    const action = {
      title: '{{device.name}} panas',
      new: [{ type: 'EMAIL' as const, email: 'ops@contoh.id', subject: 'S', content: '{{device.serial}} {{value}}' }],
      response: [],
    };
    const condition = {
      triggers: [
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'genset' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'engine' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'temp' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>', value: 90 },
      ],
    } as const;
    const rule = (await createRulesStore(store).create({
      appId,
      name: 'Suhu tinggi',
      key: null,
      category: 11,
      description: 'di atas 90',
      condition: JSON.stringify(condition),
      action: JSON.stringify(action),
      details: '{}',
      active: true,
      createdAt: 1,
      updatedAt: 1,
    }))!;
    ruleId = rule.id;
    pushes = [];
    failEnqueue = false;
    const realOutbox = createOutbox(store, { now: () => 50 });
    outbox = {
      ...realOutbox,
      enqueue: async (messages, o) => {
        await realOutbox.enqueue(messages, o);
        if (failEnqueue) throw new Error('refused');
      },
    };
    const tasks = createTasksService({
      store: createTasksStore(store),
      tx: (fn) => store.tx(fn),
      outbox,
      appOf: async (id) => (id === appId ? { name: 'Pabrik', timezone: 'Asia/Makassar', tenantId } : undefined),
      deviceOf: async (_, id) => (id === DEVICE ? { name: 'Genset-01', serialNumber: 'SN-9' } : undefined),
      ruleOf: async () => undefined,
      bus: { publish: (_subject, data) => void pushes.push(data as TaskPush) },
      now: () => 60,
    });
    writes = createWriteQueue({ store, committed: tasks.flush, rolledBack: tasks.discard });
    engine = createRuleEngine({
      store: createRuleStateStore(store),
      onFire: tasks.fire,
      write: writes.run,
      now: () => 1_000,
    });
    ruleRecord = {
      id: ruleId,
      appId,
      category: 11,
      name: rule.name,
      key: null,
      description: rule.description,
      condition,
      action,
    } as never;
    engine.upsert(ruleRecord);
  });
  afterEach(async () => {
    engine.close();
    await opened?.close();
  });

  const send = (value: number, ts: number, to = engine) =>
    to.telemetry({
      appId,
      deviceId: DEVICE,
      points: [{ sensor: 'genset', config: 'engine', param: 'temp', value, ts }],
    });
  const tasksStore = () => createTasksStore(opened.store);
  const states = () => createRuleStateStore(opened.store).all();

  it('writes the state, the task, its history and messages together, and pushes the task after the commit', async () => {
    send(95, 1_000);
    // evaluation moved on at once; the rows come with the queue's transaction
    expect(engine.state(ruleId, DEVICE)?.phase).toBe('active');
    await writes.flush();
    const task = (await tasksStore().openOf(ruleId, DEVICE))!;
    expect(task).toMatchObject({
      appId,
      title: 'Genset-01 panas',
      description: 'di atas 90',
      deviceName: 'Genset-01',
      occurrences: 1,
      lastValue: '95',
      open: true,
      notificationActive: true,
    });
    expect((await tasksStore().events(task.id, 10)).map((e) => [e.kind, e.status, e.value])).toEqual([
      ['created', 1, '95'],
    ]);
    expect((await outbox.listForTask(appId, task.id)).map((d) => [d.channel, d.recipient, d.status])).toEqual([
      ['EMAIL', 'ops@contoh.id', 'queued'],
    ]);
    expect(await states()).toEqual([
      {
        ruleId,
        deviceId: DEVICE,
        phase: 'active',
        since: 1_000,
        due: null,
        value: '95',
        lastFireTs: 1_000,
        lastTs: null,
      },
    ]);
    expect(pushes.map((p) => [p.kind, p.task.id, p.task.title])).toEqual([['created', task.id, 'Genset-01 panas']]);

    // the match ends, then holds again while the task is open: one more occurrence, no new message
    send(80, 2_000);
    send(97, 3_000);
    await writes.flush();
    const again = (await tasksStore().byId(appId, task.id))!;
    expect(again).toMatchObject({ occurrences: 2, lastValue: '97', lastTs: 3_000, updatedAt: 60 });
    expect((await tasksStore().events(task.id, 10)).map((e) => e.kind)).toEqual(['occurrence', 'created']);
    expect(await outbox.listForTask(appId, task.id)).toHaveLength(1);
    expect(pushes.map((p) => p.kind)).toEqual(['created', 'changed']);
    expect(pushes[1]!.task.occurrences).toBe(2);
  });

  it('a firing whose writes fail is rolled back whole: no state, task or message, nothing pushed', async () => {
    failEnqueue = true;
    send(95, 1_000);
    await writes.flush();
    expect(await tasksStore().openOf(ruleId, DEVICE)).toBeUndefined();
    expect((await tasksStore().list(appId, { page: 0, size: 10 })).total).toBe(0);
    expect(await outbox.countByStatus()).toEqual([]);
    expect(await states()).toEqual([]);
    expect(pushes).toEqual([]);
    expect(writes.metrics().failed).toBe(1);
  });

  it('a gateway killed between two write transactions leaves no state ahead of its task: the resent crossing fires on the next', async () => {
    // gateway A: its write transactions commit until the one held (then it is killed: that one never commits)
    let txs = 0;
    let holdAt = Infinity;
    let heldAsked!: () => void;
    const asked = new Promise<void>((r) => (heldAsked = r));
    let kill!: (err: Error) => void;
    const killed = new Promise<never>((_, reject) => (kill = reject));
    const held = async <T>(run: () => Promise<T>): Promise<T> => {
      if (++txs === holdAt) {
        heldAsked();
        await killed;
      }
      return run();
    };
    const { store } = opened;
    const a = gateway({
      kind: store.kind,
      tx: (fn) => held(() => store.tx(fn)),
      tryTx: (fn) => held(() => store.tryTx(fn)),
    });
    send(95, 1_000, a.engine);
    await a.writes.flush();
    // one commit brings 80 then 97 (a device's two messages in flight): 80's phase change is written in a transaction
    // of its own (the queue was empty), 97's firing in the next one, which the kill -9 stops
    holdAt = txs + 2;
    send(80, 2_000, a.engine);
    send(97, 3_000, a.engine);
    await asked;
    a.engine.close();
    // what the kill leaves: the state of 80 (the crossing at 97 is not evaluated as far as the table knows)
    expect((await states()).map((st) => [st.phase, st.lastFireTs, st.lastTs])).toEqual([['idle', 1_000, 2_000]]);
    kill(new Error('killed'));
    await a.writes.flush();

    // the device sends 97 again (never acknowledged) to gateway B, which reads the state on first sight: it fires
    const traced: string[] = [];
    const b = gateway(store, (line) => traced.push(line));
    await b.engine.refresh(DEVICE);
    send(97, 3_000, b.engine);
    // RULES_TRACE's lines: what B read and what it did with the point sent again
    expect(traced).toEqual([
      `rules: device ${DEVICE} states read back: rule ${ruleId} idle, fired 1000, to 2000`,
      `rules: device ${DEVICE} rule ${ruleId} point 3000 fires`,
    ]);
    await b.writes.flush();
    const task = (await tasksStore().openOf(ruleId, DEVICE))!;
    expect(task).toMatchObject({ occurrences: 2, lastTs: 3_000 });
    expect((await states()).map((st) => [st.phase, st.lastFireTs, st.lastTs])).toEqual([['active', 3_000, 3_000]]);
    b.engine.close();
  });
});
