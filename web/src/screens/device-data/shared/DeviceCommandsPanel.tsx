// "Perintah perangkat" on a device's own screens (its states and its detail): the family's commands (Tasmota: POWER
// ON/OFF/TOGGLE, TelePeriod) and the states that read as a switch (a meter's breaker open/closed), each sent through
// the one command call and answered as a control card's command is (the status line and the notice say how).
import { useState, type ReactNode } from 'react';
import { Box, Button, Chip, Paper, Stack, TextField, Typography } from '@mui/material';
import { T, familyCommandsOf, stateTarget, switchValues, type FamilyCommand, type StateRow } from '@sentra/contracts';
import { formatValue } from '../format.js';
import { useDeviceCommand } from './useDeviceCommand.js';

const C = T.deviceCommands;

function CommandRow({ label, current, children }: { label: string; current?: string; children: ReactNode }) {
  return (
    <Box
      data-testid="device-command"
      data-command={label}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, py: 0.75 }}
    >
      <Box sx={{ minWidth: { xs: '100%', sm: 220 }, display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>{label}</Typography>
        {current !== undefined && (
          <Chip size="small" variant="outlined" label={current} data-testid="device-command-current" />
        )}
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {children}
      </Stack>
    </Box>
  );
}

function NumberCommand({
  command,
  busy,
  onSend,
}: {
  command: Extract<FamilyCommand, { number: unknown }>;
  busy: boolean;
  onSend(value: number): void;
}) {
  const { min, max, unit } = command.number;
  const [text, setText] = useState('');
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
  return (
    <>
      <TextField
        size="small"
        type="number"
        label={unit}
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={text !== '' && !valid}
        helperText={C.range(min, max, unit)}
        slotProps={{ htmlInput: { min, max, step: 1, 'aria-label': command.label } }}
        sx={{ width: 180 }}
      />
      <Button variant="outlined" disabled={busy || !valid} onClick={() => onSend(n)} sx={{ alignSelf: 'flex-start' }}>
        {C.send}
      </Button>
    </>
  );
}

export function DeviceCommandsPanel({
  deviceId,
  category,
  states,
}: {
  deviceId: number;
  /** the device's family (its category); undefined while unknown */
  category: number | undefined;
  states: readonly StateRow[] | null;
}) {
  const command = useDeviceCommand(deviceId);
  const commands = familyCommandsOf(category);
  const stateOf = (key: string) => states?.find((s) => s.key === key);
  // a state the family's own commands already set is not offered twice (Tasmota's POWER)
  const own = new Set(commands.map((c) => c.param));
  const switches = (states ?? []).filter((s) => !own.has(s.key) && switchValues(s.value));
  const status = command.statusText;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="device-commands">
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="h6" component="h3">
          {C.title}
        </Typography>
        <Typography
          variant="body2"
          role="status"
          data-testid="device-command-status"
          color={command.state === 'failed' ? 'error' : command.state === 'success' ? 'success.main' : 'text.secondary'}
        >
          {status && command.request?.target
            ? `${C.setTo(command.request.target.param, String(command.request.value))} · ${status}`
            : C.hint}
        </Typography>
      </Stack>
      {commands.map((c) => {
        const current = stateOf(c.param);
        return (
          <CommandRow key={c.key} label={c.label} current={current ? formatValue(current.value) : undefined}>
            {'values' in c ? (
              c.values.map((v) => (
                <Button
                  key={String(v.value)}
                  variant="outlined"
                  disabled={command.busy}
                  onClick={() => command.send(c, v.value)}
                >
                  {v.label}
                </Button>
              ))
            ) : (
              <NumberCommand command={c} busy={command.busy} onSend={(n) => command.send(c, n)} />
            )}
          </CommandRow>
        );
      })}
      {switches.map((s) => (
        <CommandRow key={s.key} label={C.switchOf(s.key)} current={formatValue(s.value)}>
          {switchValues(s.value)!.map((v) => (
            <Button
              key={String(v)}
              variant={v === s.value ? 'contained' : 'outlined'}
              disabled={command.busy}
              onClick={() => command.send(stateTarget(s.key), v)}
            >
              {String(v)}
            </Button>
          ))}
        </CommandRow>
      ))}
      {commands.length === 0 && switches.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {C.none}
        </Typography>
      )}
    </Paper>
  );
}
