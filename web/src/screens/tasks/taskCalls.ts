// The task calls of the Tugas list and Manage Task (spec 03 section 7 "Tasks"), as values or a DeviceCallError with
// the catalogue's message (spec 03 section 8 "Task"); a refused status change (403) carries the spec's message.
import { contracts, T, type InputOf, type Task, type TaskDetail, type TaskEvent } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { callOrThrow } from '../../api/call.js';
import { isOk } from '../../api/request.js';
import { callFailure } from '../devices/deviceCalls.js';

export async function listTasks(
  input: InputOf<typeof contracts.tasks.list>,
): Promise<{ tasks: Task[]; total: number }> {
  const { tasks, total } = await callOrThrow(contracts.tasks.list, input, T.shell.loadFailed);
  return { tasks, total };
}

export async function getTask(id: number): Promise<TaskDetail> {
  return (await callOrThrow(contracts.tasks.get, { id }, T.shell.loadFailed)).data;
}

export async function setTaskNotification(id: number, active: boolean): Promise<Task> {
  return (await callOrThrow(contracts.tasks.notificationActivate, { id, active }, T.tasks.notificationFailed)).data;
}

export async function removeTask(id: number): Promise<void> {
  await callOrThrow(contracts.tasks.remove, { id }, T.tasks.removeFailed);
}

export async function changeTaskStatus(id: number, status: number): Promise<Task> {
  const r = await api.call(contracts.tasks.changeStatus, { id, status });
  if (!isOk(r)) {
    const err = callFailure(r, contracts.tasks.changeStatus, T.tasks.manageFailed);
    // spec 03 section 6: the refusal's own message
    if (r.code === 403) err.message = T.tasks.forbidden;
    throw err;
  }
  return r.body.data;
}

export async function getTaskTimeline(id: number): Promise<TaskEvent[]> {
  return (await callOrThrow(contracts.tasks.timeline, { id }, T.shell.loadFailed)).events;
}
