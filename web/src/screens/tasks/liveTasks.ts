// The live task channel (contracts TASK_LIVE): pushes of created, changed and removed tasks, merged into a list page.
import { TASK_LIVE, type Task, type TaskPush } from '@sentra/contracts';
import { useLiveEvent } from '../../live/useLive.js';

export function useLiveTasks(enabled: boolean, apply: (pushes: TaskPush[]) => void): void {
  useLiveEvent<TaskPush>(TASK_LIVE.channel, enabled ? {} : null, TASK_LIVE.event, apply);
}

/**
 * A batch of pushes applied to the page shown: changed tasks in place, removed ones out; `reload` when the page's
 * membership may have moved (a new task, a change to a task not on this page: the list is newest change first, or a
 * task that left the status the list is filtered by).
 */
export function applyPushes(
  rows: readonly Task[],
  pushes: readonly TaskPush[],
  status?: number,
): { rows: Task[]; reload: boolean } {
  let out = [...rows];
  let reload = false;
  for (const p of pushes) {
    const i = out.findIndex((t) => t.id === p.task.id);
    if (p.kind === 'removed') {
      if (i >= 0) out = out.filter((t) => t.id !== p.task.id);
      reload ||= i >= 0;
    } else if (p.kind === 'changed' && i >= 0 && (status === undefined || p.task.status === status)) out[i] = p.task;
    else reload = true;
  }
  return { rows: out, reload };
}
