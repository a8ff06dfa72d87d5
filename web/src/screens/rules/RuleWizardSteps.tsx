// The rule wizard's four forms: Info (name, the wizard's one category, description), Trigger (rows of field, operator,
// value with device → sensor → config → param pickers fed by the application's devices, and the engine's extras),
// Action (the action's name and the `new` and `response` task groups) and one notification task.
import { Fragment, type ChangeEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  channelOf,
  familyPointsOf,
  T,
  TASK_TITLE_MAX,
  TASK_TYPES,
  TRIGGER_FIELDS,
  TRIGGER_OPS,
  type ChannelTaskField,
} from '@sentra/contracts';
import type { FieldErrors } from '../../ui/forms.js';
import { UnconfiguredChannels } from '../notifications/ChannelNotice.js';
import {
  TASK_GROUPS,
  WIZARD_CATEGORIES,
  type RuleDraft,
  type RuleTask,
  type TaskGroup,
  type TriggerRow,
} from './ruleDraft.js';
import type { RuleWizardEvent, TaskEditing } from './ruleWizard.machine.js';
import { useDevicePoints } from './useRuleDevices.js';
import { TriggerRowValue } from './TriggerRowValue.js';
import { useHeldDevices } from '../../ui/devicePicker/useDeviceSearch.js';

const S = T.ruleScreens;
type Send = (e: RuleWizardEvent) => void;
/** what the Info and Trigger forms take: the draft, the step's errors, and where edits go */
interface DraftStepProps {
  draft: RuleDraft;
  errors: FieldErrors;
  disabled: boolean;
  send: Send;
}

export function InfoStep({ draft, errors, disabled, send }: DraftStepProps) {
  const info = draft.info;
  return (
    <Stack spacing={1}>
      <TextField
        label={S.name}
        value={info.name}
        required
        autoFocus
        disabled={disabled}
        error={!!errors.name}
        helperText={errors.name ?? ' '}
        onChange={(e) => send({ type: 'EDIT_INFO', field: 'name', value: e.target.value })}
      />
      <TextField
        select
        label={S.category}
        value={String(info.category)}
        required
        disabled={disabled}
        error={!!errors.category}
        helperText={errors.category ?? ' '}
        onChange={(e) => send({ type: 'SET_CATEGORY', value: Number(e.target.value) })}
      >
        {WIZARD_CATEGORIES.map((c) => (
          <MenuItem key={c.code} value={String(c.code)}>{`${c.code} · ${c.name}`}</MenuItem>
        ))}
      </TextField>
      <TextField
        label={S.description}
        value={info.description}
        multiline
        minRows={2}
        disabled={disabled}
        error={!!errors.description}
        helperText={errors.description ?? ' '}
        onChange={(e) => send({ type: 'EDIT_INFO', field: 'description', value: e.target.value })}
      />
    </Stack>
  );
}

export function TriggerStep({ draft, errors, disabled, send }: DraftStepProps) {
  const deviceRow = draft.trigger.find((r) => r.field === 'DEVICE_ID');
  const deviceId = Number(deviceRow?.value);
  const chosenId = Number.isSafeInteger(deviceId) && deviceId > 0 ? deviceId : null;
  const points = useDevicePoints(chosenId);
  const [device] = useHeldDevices(chosenId ? [chosenId] : []);
  // a device without data yet: its family's known points, and what to type
  const family = familyPointsOf(device?.category);
  const noData = chosenId !== null && points !== null && points.length === 0;
  const ex = draft.extras;
  // one number of the engine's extras, with its error or else its help
  const extraNumber = (name: 'duration' | 'clearValue' | 'cooldown', label: string, help: string) => (
    <TextField
      size="small"
      type="number"
      label={label}
      value={ex[name]}
      disabled={disabled}
      error={!!errors[name]}
      helperText={errors[name] ?? help}
      onChange={(e) => send({ type: 'EDIT_EXTRAS', patch: { [name]: e.target.value } })}
      sx={{ flex: 1 }}
    />
  );
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{S.triggerHint}</Typography>
      {errors.trigger && <Alert severity="warning">{errors.trigger}</Alert>}
      {noData && (
        <Alert severity="info" data-testid="trigger-no-data">
          {S.deviceNoData} {family.hint}
        </Alert>
      )}
      <Stack spacing={1} data-testid="trigger-rows">
        {draft.trigger.map((row, i) => (
          // one line on wide screens; on a phone field, operator and delete on one line, the value under them
          <Box
            key={i}
            sx={{
              display: 'grid',
              gap: 1,
              alignItems: 'start',
              gridTemplateColumns: { xs: '1fr 96px 40px', sm: '150px 96px 1fr 40px' },
            }}
            data-testid="trigger-row"
          >
            <TextField
              select
              size="small"
              label={S.field}
              value={row.field}
              disabled={disabled}
              sx={{ gridColumn: 1, gridRow: 1 }}
              helperText=" "
              onChange={(e) =>
                send({
                  type: 'EDIT_ROW',
                  index: i,
                  patch: {
                    field: e.target.value as TriggerRow['field'],
                    op: e.target.value === 'VALUE' ? row.op : '==',
                  },
                })
              }
              slotProps={{ htmlInput: { 'aria-label': S.rowField(i + 1) } }}
            >
              {TRIGGER_FIELDS.map((f) => (
                <MenuItem key={f} value={f}>
                  {f}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={S.operator}
              value={row.op}
              disabled={disabled || row.field !== 'VALUE'}
              sx={{ gridColumn: 2, gridRow: 1 }}
              helperText=" "
              onChange={(e) => send({ type: 'EDIT_ROW', index: i, patch: { op: e.target.value as TriggerRow['op'] } })}
              slotProps={{ htmlInput: { 'aria-label': S.rowOperator(i + 1) } }}
            >
              {TRIGGER_OPS.map((o) => (
                <MenuItem key={o} value={o}>
                  {o}
                </MenuItem>
              ))}
            </TextField>
            <Box sx={{ gridColumn: { xs: '1 / 3', sm: 3 }, gridRow: { xs: 2, sm: 1 }, minWidth: 0 }}>
              <TriggerRowValue
                row={row}
                index={i}
                rows={draft.trigger}
                points={points ?? []}
                known={device ? family.points : []}
                error={errors[`row.${i}`]}
                disabled={disabled}
                send={send}
              />
            </Box>
            <Tooltip title={S.removeRow}>
              <Box component="span" sx={{ gridColumn: { xs: 3, sm: 4 }, gridRow: 1 }}>
                <IconButton
                  aria-label={`${S.removeRow} ${i + 1}`}
                  disabled={disabled}
                  onClick={() => send({ type: 'REMOVE_ROW', index: i })}
                >
                  <DeleteIcon />
                </IconButton>
              </Box>
            </Tooltip>
          </Box>
        ))}
      </Stack>
      <Box>
        <Button startIcon={<AddIcon />} disabled={disabled} onClick={() => send({ type: 'ADD_ROW' })}>
          {S.addRow}
        </Button>
      </Box>
      <Divider />
      <Typography variant="subtitle2" component="h3">
        {S.extras}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        {extraNumber('duration', S.durationLabel, S.durationHelp)}
        <Stack direction="row" spacing={1} sx={{ flex: 1 }}>
          <TextField
            select
            size="small"
            label={S.operator}
            value={ex.clearOp}
            disabled={disabled}
            onChange={(e) => send({ type: 'EDIT_EXTRAS', patch: { clearOp: e.target.value as TriggerRow['op'] } })}
            sx={{ minWidth: 96 }}
            helperText=" "
          >
            {TRIGGER_OPS.map((o) => (
              <MenuItem key={o} value={o}>
                {o}
              </MenuItem>
            ))}
          </TextField>
          {extraNumber('clearValue', S.clearLabel, S.clearHelp)}
        </Stack>
        {extraNumber('cooldown', S.cooldownLabel, S.cooldownHelp)}
      </Stack>
    </Stack>
  );
}

/** One line of a task list: where it goes and its further fields (an email's subject). */
const taskLine = (t: RuleTask) => {
  const c = channelOf(t.type);
  return [c.address, ...c.optional].map((f) => t[f.field]).join(' · ');
};

export function ActionStep({
  draft,
  saveError,
  disabled,
  send,
}: {
  draft: RuleDraft;
  saveError?: string;
  disabled: boolean;
  send: Send;
}) {
  const groupTitle: Record<TaskGroup, string> = { new: S.groupNew, response: S.groupResponse };
  return (
    <Stack spacing={2}>
      {saveError && <Alert severity="error">{saveError}</Alert>}
      <UnconfiguredChannels channels={[...draft.action.new, ...draft.action.response].map((t) => t.type)} compact />
      <TextField
        label={S.actionTitle}
        value={draft.action.title}
        placeholder={draft.info.name}
        disabled={disabled}
        helperText={S.actionTitleHelp}
        onChange={(e) => send({ type: 'EDIT_ACTION_TITLE', value: e.target.value })}
        slotProps={{ htmlInput: { maxLength: TASK_TITLE_MAX } }}
      />
      {TASK_GROUPS.map((g) => (
        <Paper key={g} variant="outlined" sx={{ p: 2 }} data-testid={`task-group-${g}`}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="subtitle2" component="h3">
              {groupTitle[g]}
            </Typography>
            <Button
              size="small"
              startIcon={<AddIcon />}
              disabled={disabled}
              onClick={() => send({ type: 'ADD_TASK', group: g })}
              aria-label={`${S.addTask} ${g}`}
            >
              {S.addTask}
            </Button>
          </Stack>
          {draft.action[g].length === 0 ? (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {S.noTasks}
            </Typography>
          ) : (
            <List dense>
              {draft.action[g].map((t, i) => (
                <ListItem
                  key={i}
                  divider={i < draft.action[g].length - 1}
                  secondaryAction={
                    <Stack direction="row">
                      <IconButton
                        aria-label={S.taskEdit}
                        disabled={disabled}
                        onClick={() => send({ type: 'OPEN_TASK', group: g, index: i })}
                      >
                        <EditIcon />
                      </IconButton>
                      <IconButton
                        aria-label={S.taskRemove}
                        disabled={disabled}
                        onClick={() => send({ type: 'REMOVE_TASK', group: g, index: i })}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Stack>
                  }
                >
                  <ListItemText
                    primary={t.type}
                    secondary={taskLine(t)}
                    slotProps={{ secondary: { sx: { overflowWrap: 'anywhere', pr: 10 } } }}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

export function TaskStep({ task, disabled, send }: { task: TaskEditing; disabled: boolean; send: Send }) {
  const f = task.form;
  const e = task.errors;
  const channel = channelOf(f.type);
  const text = (field: ChannelTaskField | 'content', label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={f[field]}
      disabled={disabled}
      error={!!e[field]}
      helperText={e[field] ?? ' '}
      fullWidth
      onChange={(ev) => send({ type: 'EDIT_TASK', patch: { [field]: ev.target.value } })}
      {...extra}
    />
  );
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
        {task.index === null ? S.taskTitleAdd : S.taskTitleEdit} · {task.group === 'new' ? S.groupNew : S.groupResponse}
      </Typography>
      <TextField
        select
        label={S.taskType}
        value={f.type}
        disabled={disabled}
        helperText=" "
        onChange={(ev) => send({ type: 'EDIT_TASK', patch: { type: ev.target.value as RuleTask['type'] } })}
      >
        {TASK_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {t}
          </MenuItem>
        ))}
      </TextField>
      {/* the moment a channel the gateway cannot send through is chosen: its messages would only be stored */}
      <UnconfiguredChannels channels={[f.type]} />
      {/* the channel's fields from its descriptor (contracts/src/channels/): the address, then the optional ones */}
      {text(channel.address.field, channel.address.label, {
        type: channel.address.inputType,
        required: true,
        placeholder: channel.address.placeholder,
      })}
      {channel.optional.map((o) => (
        <Fragment key={o.field}>{text(o.field, o.label, { type: o.inputType, placeholder: o.placeholder })}</Fragment>
      ))}
      {text('content', S.content, {
        multiline: true,
        minRows: 3,
        placeholder: channel.defaultContent ? T.rules.defaultContent : undefined,
      })}
      <Typography variant="caption" color="text.secondary">
        {S.templateHint}
      </Typography>
    </Stack>
  );
}
