// The pieces a task shows in the Tugas list and on Manage Task: links to its device and its rule (when the signed-in
// principal may open them), and the quick status changes (take → In progress, solve → Solved) through the same
// task/change/status call and rights as Manage Task.
import { Button, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { T, type Task } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { useCanReach } from '../../shell/grants.js';
import { DeviceRoute } from '../devices/deviceRoutes.js';
import { EditorRoute } from '../rules/routes.js';
import { quickActions, type QuickAction } from './taskConsole.js';

const S = T.taskScreens;

/** The task's device and rule: links where the principal may open them, plain text otherwise. */
export function TaskLinks({ task, direction = 'column' }: { task: Task; direction?: 'row' | 'column' }) {
  const area = useAppArea();
  const canReach = useCanReach();
  const device =
    task.device_id === null ? (
      <Typography variant="caption" color="text.secondary">
        {S.noDevice}
      </Typography>
    ) : canReach(DeviceRoute.dataAll) ? (
      <Link
        component={RouterLink}
        to={area.to(DeviceRoute.dataAll, { id: task.device_id })}
        variant="caption"
        aria-label={S.deviceLink(task.device_name ?? String(task.device_id))}
        sx={{ overflowWrap: 'anywhere' }}
      >
        {task.device_name ?? `#${task.device_id}`}
      </Link>
    ) : (
      <Typography variant="caption">{task.device_name ?? `#${task.device_id}`}</Typography>
    );
  const rule =
    task.rule_id === null ? (
      <Typography variant="caption" color="text.secondary">
        {task.rule_name ? `${task.rule_name} · ${S.ruleRemoved}` : S.ruleRemoved}
      </Typography>
    ) : canReach(EditorRoute.editInfo) ? (
      <Link
        component={RouterLink}
        to={area.to(EditorRoute.editInfo, { id: task.rule_id })}
        variant="caption"
        aria-label={S.ruleLink(task.rule_name ?? String(task.rule_id))}
        sx={{ overflowWrap: 'anywhere' }}
      >
        {S.rule}: {task.rule_name ?? `#${task.rule_id}`}
      </Link>
    ) : (
      <Typography variant="caption">
        {S.rule}: {task.rule_name ?? `#${task.rule_id}`}
      </Typography>
    );
  return (
    <Stack direction={direction} spacing={direction === 'row' ? 1.5 : 0} sx={{ flexWrap: 'wrap', minWidth: 0 }}>
      {device}
      {rule}
    </Stack>
  );
}

/** Take and Solve, as the task's status allows; each asks first (the screen's confirmed action). */
export function QuickActions({
  task,
  disabled,
  onAction,
}: {
  task: Task;
  disabled: boolean;
  onAction(task: Task, action: QuickAction): void;
}) {
  const actions = quickActions(task.status);
  if (actions.length === 0) return null;
  return (
    <>
      {actions.map((a) => (
        <Button
          key={a}
          size="small"
          variant={a === 'solve' ? 'contained' : 'outlined'}
          color={a === 'solve' ? 'success' : 'primary'}
          disabled={disabled}
          onClick={() => onAction(task, a)}
          aria-label={a === 'take' ? S.takeOf(task.title) : S.solveOf(task.title)}
        >
          {a === 'take' ? S.take : S.solve}
        </Button>
      ))}
    </>
  );
}
