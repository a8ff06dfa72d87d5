// Tasks ("Tugas", spec 03 sections 2.10, 6, 7, 8; docs/conventions.md "Codes of the domain"): the list, mute, remove,
// detail with its notifications, status change (403 without `task_manage`), and the live channel that pushes new and
// changed tasks.
import { z } from 'zod';
import type { SysNav } from '../codes.js';
import { id } from '../models/fields.js';
import { Task, TaskDetail, TaskEvent, TASK_MANAGE } from '../models/task.js';
import { T } from '../text/id.js';
import { defineCall } from './define.js';

export const TASK_ACCESS: { navs: readonly SysNav[] } = { navs: ['_task_list_'] };

export const tasksContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/task/list',
    summary: 'Tasks of the application, newest change first, searched by title, one page at a time (default 5)',
    audience: 'member',
    access: TASK_ACCESS,
    input: z.object({
      search: z.string().trim().max(64).optional(),
      /** only tasks with this status (1..5) */
      status: z.coerce.number().int().min(1).max(5).optional(),
      page: z.coerce.number().int().min(0).max(100_000).default(0),
      size: z.coerce.number().int().min(1).max(100).default(5),
    }),
    output: z.object({ tasks: z.array(Task), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
  }),
  get: defineCall({
    method: 'GET',
    path: '/service/web/task/get/id/{id}',
    summary: 'One task with data.status, data.status_value and its notifications (deliveries)',
    audience: 'member',
    access: TASK_ACCESS,
    input: z.object({ id }),
    output: z.object({ data: TaskDetail }),
  }),
  timeline: defineCall({
    method: 'GET',
    path: '/service/web/task/timeline/{id}',
    summary:
      "A task's history, newest first (at most TASK_TIMELINE_MAX): creation, occurrences, status changes, notifications muted or enabled, and every notification attempt",
    audience: 'member',
    access: TASK_ACCESS,
    input: z.object({ id }),
    output: z.object({ events: z.array(TaskEvent) }),
  }),
  notificationActivate: defineCall({
    method: 'POST',
    path: '/service/web/task/notification/activate',
    summary: "Mutes (false) or enables (true) a task's notifications; muting also mutes its queued ones",
    audience: 'member',
    access: TASK_ACCESS,
    input: z.object({ id, active: z.boolean({ error: T.common.required }) }),
    output: z.object({ data: Task }),
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/task/remove',
    summary: 'Removes a task and its notifications',
    audience: 'member',
    access: TASK_ACCESS,
    input: z.object({ id }),
    output: z.object({}),
  }),
  changeStatus: defineCall({
    method: 'POST',
    path: '/service/web/task/change/status',
    summary: "Sets a task's status (1 New .. 5 Closed) and runs its rule's response group; needs task_manage",
    audience: 'member',
    access: { navs: ['_task_list_'], permission: TASK_MANAGE, deniedMessage: T.tasks.forbidden },
    input: z.object({ id, status: z.coerce.number({ error: T.common.required }).int().min(1).max(5) }),
    output: z.object({ data: Task }),
  }),
} as const;

/**
 * The socket.io channel of the task list: `subscribe` with `{ channel: TASK_LIVE.channel, params: {} }` (needs
 * `_task_list_`); the server emits `TASK_LIVE.event` with a TaskPush for every created, changed or removed task.
 */
export const TASK_LIVE = {
  channel: 'tasks',
  event: 'task',
} as const;

export interface TaskPush {
  kind: 'created' | 'changed' | 'removed';
  task: Task;
}
