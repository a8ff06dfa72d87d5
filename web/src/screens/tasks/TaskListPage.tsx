// "Tugas" (spec 03 section 2.10) as an alarm console: the spec's Nama, Deskripsi, Status (coloured by status),
// Notifikasi switch (mute or enable after a confirmation), Aksi (Aksi → Manage Task, Hapus with a confirmation); search
// by title; the empty states; paging 5 (5, 10, 25). Beside them what an alarm console's user relies on: when the task
// was created and last occurred, a status filter, quick take (→ In progress) and solve (→ Solved) through the same
// status call and rights as Manage Task, and links to the device and the rule. New tasks and status changes arrive
// live on the `tasks` channel; being here marks them seen. On a phone each task is one stacked block, nothing clipped.
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Box,
  Button,
  Chip,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  TableCell,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { T, TASK_PAGE_SIZES, type Task, type TaskPush } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { ListHeading, PagedTable, usePagedRows, withSavedRow, type Paging } from '../../ui/PagedTable.js';
import { formatTs } from '../device-data/format.js';
import { changeTaskStatus, listTasks, removeTask, setTaskNotification } from './taskCalls.js';
import { STATUS_CHOICES, statusColor } from './taskStatus.js';
import { applyPushes, useLiveTasks } from './liveTasks.js';
import { unreadTasks } from './unread.js';
import { TaskRoute } from './routes.js';
import { QuickActions, TaskLinks } from './TaskParts.js';
import { QUICK_STATUS, type QuickAction } from './taskConsole.js';

const S = T.taskScreens;
/** below this width each task is a stacked block (the seven columns need a desktop's width) */
export const TASK_TABLE_MIN_WIDTH = 1100;

interface RowProps {
  task: Task;
  busy: boolean;
  onManage(t: Task): void;
  onMute(t: Task): void;
  onRemove(t: Task): void;
  onQuick(t: Task, a: QuickAction): void;
}

function StatusChip({ task }: { task: Task }) {
  return <Chip size="small" color={statusColor(task.status)} label={task.status_value} data-testid="task-status" />;
}

function NotificationSwitch({ task, onMute }: Pick<RowProps, 'task' | 'onMute'>) {
  return (
    <Switch
      checked={task.notification_active}
      onChange={() => onMute(task)}
      slotProps={{ input: { 'aria-label': S.notificationOf(task.title) } }}
    />
  );
}

function ManageAndRemove({ task, onManage, onRemove }: Pick<RowProps, 'task' | 'onManage' | 'onRemove'>) {
  return (
    <>
      <Button size="small" variant="outlined" onClick={() => onManage(task)} aria-label={S.manageOf(task.title)}>
        {S.manage}
      </Button>
      <Tooltip title={S.remove}>
        <IconButton aria-label={S.removeOf(task.title)} onClick={() => onRemove(task)}>
          <DeleteIcon color="error" />
        </IconButton>
      </Tooltip>
    </>
  );
}

/** Created and last occurrence, one under the other. */
function Times({ task }: { task: Task }) {
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <Typography variant="body2" data-testid="task-last-seen">
        {formatTs(task.last_ts)}
      </Typography>
      <Typography variant="caption" color="text.secondary" data-testid="task-occurrences">
        {task.occurrences}×
      </Typography>
    </Box>
  );
}

function TaskTableRow(p: RowProps) {
  const { task: t } = p;
  return (
    <TableRow hover data-testid="task-row">
      <TableCell sx={{ minWidth: 180 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{t.title}</Typography>
        <TaskLinks task={t} />
      </TableCell>
      <TableCell sx={{ maxWidth: 260, overflowWrap: 'anywhere' }}>{t.description}</TableCell>
      <TableCell>
        <StatusChip task={t} />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="task-created">
        {formatTs(t.created_at)}
      </TableCell>
      <TableCell>
        <Times task={t} />
      </TableCell>
      <TableCell>
        <NotificationSwitch task={t} onMute={p.onMute} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          <QuickActions task={t} disabled={p.busy} onAction={p.onQuick} />
          <ManageAndRemove task={t} onManage={p.onManage} onRemove={p.onRemove} />
        </Stack>
      </TableCell>
    </TableRow>
  );
}

/** A phone's row: one cell holding the task as a block (title and status, description, links, times, actions). */
function TaskBlockRow(p: RowProps) {
  const { task: t } = p;
  return (
    <TableRow data-testid="task-row">
      <TableCell sx={{ px: 1.5, py: 1.5 }}>
        <Stack spacing={0.75}>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'break-word', minWidth: 0 }}>{t.title}</Typography>
            <StatusChip task={t} />
          </Stack>
          {t.description && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }}>
              {t.description}
            </Typography>
          )}
          <TaskLinks task={t} direction="row" />
          <Typography variant="caption" color="text.secondary">
            {S.colCreated}: <span data-testid="task-created">{formatTs(t.created_at)}</span> · {S.colLastSeen}:{' '}
            <span data-testid="task-last-seen">{formatTs(t.last_ts)}</span> (
            <span data-testid="task-occurrences">{t.occurrences}×</span>)
          </Typography>
          <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Stack direction="row" sx={{ alignItems: 'center', mr: 'auto' }}>
              <NotificationSwitch task={t} onMute={p.onMute} />
              <Typography variant="caption">{S.colNotification}</Typography>
            </Stack>
            <QuickActions task={t} disabled={p.busy} onAction={p.onQuick} />
            <ManageAndRemove task={t} onManage={p.onManage} onRemove={p.onRemove} />
          </Stack>
        </Stack>
      </TableCell>
    </TableRow>
  );
}

export function TaskListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const wide = useMediaQuery(`(min-width:${TASK_TABLE_MIN_WIDTH}px)`, { noSsr: true });
  const { busy, act: confirmed } = useConfirmedAction();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [paging, setPaging] = useState<Paging>({ page: 0, size: 5 });
  const fetchPage = useCallback(
    () =>
      listTasks({ search: search || undefined, status, page: paging.page, size: paging.size }).then((r) => ({
        rows: r.tasks,
        total: r.total,
      })),
    [search, status, paging],
  );
  // stable: usePagedRows reloads when it changes
  const goTo = useCallback((page: number) => setPaging((p) => ({ ...p, page })), []);
  const { rows, setRows, total, loading, load } = usePagedRows(fetchPage, { ...paging, goTo });

  useEffect(() => unreadTasks.showList(), []);
  useLiveTasks(true, (pushes: TaskPush[]) => {
    const r = applyPushes(rows ?? [], pushes, status);
    setRows(r.rows);
    if (r.reload) void load();
  });

  const onMute = (t: Task) => {
    const next = !t.notification_active;
    void confirmed({
      ask: { title: S.confirmTitle, message: next ? S.confirmUnmute(t.title) : S.confirmMute(t.title) },
      run: () => setTaskNotification(t.id, next),
      success: T.tasks.notificationSuccess,
      failed: T.tasks.notificationFailed,
      done: (saved) => setRows(withSavedRow(saved)),
    });
  };

  const onRemove = (t: Task) =>
    void confirmed({
      ask: { title: S.confirmTitle, message: S.confirmRemove(t.title) },
      run: () => removeTask(t.id),
      success: T.tasks.removeSuccess,
      failed: T.tasks.removeFailed,
      done: load,
    });

  // the quick transitions: the status call of Manage Task (its rights: a role without task_manage gets the 403 text)
  const onQuick = (t: Task, a: QuickAction) =>
    void confirmed({
      ask: { title: S.confirmTitle, message: a === 'take' ? S.confirmTake(t.title) : S.confirmSolve(t.title) },
      run: () => changeTaskStatus(t.id, QUICK_STATUS[a]),
      success: T.tasks.manageSuccess,
      failed: T.tasks.manageFailed,
      // the list may be filtered by status: the page is read again rather than patched
      done: load,
    });

  const onManage = (t: Task) => navigate(area.to(TaskRoute.manage, { id: t.id }));
  const rowProps = { busy, onManage, onMute, onRemove, onQuick };
  const filtered = !!search || status !== undefined;

  return (
    <Box>
      <ListHeading title={T.tasks.title} subtitle={S.subtitle} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <SearchBox
          placeholder={S.search}
          buttonLabel={S.searchButton}
          onSearch={(s) => {
            setSearch(s);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
        />
        <TextField
          select
          size="small"
          label={S.statusFilter}
          value={status === undefined ? '' : String(status)}
          onChange={(e) => {
            setStatus(e.target.value === '' ? undefined : Number(e.target.value));
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          sx={{ minWidth: 180 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="task-status-filter"
        >
          <MenuItem value="">{S.statusAll}</MenuItem>
          {STATUS_CHOICES.map((c) => (
            <MenuItem key={c.code} value={String(c.code)}>
              {c.label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <PagedTable
        label={T.tasks.title}
        rowCount={rows?.length ?? null}
        loading={loading}
        busy={busy}
        empty={
          filtered
            ? { title: T.tasks.notFoundSearch, hint: S.notFoundHint }
            : { title: T.tasks.empty, hint: S.emptyHint }
        }
        pager={{ total, paging, sizes: TASK_PAGE_SIZES, onPaging: setPaging }}
        head={
          wide ? (
            <>
              <TableCell>{S.colName}</TableCell>
              <TableCell>{S.colDescription}</TableCell>
              <TableCell>{S.colStatus}</TableCell>
              <TableCell>{S.colCreated}</TableCell>
              <TableCell>{S.colLastSeen}</TableCell>
              <TableCell>{S.colNotification}</TableCell>
              <TableCell align="right">{S.colActions}</TableCell>
            </>
          ) : (
            <TableCell>{S.colName}</TableCell>
          )
        }
      >
        {rows?.map((t) =>
          wide ? (
            <TaskTableRow key={t.id} task={t} {...rowProps} />
          ) : (
            <TaskBlockRow key={t.id} task={t} {...rowProps} />
          ),
        )}
      </PagedTable>
    </Box>
  );
}
