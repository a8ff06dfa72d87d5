// Draws the headless query editor (queryEditor*.ts, beside it): the Query selector under group headings, the
// dependent selectors, Label, Subparam and Subparam Label, Tags, Condition with its Number/String toggle, True, False.
// Used by the card's query dialog and by the function variable of 'Tambah Variabel Baru'.
import { useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Checkbox,
  Chip,
  FormControl,
  FormHelperText,
  InputAdornment,
  InputLabel,
  ListItemText,
  ListSubheader,
  MenuItem,
  Select,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { SUBPARAM_LABEL_ADD_KEYS, T, type QueryFunction } from '@sentra/contracts';
import {
  labelsFull,
  queryEditorReducer,
  type QueryEditorEvent,
  type QueryEditorState,
  type ResultType,
} from './queryEditor.js';
import {
  expressionField,
  fieldErrors,
  fieldOptions,
  queryGroups,
  resultInputType,
  visibleFields,
  type EditorField,
} from './queryEditorView.js';
import { DevicePicker } from '../../../ui/DevicePicker.js';

const q = T.dashboards.query;

const SELECT_LABELS: Partial<Record<EditorField, string>> = {
  device_id: q.device,
  sensor: q.sensor,
  config: q.config,
  param: q.param,
  subparam: q.subparam,
  data1: q.data(1),
  data2: q.data(2),
  data3: q.data(3),
};

export interface QueryEditorFieldsProps {
  state: QueryEditorState;
  send(event: QueryEditorEvent): void;
  /** show every required message at once (after a refused save), not only those of fields already left */
  showAll?: boolean;
}

export function QueryEditorFields({ state, send, showAll = false }: QueryEditorFieldsProps) {
  const [touched, setTouched] = useState<ReadonlySet<EditorField>>(new Set());
  const touch = (field: EditorField) => setTouched((s) => (s.has(field) ? s : new Set([...s, field])));
  const fields = visibleFields(state);
  const errors = Object.fromEntries(fieldErrors(state).map((e) => [e.field, e.message])) as Partial<
    Record<EditorField, string>
  >;
  const errorOf = (field: EditorField) =>
    showAll || touched.has(field) || field === 'subparam_label' ? errors[field] : undefined;

  const select = (field: EditorField, value: string | undefined, onChange: (v: string) => void) => {
    const id = `query-${field}`;
    const error = errorOf(field);
    return (
      <FormControl key={field} fullWidth size="small" required error={!!error}>
        <InputLabel id={`${id}-label`}>{SELECT_LABELS[field]}</InputLabel>
        <Select
          labelId={`${id}-label`}
          id={id}
          label={SELECT_LABELS[field]}
          value={value ?? ''}
          onChange={(e) => {
            touch(field);
            onChange(String(e.target.value));
          }}
          onClose={() => touch(field)}
        >
          {fieldOptions(state, field).map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </Select>
        {error && <FormHelperText>{error}</FormHelperText>}
      </FormControl>
    );
  };

  const draw = (field: EditorField) => {
    switch (field) {
      case 'query':
        return (
          <QuerySelect key={field} state={state} send={send} error={errorOf('query')} onTouch={() => touch('query')} />
        );
      case 'device_id':
        return (
          <DevicePicker
            key={field}
            id="query-device_id"
            label={q.device}
            required
            tags={state.source.filterTags}
            value={state.device_id}
            error={errorOf(field)}
            onBlur={() => touch(field)}
            onChange={(device_id) => (touch(field), send({ type: 'chooseDevice', device_id }))}
          />
        );
      case 'sensor':
        return select(field, state.sensor, (sensor) => send({ type: 'chooseSensor', sensor }));
      case 'config':
        return select(field, state.config, (config) => send({ type: 'chooseConfig', config }));
      case 'param':
        return select(field, state.param, (param) => send({ type: 'chooseParam', param }));
      case 'subparam':
        return select(field, state.subparam, (subparam) => send({ type: 'chooseSubparam', subparam }));
      case 'data1':
      case 'data2':
      case 'data3': {
        const phase = (Number(field.slice(4)) - 1) as 0 | 1 | 2;
        return select(field, state.phases[phase], (subparam) => send({ type: 'choosePhase', phase, subparam }));
      }
      case 'param_label':
        return (
          <TextField
            key={field}
            size="small"
            fullWidth
            label={q.label}
            value={state.param_label}
            onChange={(e) => send({ type: 'changeParamLabel', label: e.target.value })}
          />
        );
      case 'subparams':
        return (
          <SubparamsSelect
            key={field}
            state={state}
            send={send}
            error={errorOf('subparams')}
            onTouch={() => touch('subparams')}
          />
        );
      case 'subparam_label':
        return <SubparamLabels key={field} state={state} send={send} />;
      case 'tags':
        return (
          <Box key={field}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {q.tagsHeading}
            </Typography>
            <Autocomplete
              multiple
              size="small"
              options={fieldOptions(state, 'tags').map((o) => o.value)}
              value={state.tags}
              onChange={(_, tags) => send({ type: 'chooseTags', tags })}
              renderInput={(params) => <TextField {...params} label={q.tags} />}
            />
          </Box>
        );
      case 'condition': {
        const expression = expressionField(state)!;
        const error = errorOf('condition');
        return (
          <TextField
            key={field}
            size="small"
            fullWidth
            required
            multiline
            minRows={2}
            label={expression.label}
            placeholder={expression.hint}
            value={state.condition}
            error={!!error}
            helperText={error ?? `${T.dashboards.editor.example}: ${expression.hint}`}
            onBlur={() => touch('condition')}
            onChange={(e) => send({ type: 'changeCondition', condition: e.target.value })}
          />
        );
      }
      case 'resultType':
        return (
          <ToggleButtonGroup
            sx={{ '& .MuiToggleButton-root': { textTransform: 'none' } }}
            key={field}
            exclusive
            size="small"
            color="primary"
            value={state.resultType}
            onChange={(_, resultType: ResultType | null) =>
              resultType && send({ type: 'toggleResultType', resultType })
            }
          >
            {fieldOptions(state, 'resultType').map((o) => (
              <ToggleButton key={o.value} value={o.value}>
                {o.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        );
      case 'true_condition':
      case 'false_condition': {
        const error = errorOf(field);
        const value = field === 'true_condition' ? state.true_condition : state.false_condition;
        return (
          <TextField
            key={field}
            size="small"
            fullWidth
            required
            type={resultInputType(state)}
            label={field === 'true_condition' ? q.trueValue : q.falseValue}
            value={value}
            error={!!error}
            helperText={error}
            onBlur={() => touch(field)}
            onChange={(e) =>
              send(
                field === 'true_condition'
                  ? { type: 'changeTrue', value: e.target.value }
                  : { type: 'changeFalse', value: e.target.value },
              )
            }
          />
        );
      }
    }
  };

  return (
    <Stack spacing={2} sx={{ pt: 1 }} data-testid="query-editor">
      {fields.map(draw)}
    </Stack>
  );
}

/** A selector of the query editor: the editor, its message and the touch that shows the message. */
interface SelectProps {
  state: QueryEditorState;
  send(e: QueryEditorEvent): void;
  error?: string;
  onTouch(): void;
}

/** The Query selector: the card kind's functions under Data, Aggregate, Device Info and Condition. */
function QuerySelect({ state, send, error, onTouch }: SelectProps) {
  const items = queryGroups(state).flatMap((group) => [
    <ListSubheader key={`h-${group.heading}`}>{group.heading}</ListSubheader>,
    ...group.options.map((o) => (
      <MenuItem key={o.value} value={o.value} sx={{ pl: 3 }}>
        {o.label}
      </MenuItem>
    )),
  ]);
  return (
    <FormControl fullWidth size="small" required error={!!error}>
      <InputLabel id="query-query-label">{q.query}</InputLabel>
      <Select
        labelId="query-query-label"
        id="query-query"
        label={q.query}
        value={state.query ?? ''}
        onClose={onTouch}
        onChange={(e) => send({ type: 'chooseQuery', query: e.target.value as QueryFunction })}
      >
        {items}
      </Select>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** Graph queries on a param with several subparams: the Subparam multi-select. */
function SubparamsSelect({ state, send, error, onTouch }: SelectProps) {
  return (
    <FormControl fullWidth size="small" required error={!!error}>
      <InputLabel id="query-subparams-label">{q.subparams}</InputLabel>
      <Select
        labelId="query-subparams-label"
        id="query-subparams"
        multiple
        label={q.subparams}
        value={state.subparams}
        onClose={onTouch}
        renderValue={(selected) => selected.join(', ')}
        onChange={(e) => {
          const value = e.target.value;
          send({ type: 'chooseSubparams', subparams: typeof value === 'string' ? value.split(',') : value });
        }}
      >
        {fieldOptions(state, 'subparams').map((o) => (
          <MenuItem key={o.value} value={o.value}>
            <Checkbox size="small" checked={state.subparams.includes(o.value)} />
            <ListItemText primary={o.label} />
          </MenuItem>
        ))}
      </Select>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/**
 * The Subparam Label tag input: a label is added with Tab or Enter, refused with the spec's messages in order, unique,
 * and no more labels than selected subparams.
 */
function SubparamLabels({ state, send }: { state: QueryEditorState; send(e: QueryEditorEvent): void }) {
  const [text, setText] = useState('');
  const full = labelsFull(state);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!(SUBPARAM_LABEL_ADD_KEYS as readonly string[]).includes(e.key) || text === '') return;
    e.preventDefault();
    const event: QueryEditorEvent = { type: 'addSubparamLabel', label: text };
    send(event);
    // the input keeps a refused label so it can be corrected
    if (queryEditorReducer(state, event).subparam_label.length > state.subparam_label.length) setText('');
  };
  const count = `${state.subparam_label.length}/${state.subparams.length}`;
  return (
    <Box>
      <TextField
        size="small"
        fullWidth
        label={`${q.subparamLabel} (${count})`}
        value={text}
        disabled={full}
        error={!!state.labelError}
        helperText={state.labelError ?? q.labelTooltip}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        slotProps={{
          htmlInput: { 'data-testid': 'subparam-label-input' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={q.labelTooltip}>
                  <InfoOutlinedIcon fontSize="small" color="action" />
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
        {state.subparam_label.map((label, index) => (
          <Chip
            key={label}
            size="small"
            label={`${state.subparams[index] ?? ''}: ${label}`}
            onDelete={() => send({ type: 'removeSubparamLabel', index })}
          />
        ))}
      </Stack>
      {state.subparams.length > 0 && state.subparam_label.length !== state.subparams.length && (
        <Alert severity="info" sx={{ mt: 1, py: 0 }}>
          {T.dashboards.component.incomplete}
        </Alert>
      )}
    </Box>
  );
}
