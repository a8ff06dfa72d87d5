// The device list's dialogs (spec 03 section 2.1): "Kontrol device" for the bulk actions (lists the chosen devices by
// name and serial; sending is not wired yet) and "Tambah Dashboard" (Generate Dashboard of a dummy device).
import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, TextField, Typography } from '@mui/material';
import { T, type DeviceSummary } from '@sentra/contracts';

export function ControlDialog({ open, action, devices, onClose, onSend }: { open: boolean; action: string; devices: readonly DeviceSummary[]; onClose(): void; onSend(): void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{T.devices.controlTitle}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="subtitle2">{T.devices.controlAction(action)}</Typography>
        <List dense data-testid="control-devices">
          {devices.map((d) => (
            <ListItem key={d.id} disableGutters>
              <ListItemText primary={d.name} secondary={d.serial_number} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" onClick={onSend}>{T.devices.controlSend}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function DashboardDialog({ device, busy, onClose, onSubmit }: { device: DeviceSummary | null; busy: boolean; onClose(): void; onSubmit(name: string): void }) {
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
    <Dialog open={device !== null} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{T.devices.addDashboardTitle}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={T.devices.dashboardName}
            value={name}
            disabled={busy}
            error={Boolean(error)}
            helperText={error}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>{T.common.cancel}</Button>
          <Button type="submit" variant="contained" disabled={busy}>{T.devices.addDashboardSubmit}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
