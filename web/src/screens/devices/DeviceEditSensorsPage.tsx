// The sensor configuration edit (spec 03 section 2.7): "Edit Device" / "Formulir Edit Konfigurasi Device", one JSON
// field "Konfigurasi" shown pretty-formatted; invalid JSON warns "Konfigurasi harus dalam bentuk JSON yang benar".
// Saved through the device family's own edit/sensors call.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Box, TextField, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { FormCard } from '../../ui/FormCard.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceRoute } from './deviceRoutes.js';
import { editSensors, DeviceCallError } from './deviceCalls.js';
import { parseSensorsText, prettySensors } from './sensorsText.js';
import { useDevice } from './useDevice.js';

export function DeviceEditSensorsPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { id, device, loading } = useDevice();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (device) setText(prettySensors(device.sensors));
  }, [device]);

  const format = () => {
    const parsed = parseSensorsText(text);
    if (parsed.ok) {
      setText(parsed.pretty);
      setError(undefined);
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = parseSensorsText(text);
    if (!parsed.ok) {
      setError(T.devices.sensorsJson);
      notices.warning(T.devices.sensorsJson);
      return;
    }
    setText(parsed.pretty);
    setBusy(true);
    try {
      await editSensors(device!.category, id, parsed.value);
      notices.success(T.devices.editSuccess);
      navigate(area.to(DeviceRoute.list));
    } catch (err) {
      notices.error(err instanceof DeviceCallError ? err.message : T.devices.editFailed);
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 760 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
        {T.devices.editSensorsTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {T.devices.editSensorsSubtitle}
      </Typography>
      <FormCard
        onSubmit={submit}
        onCancel={() => navigate(area.to(DeviceRoute.list))}
        busy={busy}
        loading={loading}
        canSave={Boolean(device)}
      >
        <TextField
          label={T.devices.sensors}
          value={text}
          multiline
          minRows={12}
          fullWidth
          disabled={busy || !device}
          error={Boolean(error)}
          helperText={error ?? T.devices.sensorsHelp}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
          }}
          onBlur={format}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      </FormCard>
    </Box>
  );
}
