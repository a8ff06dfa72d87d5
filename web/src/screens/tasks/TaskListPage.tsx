// "Tugas" (spec 03 section 2.10): Nama, Deskripsi, Status (coloured by status), the Notifikasi switch (mute or enable
// after a confirmation), Aksi (Aksi → Manage Task, Hapus with a confirmation); search by title; the empty states; paging
// 5 (5, 10, 25). New tasks and status changes arrive live on the `tasks` channel; being here marks them seen.
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Box, Button, Chip, IconButton, Switch, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { T, TASK_PAGE_SIZES, type Task, type TaskPush } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { ListHeading, PagedTable, usePagedRows, withSavedRow, type Paging } from '../../ui/PagedTable.js';
import { listTasks, removeTask, setTaskNotification } from './taskCalls.js';
import { statusColor } from './taskStatus.js';
import { applyPushes, useLiveTasks } from './liveTasks.js';
import { unreadTasks } from './unread.js';
import { TaskRoute } from './routes.js';

const S = T.taskScreens;

export function TaskListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { busy, act: confirmed } = useConfirmedAction();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState<Paging>({ page: 0, size: 5 });
  const fetchPage = useCallback(
    () =>
      listTasks({ search: search || undefined, page: paging.page, size: paging.size }).then((r) => ({
        rows: r.tasks,
        total: r.total,
      })),
    [search, paging],
  );
  // stable: usePagedRows reloads when it changes
  const goTo = useCallback((page: number) => setPaging((p) => ({ ...p, page })), []);
  const { rows, setRows, total, loading, load } = usePagedRows(fetchPage, { ...paging, goTo });

  useEffect(() => unreadTasks.showList(), []);
  useLiveTasks(true, (pushes: TaskPush[]) => {
    const r = applyPushes(rows ?? [], pushes);
    setRows(r.rows);
    if (r.reload) void load();
  });

  const toggleNotification = (t: Task) => {
    const next = !t.notification_active;
    return confirmed({
      ask: { title: S.confirmTitle, message: next ? S.confirmUnmute(t.title) : S.confirmMute(t.title) },
      run: () => setTaskNotification(t.id, next),
      success: T.tasks.notificationSuccess,
      failed: T.tasks.notificationFailed,
      done: (saved) => setRows(withSavedRow(saved)),
    });
  };

  const remove = (t: Task) =>
    confirmed({
      ask: { title: S.confirmTitle, message: S.confirmRemove(t.title) },
      run: () => removeTask(t.id),
      success: T.tasks.removeSuccess,
      failed: T.tasks.removeFailed,
      done: load,
    });

  return (
    <Box>
      <ListHeading title={T.tasks.title} subtitle={S.subtitle} />
      <Box sx={{ mb: 2 }}>
        <SearchBox
          placeholder={S.search}
          buttonLabel={S.searchButton}
          onSearch={(s) => {
            setSearch(s);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
        />
      </Box>
      <PagedTable
        label={T.tasks.title}
        rowCount={rows?.length ?? null}
        loading={loading}
        busy={busy}
        empty={
          search ? { title: T.tasks.notFoundSearch, hint: S.notFoundHint } : { title: T.tasks.empty, hint: S.emptyHint }
        }
        pager={{ total, paging, sizes: TASK_PAGE_SIZES, onPaging: setPaging }}
        head={
          <>
            <TableCell>{S.colName}</TableCell>
            <TableCell>{S.colDescription}</TableCell>
            <TableCell>{S.colStatus}</TableCell>
            <TableCell>{S.colNotification}</TableCell>
            <TableCell align="right">{S.colActions}</TableCell>
          </>
        }
      >
        {rows?.map((t) => (
          <TableRow key={t.id} hover data-testid="task-row">
            <TableCell>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{t.title}</Typography>
              <Typography variant="caption" color="text.secondary">
                {S.occurrenceLine(t.occurrences, t.device_name ?? '-')}
              </Typography>
            </TableCell>
            <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{t.description}</TableCell>
            <TableCell>
              <Chip size="small" color={statusColor(t.status)} label={t.status_value} data-testid="task-status" />
            </TableCell>
            <TableCell>
              <Switch
                checked={t.notification_active}
                onChange={() => void toggleNotification(t)}
                slotProps={{ input: { 'aria-label': S.notificationOf(t.title) } }}
              />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Button
                size="small"
                variant="outlined"
                onClick={() => navigate(area.to(TaskRoute.manage, { id: t.id }))}
                aria-label={S.manageOf(t.title)}
              >
                {S.manage}
              </Button>
              <Tooltip title={S.remove}>
                <IconButton aria-label={S.removeOf(t.title)} onClick={() => void remove(t)}>
                  <DeleteIcon color="error" />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        ))}
      </PagedTable>
    </Box>
  );
}
