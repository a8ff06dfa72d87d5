// UPLOAD_CSV_CARD: sends a CSV of configurations (sensor, config, param, value) to one device, row by row through the
// device configuration call. A device must be chosen first: 'Harus memilih satu perangkat yang akan dikonfigurasi'.
import { useRef, useState } from 'react';
import { Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { notices } from '../../ui/snackbar/notices.js';
import type { CardViewProps } from '../common/definition.js';
import { parseConfigCsv } from './csvRows.js';

export function uploadDevices(view: { devices?: unknown }, model: Record<string, unknown> | undefined): number[] {
  const own = (model?.config as { device_id?: unknown } | undefined)?.device_id;
  const listed = Array.isArray(view.devices) ? view.devices : [];
  return [
    ...new Set(
      [...(own !== undefined && own !== '' ? [own] : []), ...listed]
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0),
    ),
  ];
}

export default function UploadView({
  component,
  view,
}: CardViewProps<{ devices?: (string | number)[]; button_label?: string }>) {
  const devices = uploadDevices(view, component.model);
  const [device, setDevice] = useState<number | ''>(devices.length === 1 ? devices[0]! : '');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string>();
  const file = useRef<HTMLInputElement>(null);

  const upload = async (f: File) => {
    if (device === '') return notices.warning(T.cardViews.uploadNeedDevice);
    const rows = parseConfigCsv(await f.text());
    if (!rows) return notices.error(T.cardViews.uploadInvalid);
    setBusy(true);
    let sent = 0;
    for (const row of rows) {
      const r = await api.call(contracts.commands.configure, { id: device, ...row } as never);
      if (!isOk(r)) {
        notices.error(
          failureMessage(r, { byCode: contracts.commands.configure.errors, fallback: T.dashboards.commands.failed }),
        );
        break;
      }
      sent++;
    }
    setBusy(false);
    setResult(T.cardViews.uploadRows(sent));
    if (sent === rows.length) notices.success(T.dashboards.commands.success);
  };

  return (
    <Stack spacing={1} sx={{ height: '100%', justifyContent: 'center' }}>
      {devices.length > 1 && (
        <TextField
          select
          size="small"
          label={T.cardViews.uploadDevice}
          value={device === '' ? '' : String(device)}
          onChange={(e) => setDevice(Number(e.target.value))}
          slotProps={{ htmlInput: { 'data-testid': 'upload-device' } }}
        >
          {devices.map((d) => (
            <MenuItem key={d} value={String(d)}>
              {d}
            </MenuItem>
          ))}
        </TextField>
      )}
      <input
        ref={file}
        type="file"
        accept=".csv,text/csv"
        hidden
        data-testid="upload-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void upload(f);
        }}
      />
      <Button
        variant="contained"
        disabled={busy}
        data-testid="upload-send"
        onClick={() => {
          if (device === '') return notices.warning(T.cardViews.uploadNeedDevice);
          file.current?.click();
        }}
      >
        {view.button_label || T.cardViews.upload}
      </Button>
      <Typography variant="caption" color="text.secondary" noWrap>
        {result ?? (device === '' ? T.cardViews.uploadNeedDevice : T.cardViews.uploadChooseFile)}
      </Typography>
    </Stack>
  );
}
