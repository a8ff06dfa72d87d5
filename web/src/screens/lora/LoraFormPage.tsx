// Add and edit of a LoRa network server (spec 03 section 2.11 leaves the forms open): MAC (6 or 8 bytes hex), name
// (1–32), server (host[:port] or URL, ≤ 256) and the optional ChirpStack application UUID its integration's topics
// carry (issue 27; empty: the integration uses the application's numeric id), checked with the contract's rules; a
// taken MAC answers -12.
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Box, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { T, contracts } from '@sentra/contracts';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { getLoraServer, saveLoraServer } from './loraCalls.js';
import { FormActions } from '../../ui/FormActions.js';

const schema = contracts.lora.add.input;

export function LoraFormPage({ routeKey }: ScreenProps) {
  const { id = '' } = useParams();
  const editing = routeKey === '_lora_edit_/{id}';
  const area = useAppArea();
  const navigate = useNavigate();
  const [form, setForm] = useState({ mac: '', name: '', server: '', application_uuid: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [loading, setLoading] = useState(editing);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!editing) return;
    getLoraServer(Number(id))
      .then(
        (s) => setForm({ mac: s.mac, name: s.name, server: s.server, application_uuid: s.application_uuid ?? '' }),
        () => undefined,
      )
      .finally(() => setLoading(false));
  }, [editing, id]);

  const set = (field: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setForm((f) => ({ ...f, [field]: e.target.value }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = schema.safeParse(form);
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setBusy(true);
    try {
      await saveLoraServer({ ...(editing ? { id: Number(id) } : {}), ...form });
      notices.success(editing ? T.lora.editSuccess : T.lora.addSuccess);
      navigate(area.to('_lora_list_'));
    } catch (err) {
      if (err instanceof DeviceCallError) setErrors(err.fieldErrors);
      notices.error(err instanceof DeviceCallError ? err.message : editing ? T.lora.editFailed : T.lora.addFailed);
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 560 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
        {editing ? T.lora.editTitle : T.lora.addTitle}
      </Typography>
      <Card variant="outlined" sx={{ position: 'relative' }}>
        <CardContent component="form" noValidate onSubmit={submit}>
          <Stack spacing={2}>
            <TextField
              label={T.lora.mac}
              value={form.mac}
              required
              disabled={busy}
              error={Boolean(errors.mac)}
              helperText={errors.mac ?? T.lora.macHelp}
              onChange={set('mac')}
              slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
            />
            <TextField
              label={T.lora.name}
              value={form.name}
              required
              disabled={busy}
              error={Boolean(errors.name)}
              helperText={errors.name}
              onChange={set('name')}
            />
            <TextField
              label={T.lora.server}
              value={form.server}
              required
              disabled={busy}
              error={Boolean(errors.server)}
              helperText={errors.server ?? T.lora.serverHelp}
              onChange={set('server')}
            />
            <TextField
              label={T.lora.applicationUuid}
              value={form.application_uuid}
              disabled={busy}
              error={Boolean(errors.application_uuid)}
              helperText={errors.application_uuid ?? T.lora.applicationUuidHelp}
              onChange={set('application_uuid')}
              placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
              slotProps={{ htmlInput: { style: { fontFamily: 'monospace' }, 'data-testid': 'lora-application-uuid' } }}
            />
          </Stack>
          <FormActions onCancel={() => navigate(area.to('_lora_list_'))} busy={busy} blocked={loading} spacing={1} />
        </CardContent>
        <LoadingOverlay open={loading || busy} />
      </Card>
    </Box>
  );
}
