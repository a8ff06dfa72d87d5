// The value input of one trigger row: the device picker (the whole application, searched on the server), a sensor,
// config or param picker offering the chosen device's points and its family's known ones (anything else may be
// typed), or plain text for VALUE.
import type { ChangeEvent } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { T, type KnownPoint } from '@sentra/contracts';
import { DevicePicker } from '../../ui/DevicePicker.js';
import type { TriggerRow } from './ruleDraft.js';
import type { RuleWizardEvent } from './ruleWizard.machine.js';
import { pointOptions, type useDevicePoints } from './useRuleDevices.js';

const S = T.ruleScreens;
const POINT_LABEL = { SENSOR: S.sensor, CONFIG: S.config, PARAM: S.param } as const;

export function TriggerRowValue({
  row,
  index,
  rows,
  points,
  known,
  error,
  disabled,
  send,
}: {
  row: TriggerRow;
  index: number;
  rows: readonly TriggerRow[];
  points: NonNullable<ReturnType<typeof useDevicePoints>>;
  /** what the chosen device's family sends by itself */
  known: readonly KnownPoint[];
  error?: string;
  disabled: boolean;
  send: (e: RuleWizardEvent) => void;
}) {
  const edit = (value: string) => send({ type: 'EDIT_ROW', index, patch: { value } });
  if (row.field === 'DEVICE_ID')
    return (
      <DevicePicker
        label={S.device}
        value={row.value}
        disabled={disabled}
        error={error}
        helperText=" "
        onChange={(id) => edit(id)}
      />
    );
  if (row.field === 'SENSOR' || row.field === 'CONFIG' || row.field === 'PARAM') {
    // the rows above this one choose the sensor and the config the next picker narrows to
    const before = rows.slice(0, index);
    const chosen = {
      sensor: before.find((r) => r.field === 'SENSOR')?.value,
      config: before.find((r) => r.field === 'CONFIG')?.value,
    };
    return (
      <Autocomplete
        freeSolo
        openOnFocus
        size="small"
        fullWidth
        disabled={disabled}
        options={pointOptions(points, row.field, chosen, known)}
        inputValue={row.value}
        onInputChange={(_e, v) => edit(v)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={POINT_LABEL[row.field as keyof typeof POINT_LABEL]}
            error={!!error}
            helperText={error ?? ' '}
          />
        )}
      />
    );
  }
  return (
    <TextField
      label={S.value}
      value={row.value}
      disabled={disabled}
      error={!!error}
      helperText={error ?? ' '}
      fullWidth
      size="small"
      onChange={(e: ChangeEvent<HTMLInputElement>) => edit(e.target.value)}
      slotProps={{ htmlInput: { 'aria-label': S.rowValue(index + 1) } }}
    />
  );
}
