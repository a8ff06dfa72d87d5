// Tasks: created or updated by a rule's firing (one open task per rule and device), listed, muted, removed, and moved
// through the five statuses (the rule's `response` group runs on each change). Every change is published on the bus
// as `task.<app>.<task>` (a TaskPush) after its commit; rules.module.ts pushes it to the console.
import { and, count, desc, eq, sql } from 'drizzle-orm';
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
import type { Db } from '../../db.js';
import type { Bus } from '../../platform/bus/types.js';
import { notFound } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/log.js';
import { applications } from '../apps/apps.table.js';
import { devices } from '../devices/devices.table.js';
import type { Outbox } from '../notifications/outbox.js';
import { rules } from '../rules/rules.table.js';
import type { Firing } from '../rules/engine.js';
import { taskEvents, tasks } from './tasks.table.js';
import { formatTime, renderGroup, valueText, type TemplateValues } from './templates.js';

type TaskRow = typeof tasks.$inferSelect;

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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface TasksServiceDeps {
  db: Db;
  outbox: Outbox;
  bus: Pick<Bus, 'publish'>;
  now?: () => number;
  log?: Logger;
}

export function createTasksService({ db, outbox, bus, now = Date.now, log }: TasksServiceDeps) {
  /** pushes of the transaction under way, published once it commits */
  let pushes: Array<{ appId: number; push: TaskPush }> = [];

  const appQ = db
    .select({ name: applications.name, timezone: applications.timezone, tenantId: applications.tenantId })
    .from(applications)
    .where(eq(applications.id, sql.placeholder('id')))
    .prepare();
  const deviceQ = db
    .select({ name: devices.name, serial: devices.serialNumber })
    .from(devices)
    .where(eq(devices.id, sql.placeholder('id')))
    .prepare();
  const openQ = db
    .select()
    .from(tasks)
    .where(
      and(
        eq(tasks.ruleId, sql.placeholder('ruleId')),
        eq(tasks.deviceId, sql.placeholder('deviceId')),
        eq(tasks.open, true),
      ),
    )
    .prepare();
  // the hot path of a rule that keeps firing while its task is open: prepared once, not built and prepared per firing
  const occurrenceQ = db
    .update(tasks)
    .set({
      occurrences: sql`${tasks.occurrences} + 1`,
      lastValue: sql`${sql.placeholder('lastValue')}`,
      lastTs: sql`${sql.placeholder('lastTs')}`,
      updatedAt: sql`${sql.placeholder('at')}`,
    })
    .where(eq(tasks.id, sql.placeholder('id')))
    .returning()
    .prepare();

  // a task's history (its timeline): one row per change, in the change's own transaction
  const eventQ = db
    .insert(taskEvents)
    .values({
      taskId: sql.placeholder('taskId'),
      ts: sql.placeholder('ts'),
      kind: sql.placeholder('kind'),
      status: sql.placeholder('status'),
      previous: sql.placeholder('previous'),
      value: sql.placeholder('value'),
      actor: sql.placeholder('actor'),
    })
    .prepare();
  const history = (
    taskId: number,
    ts: number,
    kind: 'created' | 'occurrence' | 'status' | 'notification_on' | 'notification_off',
    more: { status?: number; previous?: number; value?: string | null; actor?: string | null } = {},
  ) =>
    eventQ.run({
      taskId,
      ts,
      kind,
      status: more.status ?? null,
      previous: more.previous ?? null,
      value: more.value ?? null,
      actor: more.actor ?? null,
    });

  function rowOf(appId: number, id: number): TaskRow {
    const row = db
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, id), eq(tasks.appId, appId)))
      .get();
    if (!row) throw notFound();
    return row;
  }

  function values(
    row: TaskRow,
    app: { name: string; timezone: string },
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
      'device.serial': row.deviceId ? (deviceQ.get({ id: row.deviceId })?.serial ?? '') : '',
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

  /** Publishes what the committed transaction changed (call after commit); `discard` after a rollback. */
  function flush() {
    const out = pushes;
    pushes = [];
    for (const { appId, push } of out) {
      try {
        bus.publish(taskSubject(appId, push.task.id), push);
      } catch (err) {
        log?.error('task push not published', err);
      }
    }
  }
  const discard = () => void (pushes = []);

  /** Runs `fn` in one immediate transaction, then publishes its task changes. */
  function transact<T>(fn: () => T): T {
    try {
      const out = db.transaction(() => fn(), { behavior: 'immediate' });
      flush();
      return out;
    } catch (err) {
      discard();
      throw err;
    }
  }

  /**
   * A rule fired (inside the engine's transaction): the open task of the rule and device gains an occurrence, or a new
   * task is created and the `new` group's messages queued with it.
   */
  function fire(f: Firing) {
    const app = appQ.get({ id: f.appId });
    if (!app) return;
    const at = now();
    // a device's text value can be long: the task keeps its start (the outbox message has the whole template result)
    const value = f.value === undefined || f.value === null ? null : valueText(f.value).slice(0, LAST_VALUE_MAX);
    const open = openQ.get({ ruleId: f.rule.id, deviceId: f.deviceId });
    if (open) {
      const row = occurrenceQ.get({ id: open.id, lastValue: value, lastTs: f.ts, at })!;
      history(row.id, f.ts, 'occurrence', { value });
      queue('changed', row);
      return;
    }
    const device = f.deviceId ? deviceQ.get({ id: f.deviceId }) : undefined;
    const event = RULE_CATEGORIES[f.rule.category as keyof typeof RULE_CATEGORIES] ?? String(f.rule.category);
    const base = {
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
    };
    let row = db.insert(tasks).values(base).returning().get();
    history(row.id, f.ts, 'created', { status: 1, value });
    const extra = {
      rule: f.rule,
      sensor: f.point?.sensor,
      config: f.point?.config,
      param: f.point?.param,
      ts: f.ts,
      event,
    };
    const action: ActionEntry = f.rule.action;
    // title and description templates see the task as created (id, status)
    if (action.title || action.description) {
      const v = values(row, app, extra);
      row = db
        .update(tasks)
        .set({
          title: action.title ? renderTemplate(action.title, v).slice(0, 64) || f.rule.name : row.title,
          description: action.description ? renderTemplate(action.description, v).slice(0, 128) : row.description,
        })
        .where(eq(tasks.id, row.id))
        .returning()
        .get();
    }
    outbox.enqueue(
      renderGroup(action.new, values(row, app, extra), {
        tenantId: app.tenantId,
        appId: f.appId,
        taskId: row.id,
        ruleId: f.rule.id,
        event: 'new',
      }),
    );
    queue('created', row);
  }

  function list(appId: number, q: { search?: string; status?: number; page: number; size: number }) {
    // LIKE with ESCAPE (drizzle's like() has none): the search text's own % and _ match themselves
    const whereEsc = and(
      eq(tasks.appId, appId),
      q.search ? sql`${tasks.title} LIKE ${`%${escapeLike(q.search)}%`} ESCAPE '\\'` : undefined,
      q.status ? eq(tasks.status, q.status) : undefined,
    );
    const total = db.select({ n: count() }).from(tasks).where(whereEsc).get()?.n ?? 0;
    const rows = db
      .select()
      .from(tasks)
      .where(whereEsc)
      .orderBy(desc(tasks.updatedAt), desc(tasks.id))
      .limit(q.size)
      .offset(q.page * q.size)
      .all();
    return { tasks: rows.map(toTask), total, page: q.page, size: q.size };
  }

  function get(appId: number, id: number): TaskDetail {
    const row = rowOf(appId, id);
    return { ...toTask(row), notifications: outbox.listForTask(appId, id) };
  }

  /**
   * The task's history, newest first (at most TASK_TIMELINE_MAX): its own events, each notification as queued (or
   * what it became without an attempt: muted, not configured, refused address) and each attempt to send one.
   */
  function timeline(appId: number, id: number): TaskEvent[] {
    rowOf(appId, id);
    const none = { status: null, previous: null, value: null, actor: null };
    const noMessage = { channel: null, recipient: null, outcome: null, detail: null };
    const own: TaskEvent[] = db
      .select()
      .from(taskEvents)
      .where(eq(taskEvents.taskId, id))
      .orderBy(desc(taskEvents.ts), desc(taskEvents.id))
      .limit(TASK_TIMELINE_MAX)
      .all()
      .map((e) => ({
        ts: e.ts,
        kind: e.kind as TaskEvent['kind'],
        status: e.status,
        previous: e.previous,
        value: e.value,
        actor: e.actor,
        ...noMessage,
      }));
    const deliveries = outbox.listForTask(appId, id);
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
    const attempts: TaskEvent[] = outbox.attemptsForTask(appId, id).flatMap((a) => {
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

  function setNotification(appId: number, id: number, active: boolean, actor: string | null = null): Task {
    const before = rowOf(appId, id);
    return toTask(
      transact(() => {
        const at = now();
        const row = db
          .update(tasks)
          .set({ notificationActive: active, updatedAt: at })
          .where(eq(tasks.id, id))
          .returning()
          .get();
        if (!active) outbox.muteTask(id);
        if (before.notificationActive !== active)
          history(id, at, active ? 'notification_on' : 'notification_off', { actor });
        queue('changed', row);
        return row;
      }),
    );
  }

  function remove(appId: number, id: number) {
    const row = rowOf(appId, id);
    transact(() => {
      outbox.removeTask(id);
      db.delete(tasks).where(eq(tasks.id, id)).run();
      queue('removed', row);
    });
    return {};
  }

  /**
   * Sets the status; a change runs the rule's `response` group (muted when the task's notifications are off) and is
   * kept in the task's history with who made it.
   */
  function changeStatus(appId: number, id: number, status: number, actor: string | null = null): Task {
    const before = rowOf(appId, id);
    if (before.status === status) return toTask(before);
    return toTask(
      transact(() => {
        history(id, now(), 'status', { status, previous: before.status, actor });
        const open = isOpenStatus(status);
        // reopening a task while the rule and device already have another open one would break the one-open rule:
        // the reopened task takes the status but not the open slot
        const slotTaken =
          open &&
          !before.open &&
          before.ruleId !== null &&
          openQ.get({ ruleId: before.ruleId, deviceId: before.deviceId }) !== undefined;
        const row = db
          .update(tasks)
          .set({ status, open: open && !slotTaken, updatedAt: now() })
          .where(eq(tasks.id, id))
          .returning()
          .get();
        const rule = row.ruleId !== null ? db.select().from(rules).where(eq(rules.id, row.ruleId)).get() : undefined;
        const app = appQ.get({ id: appId });
        if (rule && app) {
          const action = JSON.parse(rule.action) as ActionEntry;
          if (action.response?.length) {
            const v = values(row, app, { rule, ts: now(), event: 'status' });
            outbox.enqueue(
              renderGroup(action.response, v, {
                tenantId: app.tenantId,
                appId,
                taskId: id,
                ruleId: rule.id,
                event: 'response',
              }),
              { muted: !row.notificationActive },
            );
          }
        }
        queue('changed', row);
        return row;
      }),
    );
  }

  /** A removed rule's tasks stay, without their rule (and its open slot: a rule id is never reused). */
  function ruleRemoved(ruleId: number) {
    db.update(tasks).set({ ruleId: null }).where(eq(tasks.ruleId, ruleId)).run();
  }

  return { fire, transact, flush, discard, list, get, timeline, setNotification, remove, changeStatus, ruleRemoved };
}

export type TasksService = ReturnType<typeof createTasksService>;
