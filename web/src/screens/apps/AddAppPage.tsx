// Add application (/admin/apps/add, spec 01 sections 2, 5, 8): image on the left, the form on the right; name,
// domain and description are sent (description only when non-empty), url is not. A chosen template then creates its
// dashboard in the new application (issue 28: the spec's picker was a stub).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Box, Button, Card, CardContent, Chip, Stack, TextField } from '@mui/material';
import { AddAppInput, contracts, T, templateDashboard } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk, resultCode } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { fieldErrorsOf, fieldErrorsOfEnvelope, type FieldErrors } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { PictureForm } from '../../ui/FormPageCard.js';
import { AppImagePicker } from './AppImagePicker.js';
import { TemplatePicker, type TemplateCard } from './TemplatePicker.js';
import { FormActions } from '../../ui/FormActions.js';

type Field = 'name' | 'domain' | 'description' | 'url';
/** one add attempt's notice replaces the previous attempt's ("Domain sudah terpakai" goes when the next one succeeds) */
const addNotice = notices.about('apps.add');

/** the template's dashboard, added in the new application (the tenant's call, addressed to that domain) */
async function createFromTemplate(domain: string, template: TemplateCard): Promise<void> {
  const r = await api.call(
    contracts.dashboards.add,
    { label: template.name, conf_dashboard: templateDashboard(template.name) },
    { domain, isTenant: true },
  );
  if (isOk(r)) notices.success(T.templatePicker.created(template.name));
  else notices.error(T.templatePicker.createFailed(template.name));
}

export function AddAppPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', domain: '', description: '', url: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [picking, setPicking] = useState(false);
  const [template, setTemplate] = useState<TemplateCard | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = {
      name: values.name.trim(),
      domain: values.domain.trim(),
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
    };
    const parsed = AddAppInput.safeParse(input);
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    setBusy(true);
    const r = await api.call(contracts.apps.add, parsed.data);
    setBusy(false);
    if (isOk(r)) {
      addNotice.success(T.application.addSuccess);
      if (template) {
        setBusy(true);
        await createFromTemplate(parsed.data.domain, template);
      }
      navigate('/admin/apps', { replace: true });
      return;
    }
    setErrors(fieldErrorsOfEnvelope(r.body));
    const message = failureMessage(r, { byCode: contracts.apps.add.errors, fallback: T.application.addFailed });
    if (r.code === 400 && resultCode(r) === -2) addNotice.warning(message);
    else addNotice.error(message);
  };

  const field = (name: Field, label: string, extra: Partial<React.ComponentProps<typeof TextField>> = {}) => (
    <TextField
      name={name}
      label={label}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={!!errors[name]}
      helperText={errors[name] ?? ' '}
      fullWidth
      disabled={busy}
      {...extra}
    />
  );

  return (
    <Card sx={{ position: 'relative' }}>
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <PictureForm onSubmit={submit} columns="minmax(220px, 1fr) 2fr">
          <AppImagePicker />
          <Box>
            <Stack spacing={0.5}>
              {field('name', T.appForm.name, { required: true, autoFocus: true })}
              {field('domain', T.appForm.domain, { required: true })}
              {field('description', T.appForm.description, { multiline: true, minRows: 3 })}
              {field('url', T.appForm.url, { type: 'url' })}
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Button variant="outlined" onClick={() => setPicking(true)} disabled={busy}>
                {T.appForm.template}
              </Button>
              {template && <Chip label={T.appForm.templateChosen(template.name)} onDelete={() => setTemplate(null)} />}
            </Stack>
            <FormActions onCancel={() => navigate('/admin/apps')} busy={busy} />
          </Box>
        </PictureForm>
      </CardContent>
      <LoadingOverlay open={busy} />
      <TemplatePicker
        open={picking}
        onClose={() => setPicking(false)}
        onChoose={(c) => {
          setTemplate(c);
          setPicking(false);
        }}
      />
    </Card>
  );
}
