// "Ubah Konfigurasi" (spec 03 sections 2.5, 5, 8): a number input, a boolean toggle, a text input or a JSON form by
// the row's datatype; an empty value is "Input error"; a number is sent as a number; text that is not JSON warns
// "Konfigurasi harus dalam bentuk JSON yang benar" (as the Policy dialog does). While the device answers the info
// "Konfigurasi sedang dikirim. Mohon tunggu" shows; then "Konfigurasi berhasil" closes the dialog (the row shows the
// value sent), or "Konfigurasi gagal" stays with the reason.
import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { COMMAND_ERRORS, contracts, T, type DeviceDataRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { notices } from '../../ui/snackbar/notices.js';

export type ValueEditor = 'number' | 'boolean' | 'text' | 'json';

export function editorOf(datatype: string): ValueEditor {
  if (datatype === 'number') return 'number';
  if (datatype === 'boolean') return 'boolean';
  if (datatype === 'string' || datatype === 'datetime' || datatype === 'image') return 'text';
  return 'json';
}

/** the value to send, or the message to show (spec section 5); `warn`: also a warning notice (text that is not JSON) */
export function parseConfigValue(
  editor: ValueEditor,
  text: string,
  checked: boolean,
): { ok: true; value: unknown } | { ok: false; message: string; warn?: true } {
  if (editor === 'boolean') return { ok: true, value: checked };
  if (!text.trim()) return { ok: false, message: T.deviceData.inputError };
  if (editor === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: T.deviceData.inputError };
  }
  if (editor === 'json') {
    try {
      const v: unknown = JSON.parse(text);
      if (v !== null && typeof v === 'object') return { ok: true, value: v };
    } catch {
      // below
    }
    return { ok: false, message: T.devices.sensorsJson, warn: true };
  }
  return { ok: true, value: text };
}

const initialText = (row: DeviceDataRow, editor: ValueEditor) =>
  row.value === null || row.value === undefined
    ? ''
    : editor === 'json'
      ? JSON.stringify(row.value, null, 2)
      : editor === 'boolean'
        ? ''
        : String(row.value);

export function ConfigDialog({
  deviceId,
  row,
  onClose,
  onSent,
  info,
}: {
  deviceId: number;
  row: DeviceDataRow;
  /** the line naming what is set, when the row's sensor/configtype/param does not (a state) */
  info?: string;
  onClose: () => void;
  onSent?: (value: unknown, acceptedAt: number) => void;
}) {
  const editor = editorOf(row.datatype);
  const [text, setText] = useState(() => initialText(row, editor));
  const [checked, setChecked] = useState(row.value === true);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async () => {
    const parsed = parseConfigValue(editor, text, checked);
    if (!parsed.ok) {
      if (parsed.warn) notices.warning(parsed.message);
      return setError(parsed.message);
    }
    if (editor === 'json') setText(JSON.stringify(parsed.value, null, 2));
    setError(null);
    setFailure(null);
    setSending(true);
    // the result replaces "Konfigurasi sedang dikirim" (one topic per device param)
    const notice = notices.about(`config:${deviceId}:${row.sensor}/${row.configtype}/${row.param}`);
    notice.info(T.deviceData.configSending);
    const r = await api.call(contracts.commands.configure, {
      id: deviceId,
      sensor: row.sensor,
      configtype: row.configtype,
      param: row.param,
      value: parsed.value as never,
    });
    setSending(false);
    if (isOk(r)) {
      notice.success(T.deviceData.configSuccess);
      // the device accepted it at reply_ts: the row shows that moment, not its last report's
      onSent?.(parsed.value, r.body.data.reply_ts);
      onClose();
    } else {
      const reason = failureMessage(r, { byCode: COMMAND_ERRORS, fallback: '' });
      notice.error(T.deviceData.configFailed);
      setFailure(reason ? `${T.deviceData.configFailed}: ${reason}` : T.deviceData.configFailed);
    }
  };

  return (
    <Dialog open onClose={sending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{T.deviceData.configTitle}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {info ?? T.deviceData.configInfo(row.sensor, row.configtype, row.param, row.datatype)}
        </Typography>
        {editor === 'boolean' ? (
          <FormControlLabel
            control={<Switch checked={checked} onChange={(e) => setChecked(e.target.checked)} disabled={sending} />}
            label={row.param}
          />
        ) : (
          <TextField
            autoFocus
            fullWidth
            label={T.deviceData.value}
            value={text}
            disabled={sending}
            onChange={(e) => (setText(e.target.value), setError(null))}
            error={Boolean(error)}
            helperText={error ?? ' '}
            multiline={editor === 'json'}
            minRows={editor === 'json' ? 6 : undefined}
            type={editor === 'number' ? 'number' : 'text'}
            slotProps={{ htmlInput: editor === 'json' ? { style: { fontFamily: 'monospace' } } : { step: 'any' } }}
          />
        )}
        {sending && (
          <Alert severity="info" sx={{ mt: 1 }}>
            {T.deviceData.configSending}
          </Alert>
        )}
        {failure && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={sending}>
          {T.common.cancel}
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={sending}>
          {T.deviceData.send}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
