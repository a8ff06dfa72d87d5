// The rule engine's writes (rule states, a firing's task and messages) without the event loop waiting for the
// database's write lock. The telemetry writer thread holds that lock for each batch it commits; a write on the event
// loop that meets it waits in SQLite's busy handler, and the whole gateway (MQTT acknowledgements, HTTP, socket.io)
// waits with it: up to ~100 ms per firing under a 66,000 points/s ingest (docs/decisions/rules.md "Writes").
//
// So a write is tried at once without waiting (busy timeout 0 for that one transaction); if the lock is taken it is
// queued, in order, and the queue is retried every `retryMs` as one transaction (group commit). The engine's state in
// memory has already moved on, so evaluation never waits; only the database rows (and the task push, sent after the
// commit) come a few ms later. A queue that could not be written for `blockAfterMs`, or that grows past `maxQueued`,
// is written waiting for the lock as before, so nothing is held for long. `flush()` writes what is queued (close).
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type { Logger } from '../../platform/log.js';
import type { NewOutboxRow } from '../notifications/outbox.js';
import type { TaskRow } from '../tasks/tasks.store.js';
import type { FiringWrites } from '../tasks/tasks.service.js';

export type WriteJob = () => void;

export interface WriteQueueOptions {
  sqlite: Database.Database;
  /** runs the jobs as one transaction (immediate: it takes the write lock at its start) */
  transact: (fn: () => void) => void;
  log?: Logger;
  retryMs?: number;
  blockAfterMs?: number;
  maxQueued?: number;
}

export const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code ?? (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

export function createWriteQueue({
  sqlite,
  transact,
  log,
  retryMs = 1,
  blockAfterMs = 250,
  maxQueued = 10_000,
}: WriteQueueOptions) {
  const busyTimeout = Number(sqlite.pragma('busy_timeout', { simple: true })) || 0;
  let queue: Array<{ job: WriteJob; at: number }> = [];
  let timer: NodeJS.Timeout | undefined;
  const m = { writes: 0, queued: 0, retries: 0, blocking: 0, failed: 0, max_delay_ms: 0, max_queue: 0 };

  /** one transaction of `jobs`: done, busy (nothing written), or failed (rolled back for another reason) */
  function attempt(jobs: readonly WriteJob[], wait: boolean): 'done' | 'busy' | 'failed' {
    // a transaction of the asynchronous store is open on this connection (between two of its awaits): not joined
    if (!wait && sqlite.inTransaction) return 'busy';
    if (!wait) sqlite.pragma('busy_timeout = 0');
    try {
      transact(() => {
        for (const j of jobs) j();
      });
      return 'done';
    } catch (err) {
      if (!wait && isBusy(err)) return 'busy';
      if (jobs.length === 1) {
        m.failed++;
        log?.error('rule engine: a state or task write failed', err);
      }
      return 'failed';
    } finally {
      if (!wait) sqlite.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  /** writes the queue in order; answers false when the lock was taken (the rest stays queued) */
  function drain(wait: boolean): boolean {
    while (queue.length) {
      const batch = queue;
      queue = [];
      const r = attempt(
        batch.map((e) => e.job),
        wait,
      );
      if (r === 'busy') {
        queue = batch.concat(queue);
        return false;
      }
      if (r === 'failed' && batch.length > 1) {
        // one of them cannot be written: each alone, so the others still are (the bad one is logged and dropped)
        for (let i = 0; i < batch.length; i++) {
          if (attempt([batch[i]!.job], wait) === 'busy') {
            queue = batch.slice(i).concat(queue);
            return false;
          }
        }
      }
      const t = performance.now();
      for (const e of batch) if (t - e.at > m.max_delay_ms) m.max_delay_ms = Math.round((t - e.at) * 10) / 10;
      m.writes += batch.length;
    }
    return true;
  }

  function retry() {
    timer = undefined;
    if (!queue.length) return;
    m.retries++;
    const waitNow = performance.now() - queue[0]!.at >= blockAfterMs;
    if (waitNow) m.blocking++;
    if (!drain(waitNow)) schedule();
  }

  function schedule() {
    timer ??= setTimeout(retry, retryMs);
  }

  return {
    /** writes `job` now if the lock is free, else after the jobs queued before it */
    run(job: WriteJob): void {
      if (queue.length === 0) {
        const r = attempt([job], false);
        if (r !== 'busy') {
          if (r === 'done') m.writes++;
          return;
        }
      }
      queue.push({ job, at: performance.now() });
      m.queued++;
      if (queue.length > m.max_queue) m.max_queue = queue.length;
      if (queue.length > maxQueued) drain(true);
      else schedule();
    },
    /** writes everything queued, waiting for the lock (at close; tests) */
    flush(): void {
      clearTimeout(timer);
      timer = undefined;
      drain(true);
    },
    metrics: () => ({ ...m, pending: queue.length }),
  };
}

export type WriteQueue = ReturnType<typeof createWriteQueue>;

// ---- a firing's writes ----------------------------------------------------------------------------------------------
// The engine's firing writes its task, the task's history and its messages in the transaction of its state change,
// synchronously on the gateway's connection, as the state itself (state-store.ts): statements of their own here, not
// the tasks' and notifications' asynchronous stores, until the engine's per-message path moves with the telemetry
// store. The rows are the tables' own (tasks.table.ts, notifications.table.ts); what they hold is decided by the tasks
// service (`fire`) and the outbox (`outboxRows`).

const TASK_COLUMNS = `id, app_id AS appId, rule_id AS ruleId, rule_name AS ruleName, category, device_id AS deviceId,
  device_name AS deviceName, title, description, status, open, notification_active AS notificationActive, occurrences,
  last_value AS lastValue, first_ts AS firstTs, last_ts AS lastTs, created_at AS createdAt, updated_at AS updatedAt`;

type StoredTask = Omit<TaskRow, 'open' | 'notificationActive'> & { open: number; notificationActive: number };
const taskOf = (r: StoredTask): TaskRow => ({
  ...r,
  open: r.open === 1,
  notificationActive: r.notificationActive === 1,
});

export function createFiringWrites(sqlite: Database.Database): FiringWrites {
  const app = sqlite.prepare<[number], { name: string; timezone: string; tenantId: number }>(
    'SELECT name, timezone, tenant_id AS tenantId FROM applications WHERE id = ?',
  );
  const device = sqlite.prepare<[number], { name: string; serial: string }>(
    'SELECT name, serial_number AS serial FROM devices WHERE id = ?',
  );
  const openTask = sqlite.prepare<[number, number], StoredTask>(
    `SELECT ${TASK_COLUMNS} FROM tasks WHERE rule_id = ? AND device_id = ? AND open = 1`,
  );
  // the hot path of a rule that keeps firing while its task is open
  const occurrence = sqlite.prepare<[string | null, number, number, number], StoredTask>(
    `UPDATE tasks SET occurrences = occurrences + 1, last_value = ?, last_ts = ?, updated_at = ? WHERE id = ? RETURNING ${TASK_COLUMNS}`,
  );
  const insertTask = sqlite.prepare<Record<string, unknown>, StoredTask>(
    `INSERT INTO tasks (app_id, rule_id, rule_name, category, device_id, device_name, title, description, status, open,
       notification_active, occurrences, last_value, first_ts, last_ts, created_at, updated_at)
     VALUES (@appId, @ruleId, @ruleName, @category, @deviceId, @deviceName, @title, @description, @status, @open,
       @notificationActive, @occurrences, @lastValue, @firstTs, @lastTs, @createdAt, @updatedAt) RETURNING ${TASK_COLUMNS}`,
  );
  const retitle = sqlite.prepare<[string, string, number], StoredTask>(
    `UPDATE tasks SET title = ?, description = ? WHERE id = ? RETURNING ${TASK_COLUMNS}`,
  );
  const history = sqlite.prepare(
    `INSERT INTO task_events (task_id, ts, kind, status, previous, value, actor)
     VALUES (@taskId, @ts, @kind, @status, @previous, @value, @actor)`,
  );
  const message = sqlite.prepare(
    `INSERT INTO notification_outbox (tenant_id, app_id, task_id, rule_id, event, channel, recipient, subject, body,
       status, attempts, next_attempt_at, last_error, created_at, sent_at)
     VALUES (@tenantId, @appId, @taskId, @ruleId, @event, @channel, @recipient, @subject, @body, @status, @attempts,
       @nextAttemptAt, @lastError, @createdAt, @sentAt)`,
  );
  return {
    transact: (fn) => sqlite.transaction(fn).immediate(),
    app: (appId) => app.get(appId),
    device: (deviceId) => device.get(deviceId),
    openTask(ruleId, deviceId) {
      const r = openTask.get(ruleId, deviceId);
      return r && taskOf(r);
    },
    occurrence: (id, lastValue, lastTs, at) => taskOf(occurrence.get(lastValue, lastTs, at, id)!),
    insertTask: (values) =>
      taskOf(
        insertTask.get({
          ...values,
          open: values.open ? 1 : 0,
          notificationActive: values.notificationActive ? 1 : 0,
        })!,
      ),
    retitle: (id, title, description) => taskOf(retitle.get(title, description, id)!),
    history(taskId, ts, kind, more = {}) {
      history.run({
        taskId,
        ts,
        kind,
        status: more.status ?? null,
        previous: more.previous ?? null,
        value: more.value ?? null,
        actor: more.actor ?? null,
      });
    },
    enqueue(rows: NewOutboxRow[]) {
      for (const r of rows)
        message.run({ taskId: null, ruleId: null, event: null, subject: null, lastError: null, sentAt: null, ...r });
    },
  };
}
