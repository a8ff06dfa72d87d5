// "Edit Device" (spec 03 section 2.7): serial number (read-only), name, description, latitude, longitude; Batal, Simpan.
// Checked with the contract's rules before sending; "Edit Perangkat Sukses" returns to the list, a failure stays.
import { useEffect, useState } from 'react';
import { Box, Stack, TextField, Typography } from '@mui/material';
import { z } from 'zod';
import { T, DEVICE_DESCRIPTION_MAX, deviceDescription, deviceName, latitude, longitude } from '@sentra/contracts';
import { FormCard } from '../../ui/FormCard.js';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import { editDevice, DeviceCallError } from './deviceCalls.js';
import { useDeviceEdit } from './useDevice.js';

interface InfoForm {
  name: string;
  description: string;
  latitude: string;
  longitude: string;
}

const optionalNumber = <S extends z.ZodType>(s: S) => z.union([z.literal(''), s]);
const schema = z.object({
  name: deviceName,
  description: deviceDescription,
  latitude: optionalNumber(latitude),
  longitude: optionalNumber(longitude),
});

export function validateEditInfo(form: InfoForm): FieldErrors {
  const r = schema.safeParse({ ...form, latitude: form.latitude.trim(), longitude: form.longitude.trim() });
  return r.success ? {} : fieldErrorsOf(r.error);
}

export function DeviceEditInfoPage() {
  const { id, device, busy, save, formCard } = useDeviceEdit();
  const [form, setForm] = useState<InfoForm>({ name: '', description: '', latitude: '', longitude: '' });
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    if (device)
      setForm({
        name: device.name,
        description: device.description ?? '',
        latitude: device.latitude?.toString() ?? '',
        longitude: device.longitude?.toString() ?? '',
      });
  }, [device]);

  const set = (field: keyof InfoForm) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setForm((f) => ({ ...f, [field]: e.target.value }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problems = validateEditInfo(form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    await save(
      () =>
        editDevice({
          id,
          name: form.name.trim(),
          description: form.description,
          latitude: form.latitude.trim(),
          longitude: form.longitude.trim(),
        }),
      (err) => {
        if (err instanceof DeviceCallError) setErrors(err.fieldErrors);
      },
    );
  };

  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
        {T.devices.editTitle}
      </Typography>
      <FormCard onSubmit={submit} {...formCard}>
        <Stack spacing={2}>
          <TextField
            label={T.devices.serialNumber}
            value={device?.serial_number ?? ''}
            slotProps={{ htmlInput: { readOnly: true } }}
            helperText={T.credentials.readOnly}
          />
          <TextField
            label={T.devices.name}
            value={form.name}
            required
            disabled={busy}
            onChange={set('name')}
            error={Boolean(errors.name)}
            helperText={errors.name}
          />
          <TextField
            label={T.devices.description}
            value={form.description}
            disabled={busy}
            multiline
            minRows={2}
            onChange={set('description')}
            error={Boolean(errors.description)}
            helperText={errors.description ?? `${form.description.length}/${DEVICE_DESCRIPTION_MAX}`}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={T.devices.latitude}
              value={form.latitude}
              disabled={busy}
              onChange={set('latitude')}
              error={Boolean(errors.latitude)}
              helperText={errors.latitude}
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
            <TextField
              label={T.devices.longitude}
              value={form.longitude}
              disabled={busy}
              onChange={set('longitude')}
              error={Boolean(errors.longitude)}
              helperText={errors.longitude}
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          </Stack>
        </Stack>
      </FormCard>
    </Box>
  );
}
