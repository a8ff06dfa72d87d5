// The sensor configuration edit (spec 03 section 2.7): "Edit Device" / "Formulir Edit Konfigurasi Device", one JSON
// field "Konfigurasi" shown pretty-formatted; invalid JSON warns "Konfigurasi harus dalam bentuk JSON yang benar".
// Saved through the device family's own edit/sensors call.
import { useEffect, useState } from 'react';
import { Box, TextField, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { FormCard } from '../../ui/FormCard.js';
import { notices } from '../../ui/snackbar/notices.js';
import { editSensors } from './deviceCalls.js';
import { parseSensorsText, prettySensors } from './sensorsText.js';
import { useDeviceEdit } from './useDevice.js';

export function DeviceEditSensorsPage() {
  const { id, device, busy, save, formCard } = useDeviceEdit();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();

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
    await save(() => editSensors(device!.category, id, parsed.value));
  };

  return (
    <Box sx={{ maxWidth: 760 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
        {T.devices.editSensorsTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {T.devices.editSensorsSubtitle}
      </Typography>
      <FormCard onSubmit={submit} {...formCard}>
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
