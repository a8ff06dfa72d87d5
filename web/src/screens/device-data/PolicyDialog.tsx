// The Policy dialog (spec 03 sections 2.5, 5, 8): a sensor row's policies as JSON text, pretty-formatted back; text
// that is not a JSON object or array warns "Policy harus dalam bentuk JSON yang benar". When the stored policies cannot
// be read the dialog says so and offers no Simpan (saving an empty text would overwrite them).
import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';
import { loadFailureText } from './loadFailure.js';

export function parsePolicies(text: string): object | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}

export function PolicyDialog({
  deviceId,
  sensorKey,
  onClose,
}: {
  deviceId: number;
  sensorKey: string;
  onClose: () => void;
}) {
  const [text, setText] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void api.call(contracts.deviceData.policyGet, { device_id: deviceId, key: sensorKey }).then((r) => {
      if (!live) return;
      if (isOk(r)) setText(JSON.stringify(r.body.policies, null, 2));
      else setLoadError(loadFailureText(r));
    });
    return () => {
      live = false;
    };
  }, [deviceId, sensorKey]);

  const save = async () => {
    const policies = parsePolicies(text ?? '');
    if (!policies) return notices.warning(T.devices.policyJson);
    setText(JSON.stringify(policies, null, 2));
    setBusy(true);
    const r = await api.call(contracts.deviceData.policyEdit, {
      device_id: deviceId,
      key: sensorKey,
      policies: policies as Record<string, unknown>,
    });
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
        {loadError ? (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="load-failed">
            {loadError}
          </Alert>
        ) : (
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
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={text === null || busy}>
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
