// The device list's dialogs (spec 03 section 2.1): "Kontrol device" for the bulk Reboot and Kirim command (lists the
// chosen devices by name and serial, then each one's outcome) and "Tambah Dashboard" (Generate Dashboard of a dummy
// device).
import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { T, type CommandInput, type DeviceSummary } from '@sentra/contracts';
import { commandOfForm, type BulkOutcome, type CommandForm } from './bulkActions.js';
import { FormDialog } from '../../ui/FormDialog.js';
import { editedValue, errorShown } from '../../ui/forms.js';

const EMPTY_COMMAND: CommandForm = { sensor: '', configtype: '', param: '', value: '' };
const FIELDS: readonly [keyof CommandForm, string][] = [
  ['sensor', T.deviceData.colSensor],
  ['configtype', T.deviceData.colConfigtype],
  ['param', T.deviceData.colParam],
  ['value', T.deviceData.value],
];

export interface ControlDialogProps {
  open: boolean;
  action: string;
  /** the form's first values (Reboot's command); empty for Kirim command */
  initial?: CommandForm;
  devices: readonly DeviceSummary[];
  busy: boolean;
  /** each device's outcome once sent */
  outcomes: readonly BulkOutcome<DeviceSummary>[] | null;
  onClose(): void;
  onSend(command: CommandInput): void;
}

export function ControlDialog({ open, action, initial, devices, busy, outcomes, onClose, onSend }: ControlDialogProps) {
  const [form, setForm] = useState<CommandForm>(initial ?? EMPTY_COMMAND);
  const [errors, setErrors] = useState<Partial<Record<keyof CommandForm, string>>>({});
  useEffect(() => {
    if (open) {
      setForm(initial ?? EMPTY_COMMAND);
      setErrors({});
    }
  }, [open, initial]);
  const outcomeOf = (id: number) => outcomes?.find((o) => o.device.id === id);
  const send = () => {
    const r = commandOfForm(form);
    if (!r.ok) return setErrors(r.errors);
    setErrors({});
    onSend(r.command);
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{T.devices.controlTitle}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="subtitle2">{T.devices.controlAction(action)}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {T.devices.controlHint}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1 }}>
          {FIELDS.map(([name, label]) => (
            <TextField
              key={name}
              size="small"
              label={label}
              value={form[name]}
              disabled={busy}
              error={Boolean(errors[name])}
              helperText={errors[name] ?? ' '}
              onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
              slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
            />
          ))}
        </Stack>
        {busy && <Alert severity="info">{T.devices.controlSending}</Alert>}
        <List dense data-testid="control-devices">
          {devices.map((d) => {
            const o = outcomeOf(d.id);
            return (
              <ListItem
                key={d.id}
                disableGutters
                secondaryAction={
                  o && (
                    <Chip
                      size="small"
                      color={o.ok ? 'success' : 'error'}
                      label={o.ok ? T.devices.bulkOk : T.devices.bulkFailed(o.reason ?? '')}
                    />
                  )
                }
              >
                <ListItemText primary={d.name} secondary={d.serial_number} />
              </ListItem>
            );
          })}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {outcomes ? T.deviceData.close : T.common.cancel}
        </Button>
        <Button variant="contained" onClick={send} disabled={busy}>
          {T.devices.controlSend}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function DashboardDialog({
  device,
  busy,
  onClose,
  onSubmit,
}: {
  device: DeviceSummary | null;
  busy: boolean;
  onClose(): void;
  onSubmit(name: string): void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (device) {
      setName(device.name);
      setError(undefined);
    }
  }, [device]);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const value = name.trim();
    if (!value) return setError(T.common.required);
    if (value.length > 64) return setError(T.common.max(64));
    onSubmit(value);
  };
  return (
    <FormDialog
      open={device !== null}
      title={T.devices.addDashboardTitle}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={T.devices.addDashboardSubmit}
      overlay={false}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        label={T.devices.dashboardName}
        {...editedValue(name, setName, () => setError(undefined))}
        disabled={busy}
        {...errorShown(error)}
      />
    </FormDialog>
  );
}
