// Tasks ("Tugas"): what a rule's firing creates (docs/conventions.md "Codes of the domain"). At most one OPEN task
// (not Solved/Closed) per rule and device: a unique partial index, the guard that holds even when two gateways fire at
// once.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { applications } from '../apps/apps.table.js';

export const tasks = sqliteTable(
  'tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** null once the rule is removed (the task stays) */
    ruleId: integer('rule_id'),
    ruleName: text('rule_name'),
    category: integer('category').notNull(),
    /** 0 for events without a device (the open-task key needs a value); answered as null */
    deviceId: integer('device_id').notNull().default(0),
    deviceName: text('device_name'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** 1 New, 2 In progress, 3 Pending, 4 Solved, 5 Closed */
    status: integer('status').notNull().default(1),
    /** 1 while the status is 1..3: the partial unique index's condition */
    open: integer('open', { mode: 'boolean' }).notNull().default(true),
    notificationActive: integer('notification_active', { mode: 'boolean' }).notNull().default(true),
    occurrences: integer('occurrences').notNull().default(1),
    lastValue: text('last_value'),
    firstTs: integer('first_ts').notNull(),
    lastTs: integer('last_ts').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('tasks_open_rule_device')
      .on(t.ruleId, t.deviceId)
      .where(sql`${t.open} = 1`),
    index('tasks_app_updated').on(t.appId, t.updatedAt),
  ],
);

/**
 * A task's history for its timeline: created, each occurrence, status changes (with who), notifications muted or
 * enabled. Written in the transaction of the change itself; removed with the task. Notification attempts are the
 * notifications module's (`notification_attempts`).
 */
export const taskEvents = sqliteTable(
  'task_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    ts: integer('ts').notNull(),
    /** 'created' | 'occurrence' | 'status' | 'notification_on' | 'notification_off' */
    kind: text('kind').notNull(),
    status: integer('status'),
    previous: integer('previous'),
    value: text('value'),
    /** who did it (a username); null for the gateway (a rule's firing) */
    actor: text('actor'),
  },
  (t) => [index('task_events_task').on(t.taskId, t.ts)],
);
