// The transactional outbox of notifications. The tasks service calls `enqueue` inside the transaction that creates or
// changes a task (a console change, or a rule's firing in the rule engine's write transaction), so the task and its
// messages commit together (or not at all); the worker (worker.ts) delivers them.
// Nothing here sends anything or throws on a bad message: a message that cannot be sent is stored with the reason.
import { and, asc, count, eq, inArray, min, sql } from 'drizzle-orm';
import {
  isValidRecipient,
  NOTIFICATION_CHANNELS,
  type Delivery,
  type DeliveryStatus,
  type NotificationChannel,
} from '@sentra/contracts';
import type { AppStore } from '../../db.js';
import { notificationAttempts, notificationOutbox } from './notifications.table.js';

export type { Delivery, DeliveryStatus, NotificationChannel };

export interface OutboxMessage {
  tenantId: number;
  appId: number;
  taskId?: number;
  ruleId?: number;
  /** which action group queued it: 'new' | 'response' | 'reminder' ... */
  event?: string;
  channel: NotificationChannel;
  recipient: string;
  subject?: string;
  body: string;
}

/** One try to send a message: its outbox row and what the provider answered. */
export interface NotificationAttempt {
  outboxId: number;
  ts: number;
  outcome: 'sent' | 'retry' | 'failed';
  error: string | null;
}

/** A message the worker claimed (the columns it sends with). */
export interface ClaimedMessage {
  id: number;
  tenantId: number;
  appId: number;
  taskId: number | null;
  ruleId: number | null;
  event: string | null;
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
  createdAt: number;
}

/** What an attempt made of a claimed message (only while it is still 'sending'). */
export type Outcome =
  | { status: 'sent'; sentAt: number }
  | { status: 'queued'; nextAttemptAt: number; attempts?: number; lastError?: string }
  | { status: 'failed'; attempts: number; lastError: string };

export interface Outbox {
  /** call it INSIDE the caller's `store.tx` (the task change and its messages commit together). Messages of a muted
   *  task are stored as 'muted'. Wakes the worker after the commit on SQLite; on PostgreSQL the caller calls `queued()`
   *  once its transaction has committed (a wake before it finds nothing, and the worker's poll would be next). */
  enqueue(messages: OutboxMessage[], opts?: { muted?: boolean }): Promise<void>;
  /** queued messages of the task become 'muted' (task/notification/activate false) */
  muteTask(taskId: number): Promise<void>;
  listForTask(appId: number, taskId: number): Promise<Delivery[]>;
  /** every send attempt of a task's messages, oldest first (the task's timeline) */
  attemptsForTask(appId: number, taskId: number): Promise<NotificationAttempt[]>;
  /** removes a task's messages and their attempts (task/remove) */
  removeTask(taskId: number): Promise<void>;
  /** the worker listens here to be woken when messages were queued (called after the enqueuing transaction) */
  onEnqueued(listener: () => void): () => void;
  /** wakes the listeners after the current turn: messages were committed */
  queued(): void;

  // ---- the worker's side (worker.ts) ----
  /** whether a queued message, or a 'sending' one whose lease ended, is due at `at` (a read: no write lock) */
  anythingDue(at: number): Promise<boolean>;
  /** the earliest `next_attempt_at` of the queued and sending messages */
  nextDue(): Promise<number | null>;
  /** queued messages (and 'sending' ones whose lease ended) of channels not in `channels` become 'not_configured' */
  markNotConfigured(channels: readonly string[], at: number): Promise<void>;
  /** due messages of `channels` become 'sending' until `leaseUntil`, at most `limit`, oldest due first, atomically */
  claim(channels: readonly string[], at: number, leaseUntil: number, limit: number): Promise<ClaimedMessage[]>;
  /** records an attempt's outcome on a message still 'sending' (false: it is not, e.g. its task was removed) */
  record(id: number, outcome: Outcome): Promise<boolean>;
  /** one attempt, for the task's timeline */
  attempted(a: NotificationAttempt & { taskId: number | null }): Promise<void>;
  /** messages per status */
  countByStatus(): Promise<Array<{ status: DeliveryStatus; n: number }>>;
}

/** Stored sizes: a subject longer than a mail header line is useless, a body beyond this is a template gone wrong. */
export const SUBJECT_MAX = 255;
export const BODY_MAX = 16_000;
export const RECIPIENT_MAX = 2048;

const CHANNELS = new Set<string>(NOTIFICATION_CHANNELS);

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export type NewOutboxRow = typeof notificationOutbox.$inferInsert;

/**
 * The rows `messages` are stored as at `at`: an unknown channel or an invalid address is kept as 'failed' with the
 * reason (nothing here throws into the task change).
 */
export function outboxRows(messages: readonly OutboxMessage[], at: number, opts: { muted?: boolean } = {}) {
  return messages.map((m) => {
    const channelKnown = CHANNELS.has(m.channel);
    const recipient = String(m.recipient ?? '').trim();
    const valid = channelKnown && recipient.length <= RECIPIENT_MAX && isValidRecipient(m.channel, recipient);
    const status: DeliveryStatus = !valid ? 'failed' : opts.muted ? 'muted' : 'queued';
    return {
      tenantId: m.tenantId,
      appId: m.appId,
      taskId: m.taskId ?? null,
      ruleId: m.ruleId ?? null,
      event: m.event ?? null,
      channel: String(m.channel),
      recipient: clip(recipient, RECIPIENT_MAX),
      subject: m.subject === undefined ? null : clip(m.subject, SUBJECT_MAX),
      body: clip(String(m.body ?? ''), BODY_MAX),
      status,
      attempts: 0,
      nextAttemptAt: at,
      lastError: valid
        ? null
        : channelKnown
          ? `invalid recipient for ${m.channel}`
          : `unknown channel ${String(m.channel)}`,
      createdAt: at,
      sentAt: null,
    } satisfies NewOutboxRow;
  });
}

const o = notificationOutbox;
/** a queued message, or a 'sending' one whose lease ended (its gateway died): open for a claim */
const open = (at: number) => sql`(${o.status} = 'queued' OR (${o.status} = 'sending' AND ${o.nextAttemptAt} <= ${at}))`;

export function createOutbox(store: AppStore, opts: { now?: () => number } = {}): Outbox {
  const now = opts.now ?? Date.now;
  const { db } = store;
  const listeners = new Set<() => void>();
  let wakeScheduled = false;

  // a transaction on SQLite runs within one turn of the event loop: a callback queued with setImmediate runs after
  // the caller's transaction has committed (or rolled back, and the worker simply finds nothing new). On PostgreSQL
  // the wake may come before the commit: the worker's poll finds the messages then.
  function wakeAfterCommit() {
    if (wakeScheduled || listeners.size === 0) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      for (const l of listeners) l();
    });
  }

  return {
    async enqueue(messages, enqueueOpts = {}) {
      if (messages.length === 0) return;
      const rows = outboxRows(messages, now(), enqueueOpts);
      await db.insert(o).values(rows);
      if (rows.some((r) => r.status === 'queued')) wakeAfterCommit();
    },

    async muteTask(taskId) {
      await db
        .update(o)
        .set({ status: 'muted' })
        .where(and(eq(o.taskId, taskId), eq(o.status, 'queued')));
    },

    async listForTask(appId, taskId) {
      const rows = await db
        .select()
        .from(o)
        .where(and(eq(o.appId, appId), eq(o.taskId, taskId)))
        .orderBy(asc(o.id));
      return rows.map(toDelivery);
    },

    async attemptsForTask(appId, taskId) {
      return (await db
        .select({
          outboxId: notificationAttempts.outboxId,
          ts: notificationAttempts.ts,
          outcome: notificationAttempts.outcome,
          error: notificationAttempts.error,
        })
        .from(notificationAttempts)
        .innerJoin(o, eq(o.id, notificationAttempts.outboxId))
        .where(and(eq(o.appId, appId), eq(notificationAttempts.taskId, taskId)))
        .orderBy(asc(notificationAttempts.ts), asc(notificationAttempts.id))) as NotificationAttempt[];
    },

    removeTask: (taskId) =>
      store.tx(async () => {
        const ids = (await db.select({ id: o.id }).from(o).where(eq(o.taskId, taskId))).map((r) => r.id);
        if (ids.length) await db.delete(notificationAttempts).where(inArray(notificationAttempts.outboxId, ids));
        await db.delete(o).where(eq(o.taskId, taskId));
      }),

    onEnqueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    queued: wakeAfterCommit,

    async anythingDue(at) {
      const row = await db
        .select({ id: o.id })
        .from(o)
        .where(and(inArray(o.status, ['queued', 'sending']), sql`${o.nextAttemptAt} <= ${at}`))
        .limit(1)
        .get();
      return row !== undefined;
    },

    async nextDue() {
      const row = await db
        .select({ due: min(o.nextAttemptAt) })
        .from(o)
        .where(inArray(o.status, ['queued', 'sending']))
        .get();
      return row?.due ?? null;
    },

    async markNotConfigured(channels, at) {
      await db
        .update(o)
        .set({ status: 'not_configured' })
        .where(channels.length ? and(open(at), sql`${o.channel} NOT IN ${channels}`) : open(at));
    },

    async claim(channels, at, leaseUntil, limit) {
      if (channels.length === 0 || limit <= 0) return [];
      // one statement, atomic on its own. The outer condition is checked again on a row another gateway changed
      // meanwhile (PostgreSQL re-reads it after the other's commit; SQLite's write lock serialises the two): once
      // claimed, its next_attempt_at is in the future
      const rows = await store.rows<ClaimedRow>(sql`
          UPDATE notification_outbox SET status = 'sending', next_attempt_at = ${leaseUntil}
          WHERE id IN (
            SELECT id FROM notification_outbox
            WHERE status IN ('queued', 'sending') AND next_attempt_at <= ${at} AND channel IN ${channels}
            ORDER BY next_attempt_at, id LIMIT ${limit}
          ) AND status IN ('queued', 'sending') AND next_attempt_at <= ${at}
          RETURNING id, tenant_id, app_id, task_id, rule_id, event, channel, recipient, subject, body, attempts, created_at`);
      return rows
        .map((r) => ({
          id: r.id,
          tenantId: r.tenant_id,
          appId: r.app_id,
          taskId: r.task_id,
          ruleId: r.rule_id,
          event: r.event,
          channel: r.channel,
          recipient: r.recipient,
          subject: r.subject,
          body: r.body,
          attempts: r.attempts,
          createdAt: r.created_at,
        }))
        .sort((a, b) => a.id - b.id);
    },

    async record(id, outcome) {
      const set =
        outcome.status === 'sent'
          ? { status: 'sent', attempts: sql`${o.attempts} + 1`, sentAt: outcome.sentAt }
          : outcome;
      const r = await db
        .update(o)
        .set(set)
        .where(and(eq(o.id, id), eq(o.status, 'sending')))
        .returning({ id: o.id });
      return r.length > 0;
    },

    async attempted(a) {
      await db
        .insert(notificationAttempts)
        .values({ outboxId: a.outboxId, taskId: a.taskId, ts: a.ts, outcome: a.outcome, error: a.error });
    },

    async countByStatus() {
      return (await db.select({ status: o.status, n: count() }).from(o).groupBy(o.status).orderBy(o.status)) as Array<{
        status: DeliveryStatus;
        n: number;
      }>;
    },
  };
}

interface ClaimedRow {
  id: number;
  tenant_id: number;
  app_id: number;
  task_id: number | null;
  rule_id: number | null;
  event: string | null;
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
  created_at: number;
}

export type OutboxRow = typeof notificationOutbox.$inferSelect;

export function toDelivery(r: OutboxRow): Delivery {
  return {
    id: r.id,
    channel: r.channel as NotificationChannel,
    recipient: r.recipient,
    subject: r.subject,
    event: r.event,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    last_error: r.lastError,
    created_at: r.createdAt,
    sent_at: r.sentAt,
  };
}
