// The unread count on the Tugas menu entry: listens to the live `tasks` channel while the menu shows the entry, and
// counts tasks created since the task list was last on screen.
import { Chip } from '@mui/material';
import { T } from '@sentra/contracts';
import { useLiveTasks } from './liveTasks.js';
import { unreadTasks, useUnreadTasks } from './unread.js';

export function TaskMenuBadge() {
  const count = useUnreadTasks();
  useLiveTasks(true, (pushes) => unreadTasks.created(pushes.filter((p) => p.kind === 'created').length));
  if (count === 0) return null;
  return (
    <Chip
      size="small"
      color="error"
      label={count > 99 ? '99+' : count}
      aria-label={T.taskScreens.unread(count)}
      data-testid="task-unread"
      sx={{ height: 20, fontWeight: 700 }}
    />
  );
}
