// The task entity (spec 03 sections 2.10, 3; docs/conventions.md "Codes of the domain"): what a rule's firing creates,
// with its status, occurrences and the deliveries of its notifications.
import { z } from 'zod';
import { T } from '../text/id.js';
import { Delivery } from './notifications.js';

/** Task status (docs/conventions.md "Codes of the domain"): 1 New, 2 In progress, 3 Pending, 4 Solved, 5 Closed. */
export const TaskStatus = { NEW: 1, IN_PROGRESS: 2, PENDING: 3, SOLVED: 4, CLOSED: 5 } as const;
export const TASK_STATUS_CODES = [1, 2, 3, 4, 5] as const;
export const TASK_STATUS_TEXT: Record<number, string> = T.tasks.status;
/** a task is open (new occurrences update it) until Solved or Closed */
export const isOpenStatus = (status: number) => status !== TaskStatus.SOLVED && status !== TaskStatus.CLOSED;
/** page sizes of the task list (spec 03 section 9) */
export const TASK_PAGE_SIZES = [5, 10, 25] as const;
export const TASK_TITLE_MAX = 64;

/**
 * The permission key (role permissions JSON) that task/change/status needs (docs/conventions.md "Codes of the domain").
 */
export const TASK_MANAGE = 'task_manage';

/** One notification of a task and how its delivery went (the notifications outbox's row). */
export const TaskDelivery = Delivery;
export type TaskDelivery = Delivery;

export const Task = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** 1..5 */
  status: z.number().int(),
  /** the status's label (New, In progress, Pending, Solved, Closed) */
  status_value: z.string(),
  notification_active: z.boolean(),
  /** null once the rule is removed */
  rule_id: z.number().int().nullable(),
  rule_name: z.string().nullable(),
  category: z.number().int(),
  /** null for events without a device (501) and once the device is removed */
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  /** how many times the rule fired for this task (1 at creation; later firings while open add one) */
  occurrences: z.number().int(),
  /** the last firing's value, as text (null for events without one) */
  last_value: z.string().nullable(),
  /** epoch ms of the first and last firing */
  first_ts: z.number().int(),
  last_ts: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Task = z.output<typeof Task>;

export const TaskDetail = Task.extend({ notifications: z.array(TaskDelivery) });
export type TaskDetail = z.output<typeof TaskDetail>;

/**
 * What happened to a task, for its timeline (an alarm console's history): created, each later occurrence (the rule
 * fired again while it was open), status changes (by whom), notifications muted or enabled, and every attempt to send
 * one of its notifications (queued, sent, to be retried, failed, muted, not configured).
 */
export const TASK_EVENT_KINDS = [
  'created',
  'occurrence',
  'status',
  'notification_on',
  'notification_off',
  'notification',
] as const;
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];
/** what became of one notification at one moment */
export const NOTIFICATION_OUTCOMES = ['queued', 'sent', 'retry', 'failed', 'muted', 'not_configured'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

export const TaskEvent = z.object({
  /** epoch ms */
  ts: z.number().int(),
  kind: z.enum(TASK_EVENT_KINDS),
  /** status: the new status (1..5) and the one before */
  status: z.number().int().nullable(),
  previous: z.number().int().nullable(),
  /** created, occurrence: the value the rule fired on (as text) */
  value: z.string().nullable(),
  /** status, notification_on/off: who did it (a username; null for the gateway itself) */
  actor: z.string().nullable(),
  /** notification: its channel, recipient, what became of it and why (a failure's reason) */
  channel: z.string().nullable(),
  recipient: z.string().nullable(),
  outcome: z.enum(NOTIFICATION_OUTCOMES).nullable(),
  detail: z.string().nullable(),
});
export type TaskEvent = z.output<typeof TaskEvent>;
/** the newest entries of a timeline answered (older ones are dropped from the answer, newest first kept) */
export const TASK_TIMELINE_MAX = 200;
