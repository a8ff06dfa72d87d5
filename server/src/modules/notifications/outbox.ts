// The transactional outbox of notifications. The rules engine calls `enqueue` inside the transaction that creates or
// changes a task, so the task and its messages commit together (or not at all); the worker (worker.ts) delivers them.
// Nothing here sends anything or throws on a bad message: a message that cannot be sent is stored with the reason.
import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  isValidRecipient,
  NOTIFICATION_CHANNELS,
  type Delivery,
  type DeliveryStatus,
  type NotificationChannel,
} from '@sentra/contracts';
import type { Db } from '../../db.js';
import { notificationAttempts, notificationOutbox } from './notifications.table.js';

export type { Delivery, DeliveryStatus, NotificationChannel };
export type AppDb = Db;

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

export interface Outbox {
  /** synchronous; call it INSIDE the caller's better-sqlite3/drizzle transaction (the task change and its messages
   *  commit together). Messages of a muted task are stored as 'muted'. Wakes the worker after the commit. */
  enqueue(messages: OutboxMessage[], opts?: { muted?: boolean }): void;
  /** queued messages of the task become 'muted' (task/notification/activate false) */
  muteTask(taskId: number): void;
  listForTask(appId: number, taskId: number): Delivery[];
  /** every send attempt of a task's messages, oldest first (the task's timeline) */
  attemptsForTask(appId: number, taskId: number): NotificationAttempt[];
  /** removes a task's messages and their attempts (task/remove) */
  removeTask(taskId: number): void;
  /** the worker listens here to be woken when messages were queued (called after the enqueuing transaction) */
  onEnqueued(listener: () => void): () => void;
}

/** Stored sizes: a subject longer than a mail header line is useless, a body beyond this is a template gone wrong. */
export const SUBJECT_MAX = 255;
export const BODY_MAX = 16_000;
export const RECIPIENT_MAX = 2048;

const CHANNELS = new Set<string>(NOTIFICATION_CHANNELS);

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export function createOutbox(db: AppDb, opts: { now?: () => number } = {}): Outbox {
  const now = opts.now ?? Date.now;
  const listeners = new Set<() => void>();
  let wakeScheduled = false;

  // better-sqlite3 transactions are synchronous: a callback queued with setImmediate runs after the caller's
  // transaction has committed (or rolled back, in which case the worker simply finds nothing new)
  function wakeAfterCommit() {
    if (wakeScheduled || listeners.size === 0) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      for (const l of listeners) l();
    });
  }

  return {
    enqueue(messages, enqueueOpts = {}) {
      if (messages.length === 0) return;
      const at = now();
      const rows = messages.map((m) => {
        const channelKnown = CHANNELS.has(m.channel);
        const recipient = String(m.recipient ?? '').trim();
        const valid = channelKnown && recipient.length <= RECIPIENT_MAX && isValidRecipient(m.channel, recipient);
        const status: DeliveryStatus = !valid ? 'failed' : enqueueOpts.muted ? 'muted' : 'queued';
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
        };
      });
      db.insert(notificationOutbox).values(rows).run();
      if (rows.some((r) => r.status === 'queued')) wakeAfterCommit();
    },

    muteTask(taskId) {
      db.update(notificationOutbox)
        .set({ status: 'muted' })
        .where(and(eq(notificationOutbox.taskId, taskId), eq(notificationOutbox.status, 'queued')))
        .run();
    },

    listForTask(appId, taskId) {
      return db
        .select()
        .from(notificationOutbox)
        .where(and(eq(notificationOutbox.appId, appId), eq(notificationOutbox.taskId, taskId)))
        .orderBy(asc(notificationOutbox.id))
        .all()
        .map(toDelivery);
    },

    attemptsForTask(appId, taskId) {
      return db
        .select({
          outboxId: notificationAttempts.outboxId,
          ts: notificationAttempts.ts,
          outcome: notificationAttempts.outcome,
          error: notificationAttempts.error,
        })
        .from(notificationAttempts)
        .innerJoin(notificationOutbox, eq(notificationOutbox.id, notificationAttempts.outboxId))
        .where(and(eq(notificationOutbox.appId, appId), eq(notificationAttempts.taskId, taskId)))
        .orderBy(asc(notificationAttempts.ts), asc(notificationAttempts.id))
        .all() as NotificationAttempt[];
    },

    removeTask(taskId) {
      const ids = db
        .select({ id: notificationOutbox.id })
        .from(notificationOutbox)
        .where(eq(notificationOutbox.taskId, taskId))
        .all()
        .map((r) => r.id);
      if (ids.length) db.delete(notificationAttempts).where(inArray(notificationAttempts.outboxId, ids)).run();
      db.delete(notificationOutbox).where(eq(notificationOutbox.taskId, taskId)).run();
    },

    onEnqueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
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
