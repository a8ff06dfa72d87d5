// The unread count of the Tugas menu entry: tasks created (pushed on the live `tasks` channel) since the task list was
// last on screen. Kept per browser tab in memory; the list marks everything seen while it is shown.
import { useSyncExternalStore } from 'react';

let count = 0;
let listShown = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const unreadTasks = {
  /** a task was created: unread unless the list is on screen */
  created(n = 1) {
    if (listShown > 0 || n <= 0) return;
    count += n;
    emit();
  },
  /** the list is shown (until the returned function is called): everything is seen */
  showList(): () => void {
    listShown++;
    if (count !== 0) {
      count = 0;
      emit();
    }
    return () => {
      listShown--;
    };
  },
  count: () => count,
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

export const useUnreadTasks = () => useSyncExternalStore(unreadTasks.subscribe, unreadTasks.count, unreadTasks.count);
