// The alarm-console parts of Tugas as plain functions: which quick status changes a task offers, and how a timeline
// entry reads (the timeline comes from task/timeline, newest first).
import { channelLabel, T, TaskStatus, type TaskEvent } from '@sentra/contracts';
import type { ChipColor } from './taskStatus.js';

const S = T.taskScreens;

export type QuickAction = 'take' | 'solve';
/** the status each quick action sets */
export const QUICK_STATUS: Record<QuickAction, number> = { take: TaskStatus.IN_PROGRESS, solve: TaskStatus.SOLVED };

/** Take (→ In progress) a New or Pending task; solve (→ Solved) any task still open. */
export function quickActions(status: number): QuickAction[] {
  const out: QuickAction[] = [];
  if (status === TaskStatus.NEW || status === TaskStatus.PENDING) out.push('take');
  if (status === TaskStatus.NEW || status === TaskStatus.IN_PROGRESS || status === TaskStatus.PENDING)
    out.push('solve');
  return out;
}

const statusText = (s: number | null) => (s === null ? '-' : (T.tasks.status[s] ?? String(s)));

const OUTCOME_COLOR: Record<string, ChipColor> = {
  queued: 'default',
  sent: 'success',
  retry: 'warning',
  failed: 'error',
  muted: 'warning',
  not_configured: 'default',
};

/** One timeline entry as the console shows it: its sentence, a colour for its marker, and a reason when it failed. */
export function timelineLine(e: TaskEvent): { text: string; color: ChipColor; detail: string | null } {
  switch (e.kind) {
    case 'created':
      return { text: S.timelineCreated(e.value), color: 'error', detail: null };
    case 'occurrence':
      return { text: S.timelineOccurrence(e.value), color: 'error', detail: null };
    case 'status':
      return {
        text: S.timelineStatus(statusText(e.previous), statusText(e.status), e.actor),
        color: e.status === TaskStatus.SOLVED ? 'success' : 'info',
        detail: null,
      };
    case 'notification_on':
      return { text: S.timelineUnmuted(e.actor), color: 'info', detail: null };
    case 'notification_off':
      return { text: S.timelineMuted(e.actor), color: 'warning', detail: null };
    case 'notification': {
      const outcome = e.outcome ?? 'queued';
      const channel = channelLabel(e.channel);
      return {
        text: S.timelineNotification(channel, e.recipient ?? '', S.outcome[outcome] ?? outcome),
        color: OUTCOME_COLOR[outcome] ?? 'default',
        detail: e.detail,
      };
    }
  }
}
