// The tasks domain's persistence (tasks and their history, task_events) on the storage boundary's store: SQLite or
// PostgreSQL, one query code. Both the console's changes and a rule's firing (tasks.service.ts `fire`, inside the rule
// engine's write transaction: rules/write-queue.ts) write through here. The firing's hot path (a rule firing again
// while its task is open: the open task, an occurrence, its history) runs drizzle prepared queries, rendered once.
import { and, desc, eq, isNotNull, max, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { taskEvents, tasks } from './tasks.table.js';
import { containing, likeEscaped } from '../../platform/db/like.js';
import { pageOf } from '../../platform/db/page.js';

export type TaskRow = typeof tasks.$inferSelect;
export type TaskEventRow = typeof taskEvents.$inferSelect;
export type TaskEventKind = 'created' | 'occurrence' | 'status' | 'notification_on' | 'notification_off';
export interface TaskEventMore {
  status?: number;
  previous?: number;
  value?: string | null;
  actor?: string | null;
}

export function createTasksStore(store: AppStore) {
  const { db } = store;
  const p = (name: string) => sql.placeholder(name);
  const openOfQuery = db
    .select()
    .from(tasks)
    .where(and(eq(tasks.ruleId, p('ruleId')), eq(tasks.deviceId, p('deviceId')), eq(tasks.open, true)))
    .prepare();
  const occurrenceQuery = db
    .update(tasks)
    .set({
      occurrences: sql`${tasks.occurrences} + 1`,
      lastValue: sql`${p('lastValue')}`,
      lastTs: sql`${p('lastTs')}`,
      updatedAt: sql`${p('at')}`,
    })
    .where(eq(tasks.id, p('id')))
    .returning()
    .prepare();
  const historyQuery = db
    .insert(taskEvents)
    .values({
      taskId: p('taskId'),
      ts: p('ts'),
      kind: p('kind'),
      status: p('status'),
      previous: p('previous'),
      value: p('value'),
      actor: p('actor'),
    })
    .prepare();

  /** the application's task; undefined for an unknown id or another application's task */
  const byId = (appId: number, id: number): Promise<TaskRow | undefined> =>
    db
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, id), eq(tasks.appId, appId)))
      .get();

  /** a page of the application's tasks, the latest changed first; `search` is a part of the title, as typed */
  async function list(appId: number, q: { search?: string; status?: number; page: number; size: number }) {
    // LIKE with ESCAPE (drizzle's like() has none): the search text's own % and _ match themselves
    const where = and(
      eq(tasks.appId, appId),
      q.search ? likeEscaped(tasks.title, containing(q.search)) : undefined,
      q.status ? eq(tasks.status, q.status) : undefined,
    );
    return pageOf(db, tasks, where, [desc(tasks.updatedAt), desc(tasks.id)], q);
  }

  /** the open task of a rule and device (at most one: a unique index) */
  const openOf = (ruleId: number, deviceId: number): Promise<TaskRow | undefined> =>
    openOfQuery.get({ ruleId, deviceId });

  /** the task's history, newest first, at most `limit` */
  const events = (taskId: number, limit: number): Promise<TaskEventRow[]> =>
    db
      .select()
      .from(taskEvents)
      .where(eq(taskEvents.taskId, taskId))
      .orderBy(desc(taskEvents.ts), desc(taskEvents.id))
      .limit(limit);

  /** one change of the task's history (in the change's own transaction) */
  async function history(taskId: number, ts: number, kind: TaskEventKind, more: TaskEventMore = {}): Promise<void> {
    await historyQuery.run({
      taskId,
      ts,
      kind,
      status: more.status ?? null,
      previous: more.previous ?? null,
      value: more.value ?? null,
      actor: more.actor ?? null,
    });
  }

  async function change(id: number, set: Partial<Omit<TaskRow, 'id' | 'appId'>>): Promise<TaskRow | undefined> {
    return db.update(tasks).set(set).where(eq(tasks.id, id)).returning().get();
  }

  return {
    byId,
    list,
    openOf,
    events,
    history,
    /** notifications of the task on or off; undefined when it is gone */
    setNotification: (id: number, active: boolean, at: number) =>
      change(id, { notificationActive: active, updatedAt: at }),
    /** the task's status, whether it holds its rule and device's open slot; undefined when it is gone */
    setStatus: (id: number, status: number, open: boolean, at: number) => change(id, { status, open, updatedAt: at }),
    /** a new task (a rule's first firing while no task of its rule and device is open) */
    insert: async (values: Omit<TaskRow, 'id'>): Promise<TaskRow> =>
      (await db.insert(tasks).values(values).returning())[0]!,
    /** the open task fired again: one more occurrence with its value and time */
    occurrence: async (id: number, lastValue: string | null, lastTs: number, at: number): Promise<TaskRow> =>
      (await occurrenceQuery.get({ id, lastValue, lastTs, at }))!,
    /** the title and description rendered from the rule's templates once the task exists (they may name its id) */
    retitle: async (id: number, title: string, description: string): Promise<TaskRow> =>
      (await change(id, { title, description }))!,
    /** removes the task (its history goes with it) */
    async remove(id: number): Promise<void> {
      await db.delete(tasks).where(eq(tasks.id, id));
    },
    /** a removed rule's tasks stay, without their rule */
    async detachRule(ruleId: number): Promise<void> {
      await db.update(tasks).set({ ruleId: null }).where(eq(tasks.ruleId, ruleId));
    },
    /** the latest firing (last_ts) of each rule and device among the application's tasks of a category */
    lastFired: (appId: number, category: number) =>
      db
        .select({ deviceId: tasks.deviceId, ruleId: tasks.ruleId, ts: max(tasks.lastTs) })
        .from(tasks)
        .where(and(eq(tasks.appId, appId), eq(tasks.category, category), isNotNull(tasks.ruleId)))
        .groupBy(tasks.deviceId, tasks.ruleId)
        .orderBy(tasks.deviceId, tasks.ruleId) as Promise<Array<{ deviceId: number; ruleId: number; ts: number }>>,
  };
}

export type TasksStore = ReturnType<typeof createTasksStore>;
