// The notification outbox: every message a rule's task sends, written in the same transaction as the task change and
// delivered by the notification worker (worker.ts). One row per message and recipient; its status is what the console shows.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const notificationOutbox = sqliteTable(
  'notification_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tenantId: integer('tenant_id').notNull(),
    appId: integer('app_id').notNull(),
    taskId: integer('task_id'),
    ruleId: integer('rule_id'),
    /** which action group queued it: 'new' | 'response' | 'reminder' ... */
    event: text('event'),
    /** a channel's code (contracts NOTIFICATION_CHANNELS) */
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** 'queued' | 'sending' | 'sent' | 'failed' | 'muted' | 'not_configured' */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** epoch ms: a queued message is due from then on (retries push it forward) */
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
  },
  (t) => [
    index('notification_outbox_status_due').on(t.status, t.nextAttemptAt),
    index('notification_outbox_task').on(t.taskId),
  ],
);

/**
 * Every attempt the worker made to send a message (sent, to be retried, failed), for the task's timeline: the outbox
 * row keeps only the latest. Removed with the task's messages.
 */
export const notificationAttempts = sqliteTable(
  'notification_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    outboxId: integer('outbox_id').notNull(),
    taskId: integer('task_id'),
    ts: integer('ts').notNull(),
    /** 'sent' | 'retry' | 'failed' */
    outcome: text('outcome').notNull(),
    error: text('error'),
  },
  (t) => [index('notification_attempts_task').on(t.taskId)],
);
