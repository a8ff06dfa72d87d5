// The Policy dialog (spec 03 sections 2.5, 5, 8): a sensor row's policies as JSON text, pretty-formatted back; text
// that is not a JSON object or array warns "Policy harus dalam bentuk JSON yang benar".
import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';

export function parsePolicies(text: string): object | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}

export function PolicyDialog({ deviceId, sensorKey, onClose }: { deviceId: number; sensorKey: string; onClose: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void api.call(contracts.deviceData.policyGet, { device_id: deviceId, key: sensorKey }).then((r) => setText(JSON.stringify(isOk(r) ? r.body.policies : {}, null, 2)));
  }, [deviceId, sensorKey]);

  const save = async () => {
    const policies = parsePolicies(text ?? '');
    if (!policies) return notices.warning(T.devices.policyJson);
    setText(JSON.stringify(policies, null, 2));
    setBusy(true);
    const r = await api.call(contracts.deviceData.policyEdit, { device_id: deviceId, key: sensorKey, policies: policies as Record<string, unknown> });
    setBusy(false);
    if (isOk(r)) {
      notices.success(T.deviceData.policySuccess);
      onClose();
    } else notices.error(T.deviceData.policyFailed);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{T.deviceData.policyTitle}</DialogTitle>
      <DialogContent>
        <TextField
          sx={{ mt: 1 }}
          fullWidth
          multiline
          minRows={8}
          label={T.deviceData.policy}
          value={text ?? ''}
          disabled={text === null || busy}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={text === null || busy}>{T.common.save}</Button>
      </DialogActions>
    </Dialog>
  );
}
