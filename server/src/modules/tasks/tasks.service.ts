// Tasks: created or updated by a rule's firing (one open task per rule and device), listed, muted, removed, and moved
// through the five statuses (the rule's `response` group runs on each change). Every change is published on the bus
// as `task.<app>.<task>` (a TaskPush) after its commit; rules.module.ts pushes it to the console.
import {
  isOpenStatus,
  RULE_CATEGORIES,
  TASK_STATUS_TEXT,
  TASK_TIMELINE_MAX,
  renderTemplate,
  type ActionEntry,
  type Task,
  type TaskDetail,
  type TaskEvent,
  type TaskPush,
} from '@sentra/contracts';
import type { Bus } from '../../platform/bus/types.js';
import { notFound } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/log.js';
import type { Outbox } from '../notifications/outbox.js';
import type { Firing } from '../rules/engine.js';
import type { TaskRow, TasksStore } from './tasks.store.js';
import { formatTime, renderGroup, valueText, type TemplateValues } from './templates.js';

/** characters of a firing's value a task keeps */
export const LAST_VALUE_MAX = 256;

export const taskSubject = (appId: number, taskId: number) => `task.${appId}.${taskId}`;

export function toTask(r: TaskRow): Task {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    status: r.status,
    status_value: TASK_STATUS_TEXT[r.status] ?? String(r.status),
    notification_active: r.notificationActive,
    rule_id: r.ruleId,
    rule_name: r.ruleName,
    category: r.category,
    device_id: r.deviceId === 0 ? null : r.deviceId,
    device_name: r.deviceName,
    occurrences: r.occurrences,
    last_value: r.lastValue,
    first_ts: r.firstTs,
    last_ts: r.lastTs,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** What a task's messages name of its application */
export interface TaskApp {
  name: string;
  timezone: string;
  tenantId: number;
}

export interface TasksServiceDeps {
  store: TasksStore;
  /** runs `fn` in one transaction of the asynchronous store (a task change with its messages) */
  tx: <T>(fn: () => Promise<T>) => Promise<T>;
  outbox: Outbox;
  /** the task's application (apps domain), its device (devices domain) and its rule (rules domain) */
  appOf: (appId: number) => Promise<TaskApp | undefined>;
  deviceOf: (appId: number, deviceId: number) => Promise<{ name: string; serialNumber: string } | undefined>;
  ruleOf: (
    appId: number,
    ruleId: number,
  ) => Promise<{ id: number; name: string; key: string | null; action: string } | undefined>;
  bus: Pick<Bus, 'publish'>;
  now?: () => number;
  log?: Logger;
}

export function createTasksService({
  store,
  tx,
  outbox,
  appOf,
  deviceOf,
  ruleOf,
  bus,
  now = Date.now,
  log,
}: TasksServiceDeps) {
  /**
   * pushes of the engine's write transaction under way, published once it commits (the write queue runs one
   * transaction at a time and calls `flush` or `discard` at its end); `wake`: it queued messages to send
   */
  let pushes: Array<{ appId: number; push: TaskPush }> = [];
  let wake = false;

  async function rowOf(appId: number, id: number): Promise<TaskRow> {
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    return row;
  }

  function values(
    row: TaskRow,
    app: { name: string; timezone: string },
    serial: string,
    extra: {
      rule?: { name: string; key: string | null };
      sensor?: string;
      config?: string;
      param?: string;
      ts: number;
      event: string;
    },
  ): TemplateValues {
    return {
      'rule.name': extra.rule?.name ?? row.ruleName ?? '',
      'rule.key': extra.rule?.key ?? '',
      'app.name': app.name,
      'device.id': row.deviceId || '',
      'device.name': row.deviceName ?? '',
      'device.serial': serial,
      sensor: extra.sensor ?? '',
      config: extra.config ?? '',
      param: extra.param ?? '',
      value: row.lastValue ?? '',
      time: formatTime(extra.ts, app.timezone),
      event: extra.event,
      'task.id': row.id,
      'task.title': row.title,
      'task.status': TASK_STATUS_TEXT[row.status] ?? '',
      'task.occurrences': row.occurrences,
    };
  }

  const queue = (kind: TaskPush['kind'], row: TaskRow) =>
    pushes.push({ appId: row.appId, push: { kind, task: toTask(row) } });

  function publish(out: Array<{ appId: number; push: TaskPush }>) {
    for (const { appId, push } of out) {
      try {
        bus.publish(taskSubject(appId, push.task.id), push);
      } catch (err) {
        log?.error('task push not published', err);
      }
    }
  }

  /** Publishes what the engine's committed transaction changed (call after commit); `discard` after a rollback. */
  function flush() {
    const out = pushes;
    pushes = [];
    // on PostgreSQL the outbox's own wake may come before the commit: the worker is told again once it is in
    if (wake) outbox.queued();
    wake = false;
    publish(out);
  }
  const discard = () => {
    pushes = [];
    wake = false;
  };

  /** A task change with its messages in one transaction of the store; its push is published after the commit. */
  async function change(kind: TaskPush['kind'], fn: () => Promise<TaskRow>): Promise<TaskRow> {
    const row = await tx(fn);
    publish([{ appId: row.appId, push: { kind, task: toTask(row) } }]);
    return row;
  }

  /**
   * A rule fired (inside the engine's write transaction: every query awaited in it): the open task of the rule and
   * device gains an occurrence, or a new task is created and the `new` group's messages queued with it (the outbox's
   * own `enqueue`). Its push is published by `flush` after the commit.
   */
  async function fire(f: Firing): Promise<void> {
    const app = await appOf(f.appId);
    if (!app) return;
    const at = now();
    // a device's text value can be long: the task keeps its start (the outbox message has the whole template result)
    const value = f.value === undefined || f.value === null ? null : valueText(f.value).slice(0, LAST_VALUE_MAX);
    const open = await store.openOf(f.rule.id, f.deviceId);
    if (open) {
      const row = await store.occurrence(open.id, value, f.ts, at);
      await store.history(row.id, f.ts, 'occurrence', { value });
      queue('changed', row);
      return;
    }
    const device = f.deviceId ? await deviceOf(f.appId, f.deviceId) : undefined;
    const event = RULE_CATEGORIES[f.rule.category as keyof typeof RULE_CATEGORIES] ?? String(f.rule.category);
    let row = await store.insert({
      appId: f.appId,
      ruleId: f.rule.id,
      ruleName: f.rule.name,
      category: f.rule.category,
      deviceId: f.deviceId,
      deviceName: device?.name ?? null,
      title: f.rule.name,
      description: f.rule.description,
      status: 1,
      open: true,
      notificationActive: true,
      occurrences: 1,
      lastValue: value,
      firstTs: f.ts,
      lastTs: f.ts,
      createdAt: at,
      updatedAt: at,
    });
    await store.history(row.id, f.ts, 'created', { status: 1, value });
    const extra = {
      rule: f.rule,
      sensor: f.point?.sensor,
      config: f.point?.config,
      param: f.point?.param,
      ts: f.ts,
      event,
    };
    const action: ActionEntry = f.rule.action;
    const serial = device?.serialNumber ?? '';
    // title and description templates see the task as created (id, status)
    if (action.title || action.description) {
      const v = values(row, app, serial, extra);
      row = await store.retitle(
        row.id,
        action.title ? renderTemplate(action.title, v).slice(0, 64) || f.rule.name : row.title,
        action.description ? renderTemplate(action.description, v).slice(0, 128) : row.description,
      );
    }
    const messages = renderGroup(action.new, values(row, app, serial, extra), {
      tenantId: app.tenantId,
      appId: f.appId,
      taskId: row.id,
      ruleId: f.rule.id,
      event: 'new',
    });
    if (messages.length) {
      await outbox.enqueue(messages);
      wake = true;
    }
    queue('created', row);
  }

  async function list(appId: number, q: { search?: string; status?: number; page: number; size: number }) {
    const { rows, total } = await store.list(appId, q);
    return { tasks: rows.map(toTask), total, page: q.page, size: q.size };
  }

  async function get(appId: number, id: number): Promise<TaskDetail> {
    const row = await rowOf(appId, id);
    return { ...toTask(row), notifications: await outbox.listForTask(appId, id) };
  }

  /**
   * The task's history, newest first (at most TASK_TIMELINE_MAX): its own events, each notification as queued (or
   * what it became without an attempt: muted, not configured, refused address) and each attempt to send one.
   */
  async function timeline(appId: number, id: number): Promise<TaskEvent[]> {
    await rowOf(appId, id);
    const none = { status: null, previous: null, value: null, actor: null };
    const noMessage = { channel: null, recipient: null, outcome: null, detail: null };
    const own: TaskEvent[] = (await store.events(id, TASK_TIMELINE_MAX)).map((e) => ({
      ts: e.ts,
      kind: e.kind as TaskEvent['kind'],
      status: e.status,
      previous: e.previous,
      value: e.value,
      actor: e.actor,
      ...noMessage,
    }));
    const deliveries = await outbox.listForTask(appId, id);
    const byId = new Map(deliveries.map((d) => [d.id, d]));
    const messages: TaskEvent[] = deliveries.map((d) => {
      // a message never attempted shows what it became at once (or later, without an attempt: muted, not configured)
      const settled = d.attempts === 0 && d.status !== 'queued' && d.status !== 'sending';
      return {
        ts: d.created_at,
        kind: 'notification',
        ...none,
        channel: d.channel,
        recipient: d.recipient,
        outcome: settled ? (d.status as 'failed' | 'muted' | 'not_configured') : 'queued',
        detail: settled ? d.last_error : null,
      };
    });
    const attempts: TaskEvent[] = (await outbox.attemptsForTask(appId, id)).flatMap((a) => {
      const d = byId.get(a.outboxId);
      return d
        ? [
            {
              ts: a.ts,
              kind: 'notification' as const,
              ...none,
              channel: d.channel,
              recipient: d.recipient,
              outcome: a.outcome,
              detail: a.error,
            },
          ]
        : [];
    });
    return [...own, ...messages, ...attempts].sort((a, b) => b.ts - a.ts).slice(0, TASK_TIMELINE_MAX);
  }

  async function setNotification(appId: number, id: number, active: boolean, actor: string | null = null) {
    const before = await rowOf(appId, id);
    const row = await change('changed', async () => {
      const at = now();
      const row = await store.setNotification(id, active, at);
      if (!row) throw notFound();
      if (!active) await outbox.muteTask(id);
      if (before.notificationActive !== active)
        await store.history(id, at, active ? 'notification_on' : 'notification_off', { actor });
      return row;
    });
    return toTask(row);
  }

  async function remove(appId: number, id: number) {
    const row = await rowOf(appId, id);
    await change('removed', async () => {
      await outbox.removeTask(id);
      await store.remove(id);
      return row;
    });
    return {};
  }

  /**
   * Sets the status; a change runs the rule's `response` group (muted when the task's notifications are off) and is
   * kept in the task's history with who made it.
   */
  async function changeStatus(appId: number, id: number, status: number, actor: string | null = null): Promise<Task> {
    const before = await rowOf(appId, id);
    if (before.status === status) return toTask(before);
    let queued = false;
    const row = await change('changed', async () => {
      await store.history(id, now(), 'status', { status, previous: before.status, actor });
      const open = isOpenStatus(status);
      // reopening a task while the rule and device already have another open one would break the one-open rule:
      // the reopened task takes the status but not the open slot
      const slotTaken =
        open &&
        !before.open &&
        before.ruleId !== null &&
        (await store.openOf(before.ruleId, before.deviceId)) !== undefined;
      const row = await store.setStatus(id, status, open && !slotTaken, now());
      if (!row) throw notFound();
      const rule = row.ruleId !== null ? await ruleOf(appId, row.ruleId) : undefined;
      const app = await appOf(appId);
      if (rule && app) {
        const action = JSON.parse(rule.action) as ActionEntry;
        if (action.response?.length) {
          const serial = row.deviceId ? ((await deviceOf(appId, row.deviceId))?.serialNumber ?? '') : '';
          const v = values(row, app, serial, { rule, ts: now(), event: 'status' });
          await outbox.enqueue(
            renderGroup(action.response, v, {
              tenantId: app.tenantId,
              appId,
              taskId: id,
              ruleId: rule.id,
              event: 'response',
            }),
            { muted: !row.notificationActive },
          );
          queued = row.notificationActive;
        }
      }
      return row;
    });
    // on PostgreSQL the outbox's own wake may come before the commit: the worker is told again once it is in
    if (queued) outbox.queued();
    return toTask(row);
  }

  /** A removed rule's tasks stay, without their rule (and its open slot: a rule id is never reused). */
  const ruleRemoved = (ruleId: number) => store.detachRule(ruleId);

  return { fire, flush, discard, list, get, timeline, setNotification, remove, changeStatus, ruleRemoved };
}

export type TasksService = ReturnType<typeof createTasksService>;
