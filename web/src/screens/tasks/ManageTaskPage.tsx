// Manage Task (spec 03 section 2.10, route action/{id}): one status choice of New, In progress, Pending, Solved,
// Closed; saving unchanged warns "Tidak ada perubahan" and makes no call; a 403 shows the spec's message; "Kelola tugas
// berhasil/gagal". Beside it, the task's occurrences (created, first and last time, its device and rule as links), its
// notifications with their delivery status (and, for a channel the gateway cannot send through, what configures it),
// and its timeline. A change to the task arriving on the live channel reloads them.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  Box,
  Card,
  CardContent,
  Chip,
  FormControl,
  FormControlLabel,
  FormLabel,
  Grid,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { T, type TaskDelivery, type TaskDetail, type TaskEvent, type TaskPush } from '@sentra/contracts';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { TableEmptyRow } from '../../ui/PagedTable.js';
import { formatTs } from '../device-data/format.js';
import { changeTaskStatus, getTask, getTaskTimeline } from './taskCalls.js';
import { TaskLinks } from './TaskParts.js';
import { TaskTimeline } from './TaskTimeline.js';
import { useLiveTasks } from './liveTasks.js';
import { UnconfiguredChannels } from '../notifications/ChannelNotice.js';
import { STATUS_CHOICES, statusColor, type ChipColor } from './taskStatus.js';
import { TaskRoute } from './routes.js';
import { FormActions } from '../../ui/FormActions.js';

const S = T.taskScreens;

const DELIVERY: Record<TaskDelivery['status'], { label: string; color: ChipColor }> = {
  queued: { label: S.deliveryPending, color: 'default' },
  sending: { label: S.deliveryPending, color: 'info' },
  sent: { label: S.deliverySent, color: 'success' },
  failed: { label: S.deliveryFailed, color: 'error' },
  muted: { label: S.deliveryMuted, color: 'warning' },
  not_configured: { label: S.deliveryNotConfigured, color: 'default' },
};

function DeliveryStatus({ delivery: n }: { delivery: TaskDelivery }) {
  return <Chip size="small" color={DELIVERY[n.status].color} label={DELIVERY[n.status].label} />;
}

function DeliveryError({ delivery: n }: { delivery: TaskDelivery }) {
  if (n.status !== 'failed' || !n.last_error) return null;
  return (
    <Typography variant="caption" color="error" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
      {n.last_error}
    </Typography>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ overflowWrap: 'anywhere' }}>{value}</Typography>
    </Box>
  );
}

export function ManageTaskPage() {
  const { id = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const [task, setTask] = useState<TaskDetail | null>(null);
  const [status, setStatus] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState(false);
  const [timeline, setTimeline] = useState<TaskEvent[] | null>(null);
  const taskId = Number(id);
  const narrow = useMediaQuery('(max-width:599.95px)', { noSsr: true });

  /** the timeline and the facts beside the form; the status chosen in the form is kept */
  const reloadHistory = useCallback(
    (live: () => boolean = () => true) => {
      getTask(taskId).then(
        (t) => live() && setTask(t),
        () => undefined,
      );
      getTaskTimeline(taskId).then(
        (e) => live() && setTimeline(e),
        () => undefined,
      );
    },
    [taskId],
  );

  useEffect(() => {
    let live = true;
    getTask(taskId)
      .then(
        (t) => {
          if (!live) return;
          setTask(t);
          setStatus(t.status);
        },
        () => undefined,
      )
      .finally(() => live && setLoading(false));
    getTaskTimeline(taskId).then(
      (e) => live && setTimeline(e),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [taskId]);

  useLiveTasks(true, (pushes: TaskPush[]) => {
    if (pushes.some((p) => p.task.id === taskId && p.kind !== 'removed')) reloadHistory();
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!task || status === null) return;
    // the save's notices replace each other: a success does not stand beside the earlier "Tidak ada perubahan"
    const notice = notices.about(`tasks.manage:${task.id}`);
    if (status === task.status) {
      notice.warning(T.tasks.noChange);
      return;
    }
    setBusy(true);
    try {
      await changeTaskStatus(task.id, status);
      notice.success(T.tasks.manageSuccess);
      navigate(area.to(TaskRoute.list));
    } catch (err) {
      notice.error(err instanceof Error ? err.message : T.tasks.manageFailed);
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 960 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
        {S.manageTitle}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Card variant="outlined" sx={{ position: 'relative' }}>
            <CardContent component="form" noValidate onSubmit={submit}>
              <Typography variant="h6" component="h3" sx={{ overflowWrap: 'anywhere' }}>
                {task?.title ?? ' '}
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
                {task?.description}
              </Typography>
              <FormControl disabled={busy || !task}>
                <FormLabel id="task-status-label">{S.statusLabel}</FormLabel>
                <RadioGroup
                  aria-labelledby="task-status-label"
                  value={status === null ? '' : String(status)}
                  onChange={(e) => setStatus(Number(e.target.value))}
                >
                  {STATUS_CHOICES.map((c) => (
                    <FormControlLabel key={c.code} value={String(c.code)} control={<Radio />} label={c.label} />
                  ))}
                </RadioGroup>
              </FormControl>
              <FormActions
                onCancel={() => navigate(area.to(TaskRoute.list))}
                busy={busy}
                blocked={!task}
                spacing={1}
                mt={2}
              />
            </CardContent>
            <LoadingOverlay open={loading || busy} />
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Card variant="outlined">
            <CardContent>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                  {S.occurrences}
                </Typography>
                {task && <Chip size="small" color={statusColor(task.status)} label={task.status_value} />}
              </Stack>
              <Grid container spacing={2} data-testid="task-occurrences">
                <Grid size={{ xs: 6, sm: 3 }}>
                  <Fact label={S.occurrenceCount} value={task ? String(task.occurrences) : '-'} />
                </Grid>
                <Grid size={{ xs: 6, sm: 3 }}>
                  <Fact label={S.lastValue} value={task?.last_value ?? '-'} />
                </Grid>
                <Grid size={{ xs: 6, sm: 3 }}>
                  <Fact label={S.firstTime} value={task ? formatTs(task.first_ts) : '-'} />
                </Grid>
                <Grid size={{ xs: 6, sm: 3 }}>
                  <Fact label={S.lastTime} value={task ? formatTs(task.last_ts) : '-'} />
                </Grid>
                <Grid size={{ xs: 6, sm: 3 }}>
                  <Fact label={S.created} value={task ? formatTs(task.created_at) : '-'} />
                </Grid>
                <Grid size={{ xs: 12, sm: 9 }}>
                  <Typography variant="caption" color="text.secondary">
                    {S.device} · {S.rule}
                  </Typography>
                  {task && <TaskLinks task={task} />}
                </Grid>
              </Grid>
            </CardContent>
          </Card>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mt: 3, mb: 1 }}>
            {S.notifications}
          </Typography>
          {task && (
            <UnconfiguredChannels
              channels={task.notifications.filter((n) => n.status === 'not_configured').map((n) => n.channel)}
              compact
            />
          )}
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={S.notifications}>
              <TableHead>
                {narrow ? (
                  <TableRow>
                    <TableCell>
                      {S.channel} · {S.target}
                    </TableCell>
                  </TableRow>
                ) : (
                  <TableRow>
                    <TableCell>{S.channel}</TableCell>
                    <TableCell>{S.target}</TableCell>
                    <TableCell>{S.deliveryStatus}</TableCell>
                    <TableCell>{S.time}</TableCell>
                  </TableRow>
                )}
              </TableHead>
              <TableBody>
                {task?.notifications.map((n) =>
                  narrow ? (
                    // a phone: one block per message, the address kept whole on its own line
                    <TableRow key={n.id} data-testid="task-delivery">
                      <TableCell>
                        <Stack
                          direction="row"
                          spacing={1}
                          sx={{ alignItems: 'center', justifyContent: 'space-between' }}
                        >
                          <Typography variant="body2" sx={{ fontWeight: 600 }}>
                            {n.channel}
                          </Typography>
                          <DeliveryStatus delivery={n} />
                        </Stack>
                        <Typography variant="body2" sx={{ overflowWrap: 'break-word' }}>
                          {n.recipient}
                        </Typography>
                        <Typography variant="caption" color="text.secondary">
                          {formatTs(n.sent_at ?? n.created_at)}
                        </Typography>
                        <DeliveryError delivery={n} />
                      </TableCell>
                    </TableRow>
                  ) : (
                    <TableRow key={n.id} data-testid="task-delivery">
                      <TableCell>{n.channel}</TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 220 }}>{n.recipient}</TableCell>
                      <TableCell>
                        <DeliveryStatus delivery={n} />
                        <DeliveryError delivery={n} />
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTs(n.sent_at ?? n.created_at)}</TableCell>
                    </TableRow>
                  ),
                )}
                {task && task.notifications.length === 0 && (
                  <TableEmptyRow colSpan={narrow ? 1 : 4} text={S.noNotifications} py={3} />
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TaskTimeline events={timeline} />
        </Grid>
      </Grid>
    </Box>
  );
}
