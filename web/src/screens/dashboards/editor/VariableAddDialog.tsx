// 'Tambah Variabel Baru': the headless variableDialog reducer drawn — type, key (func_ prefix and its live help), the
// value of each type (text, integer, array, object as Manual Code or a query object, function through the query
// editor, device cascade, filter cascade with N Data and the periodic options of the range), and the overwrite
// confirmation 'Key sudah terdaftar!'.
import type { ReactNode } from 'react';
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import {
  OBJECT_VARIABLE_QUERY_TYPES,
  T,
  variableTypeChoices,
  type FilterType,
  type PeriodicRangeCode,
  type VariableType,
} from '@sentra/contracts';
import {
  canSave,
  dialogErrors,
  keyHelp,
  type ObjectQueryType,
  type VariableDialogEvent,
  type VariableDialogState,
} from './variableDialog.js';
import {
  filterFields,
  filterTypeChoices,
  intervalChoices,
  periodChoices,
  rangeChoices,
  rangeParamChoices,
} from './filterChoices.js';
import { DevicePicker } from '../../../ui/DevicePicker.js';
import { configOptions, paramOptions, sensorOptions, type Option } from './selectionSource.js';
import { QueryEditorFields } from './QueryEditorFields.js';

const v = T.dashboards.variables;
const f = T.dashboards.variableForm;
const q = T.dashboards.query;

export interface VariableAddDialogProps {
  state: VariableDialogState;
  send(event: VariableDialogEvent): void;
}

function Choice<V extends string | number>(props: {
  label: string;
  value: V | undefined;
  options: readonly { value: V; label: string }[];
  onChange(value: V): void;
  required?: boolean;
  error?: string;
  testId?: string;
}) {
  return (
    <TextField
      select
      size="small"
      fullWidth
      required={props.required}
      label={props.label}
      value={props.value ?? ''}
      error={!!props.error}
      helperText={props.error}
      onChange={(e) => {
        const picked = props.options.find((o) => String(o.value) === e.target.value);
        if (picked) props.onChange(picked.value);
      }}
      slotProps={{ htmlInput: { 'data-testid': props.testId } }}
    >
      {props.options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

const plain = <V extends string | number>(values: readonly V[]) =>
  values.map((value) => ({ value, label: String(value) }));

export function VariableAddDialog({ state, send }: VariableAddDialogProps) {
  const errors = dialogErrors(state);
  const close = () => send({ type: 'cancel' });
  return (
    <>
      <Dialog open={state.open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="variable-add-title">
        <DialogTitle id="variable-add-title">{v.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Choice
              label={f.type}
              required
              value={state.varType}
              options={variableTypeChoices(state.scope).map((c) => ({ value: c.type, label: c.label }))}
              onChange={(varType: VariableType) => send({ type: 'chooseType', varType })}
            />
            <TextField
              size="small"
              fullWidth
              required
              label={f.key}
              value={state.key}
              error={!!errors.key}
              helperText={errors.key ?? keyHelp(state)}
              onChange={(e) => send({ type: 'changeKey', key: e.target.value })}
            />
            <ValueFields state={state} send={send} errors={errors} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{T.common.cancel}</Button>
          <Button variant="contained" disabled={!canSave(state)} onClick={() => send({ type: 'save' })}>
            {T.common.save}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={state.confirmingOverwrite}
        onClose={() => send({ type: 'cancelOverwrite' })}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle>{v.overwriteTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText>{v.overwriteQuestion}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => send({ type: 'cancelOverwrite' })}>{T.common.cancel}</Button>
          <Button variant="contained" onClick={() => send({ type: 'confirmOverwrite' })}>
            {T.common.yes}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function ValueFields({ state, send, errors }: VariableAddDialogProps & { errors: Record<string, string> }) {
  const text = (props: { multiline?: boolean; type?: string; placeholder?: string }) => (
    <TextField
      size="small"
      fullWidth
      required
      label={f.value}
      value={state.text}
      multiline={props.multiline}
      minRows={props.multiline ? 3 : undefined}
      type={props.type}
      placeholder={props.placeholder}
      error={!!errors.value}
      helperText={errors.value}
      onChange={(e) => send({ type: 'changeText', text: e.target.value })}
      slotProps={{ htmlInput: props.type === 'number' ? { min: 0, step: 1 } : {} }}
    />
  );
  switch (state.varType) {
    case undefined:
      return null;
    case 'str':
      return text({});
    case 'int':
      return text({ type: 'number' });
    case 'arr':
      return text({ multiline: true, placeholder: f.arrayHint });
    case 'obj':
      return (
        <ObjectFields
          state={state}
          send={send}
          errors={errors}
          text={text({ multiline: true, placeholder: f.objectHint })}
        />
      );
    case 'func':
      return <QueryEditorFields state={state.func} send={(event) => send({ type: 'func', event })} />;
    case 'device':
      return <DeviceFields state={state} send={send} />;
    case 'filter':
      return <FilterFields state={state} send={send} errors={errors} />;
  }
}

function ObjectFields({
  state,
  send,
  errors,
  text,
}: VariableAddDialogProps & { errors: Record<string, string>; text: ReactNode }) {
  const o = state.object;
  const conditional = o.queryType === 'condition' || o.queryType === 'condition_bool';
  return (
    <>
      <ToggleButtonGroup
        sx={{ '& .MuiToggleButton-root': { textTransform: 'none' } }}
        exclusive
        size="small"
        color="primary"
        value={o.mode}
        onChange={(_, mode: 'code' | 'form' | null) => mode && send({ type: 'changeObject', object: { mode } })}
      >
        <ToggleButton value="code">{f.manualCode}</ToggleButton>
        <ToggleButton value="form">{f.queryForm}</ToggleButton>
      </ToggleButtonGroup>
      {o.mode === 'code' ? (
        text
      ) : (
        <>
          <Choice
            label={f.queryType}
            required
            value={o.queryType}
            options={plain(OBJECT_VARIABLE_QUERY_TYPES)}
            onChange={(queryType: ObjectQueryType) => send({ type: 'changeObject', object: { queryType } })}
          />
          {o.queryType === 'tags' && (
            <Autocomplete
              multiple
              freeSolo
              size="small"
              options={state.source.tags}
              value={o.tags}
              onChange={(_, tags) => send({ type: 'changeObject', object: { tags: tags.map(String) } })}
              renderInput={(params) => <TextField {...params} label={q.tags} helperText={q.tagsHeading} />}
            />
          )}
          {conditional && (
            <>
              <TextField
                size="small"
                fullWidth
                required
                label={q.condition}
                placeholder={q.conditionHint}
                value={o.condition}
                error={!!errors.condition}
                helperText={errors.condition ?? `${T.dashboards.editor.example}: ${q.conditionHint}`}
                onChange={(e) => send({ type: 'changeObject', object: { condition: e.target.value } })}
              />
              <TextField
                size="small"
                fullWidth
                required
                label={q.trueValue}
                value={o.true_condition}
                error={!!errors.true_condition}
                helperText={errors.true_condition}
                onChange={(e) => send({ type: 'changeObject', object: { true_condition: e.target.value } })}
              />
              <TextField
                size="small"
                fullWidth
                required
                label={q.falseValue}
                value={o.false_condition}
                error={!!errors.false_condition}
                helperText={errors.false_condition}
                onChange={(e) => send({ type: 'changeObject', object: { false_condition: e.target.value } })}
              />
            </>
          )}
        </>
      )}
    </>
  );
}

/** Device → sensor → config → param (each choice clears those below it), and the optional label. */
function DeviceFields({ state, send }: VariableAddDialogProps) {
  const d = state.device;
  const path = { device_id: d.device_id, sensor: d.sensor, config: d.config };
  const step = (
    label: string,
    value: string | undefined,
    options: Option[],
    onChange: (v: string) => void,
    show: boolean,
  ) => show && <Choice label={label} required value={value} options={options} onChange={onChange} />;
  return (
    <>
      <DevicePicker
        label={q.device}
        required
        value={d.device_id}
        onChange={(device_id) => send({ type: 'chooseDevice', device_id })}
      />
      {step(
        q.sensor,
        d.sensor,
        sensorOptions(state.source, true, path),
        (sensor) => send({ type: 'chooseSensor', sensor }),
        d.device_id !== undefined,
      )}
      {step(
        q.config,
        d.config,
        configOptions(state.source, true, path),
        (config) => send({ type: 'chooseConfig', config }),
        d.sensor !== undefined,
      )}
      {step(
        q.param,
        d.param,
        paramOptions(state.source, true, path),
        (param) => send({ type: 'chooseParam', param }),
        d.config !== undefined,
      )}
      <TextField
        size="small"
        fullWidth
        label={f.label}
        value={d.label}
        onChange={(e) => send({ type: 'changeDeviceLabel', label: e.target.value })}
      />
    </>
  );
}

/** Label, filter type, then N Data (REALTIME) or range, its parameter, period and interval (PERIODIC, CUSTOM). */
function FilterFields({ state, send, errors }: VariableAddDialogProps & { errors: Record<string, string> }) {
  const fl = state.filter;
  const shown = filterFields(fl);
  // a choice not made yet is no error (Simpan waits for it); a made one the range does not allow is
  const chosenError = (field: 'range' | 'range_param' | 'period' | 'interval') =>
    fl[field] === undefined ? undefined : errors[field];
  return (
    <>
      <TextField
        size="small"
        fullWidth
        required
        label={f.label}
        value={fl.name}
        error={!!errors.name}
        helperText={errors.name}
        onChange={(e) => send({ type: 'changeFilterName', name: e.target.value })}
      />
      <Choice
        label={f.filterType}
        required
        value={fl.type}
        options={plain(filterTypeChoices())}
        onChange={(filterType: FilterType) => send({ type: 'chooseFilterType', filterType })}
      />
      {shown.includes('ndata') && (
        <TextField
          size="small"
          fullWidth
          required
          type="number"
          label={f.ndata}
          value={fl.ndata}
          error={!!errors.ndata}
          helperText={v.ndata}
          onChange={(e) => send({ type: 'changeNdata', ndata: e.target.value })}
          slotProps={{ htmlInput: { min: 1, max: 120, step: 1 } }}
        />
      )}
      {shown.includes('range') && (
        <Choice
          label={f.range}
          required
          value={fl.range}
          error={chosenError('range')}
          options={rangeChoices() as { value: PeriodicRangeCode; label: string }[]}
          onChange={(range: PeriodicRangeCode) => send({ type: 'chooseRange', range })}
        />
      )}
      {shown.includes('range_param') && (
        <Choice
          label={f.rangeParam}
          required
          value={fl.range_param}
          error={chosenError('range_param')}
          options={plain(rangeParamChoices(fl))}
          onChange={(range_param: number) => send({ type: 'chooseRangeParam', range_param })}
        />
      )}
      {shown.includes('period') && (
        <Choice
          label={f.period}
          value={fl.period}
          error={chosenError('period')}
          options={plain(periodChoices(fl))}
          onChange={(period: string) => send({ type: 'choosePeriod', period })}
        />
      )}
      {shown.includes('interval') && intervalChoices(fl).length > 0 && (
        <Choice
          label={f.interval}
          required
          value={fl.interval}
          error={chosenError('interval')}
          options={plain(intervalChoices(fl))}
          onChange={(interval: number) => send({ type: 'chooseInterval', interval })}
        />
      )}
      <FormControlLabel
        control={
          <Switch
            checked={fl.is_default}
            onChange={(e) => send({ type: 'toggleDefault', is_default: e.target.checked })}
          />
        }
        label={f.isDefault}
      />
    </>
  );
}
