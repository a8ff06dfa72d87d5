// Add a component manually ({path}/manual_add, title 'Add Dashboard') or edit one as JSON ({path}/manual_edit/{key},
// key read-only): Component Key and Konfigurasi; the server validates the whole conf_dashboard; on success back two
// levels, to the dashboard's configuration view.
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { contracts, COMPONENT_KEY_MAX, T, type DashboardRecord } from '@sentra/contracts';
import { CallError, callOrThrow, notifyCallFailure, useLoad } from '../../api/call.js';
import { usePageTitle } from '../../shell/pageTitle.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useConfirm } from '../../ui/ConfirmDialog.js';
import { FormActions } from '../../ui/FormActions.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { ROUTES, dashboardByPath } from './dashboardCalls.js';
import {
  configText,
  manualComponent,
  newComponentConfig,
  withComponent,
  type ManualErrors,
  type ManualValues,
} from './manualComponent.js';

const s = T.dashboards.screens;
const n = T.dashboards.notify;

export function ManualComponentPage({ routeKey }: ScreenProps) {
  const editing = routeKey === ROUTES.manualEdit;
  const { path = '', componentKey = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [dashboard, setDashboard] = useState<DashboardRecord | undefined>();
  const [values, setValues] = useState<ManualValues>({ key: editing ? componentKey : '', config: '' });
  const [errors, setErrors] = useState<ManualErrors>({});
  const [missing, setMissing] = useState<string | undefined>();
  const [busy, setBusy] = useState(true);
  const back = () => navigate(area.to(ROUTES.conf, { path }));

  // the top bar names the dashboard the component belongs to, as on its view (issue 28)
  usePageTitle(dashboard?.label);

  useLoad(
    () => dashboardByPath(path),
    (r) => {
      setBusy(false);
      if (r.status !== 'ready')
        return setMissing(r.status === 'failed' && r.notFound ? s.dashboardNotFound : undefined);
      const conf = r.data.conf_dashboard as Record<string, unknown>;
      const existing = (conf.dashboard as Record<string, Record<string, unknown>> | undefined)?.[componentKey];
      if (editing && !existing) return setMissing(s.componentNotFound);
      setDashboard(r.data);
      setValues((v) => ({ ...v, config: editing ? configText(existing!) : newComponentConfig(conf) }));
    },
    [path, componentKey, editing],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!dashboard) return;
    const out = manualComponent(values);
    if (!out.ok) return setErrors(out.errors);
    const conf = dashboard.conf_dashboard as Record<string, unknown>;
    const taken = Object.prototype.hasOwnProperty.call(conf.dashboard ?? {}, out.key);
    // "Saving a component under an existing key asks confirmation to replace it." Not a confirmed action
    // (useConfirmedAction): the question is asked only for a taken key, and a refusal also fills the form.
    if (
      !editing &&
      taken &&
      !(await confirm({ title: T.dashboards.variables.overwriteTitle, message: T.dashboards.confirm.saveComponent }))
    )
      return;
    setErrors({});
    setBusy(true);
    // spec 02 section 8: a refusal reads 'Edit Dashboard Gagal' / 'Add Dashboard Gagal'
    const failed = editing ? n.editFailed : n.manualAddFailed;
    try {
      const r = await callOrThrow(
        contracts.dashboards.edit,
        { id: dashboard.id, conf_dashboard: withComponent(conf, out.key, out.component) },
        { fallback: failed },
      );
      notices.success(editing ? n.editSuccess : n.manualAddSuccess);
      navigate(area.to(ROUTES.conf, { path: r.path }));
    } catch (e) {
      const first = e instanceof CallError ? e.problems[0] : undefined;
      if (first) {
        // the component's own fields show under Konfigurasi with their path inside it
        const inside = first.path.replace(new RegExp(`^conf_dashboard\\.dashboard\\.${out.key}\\.?`), '');
        setErrors({ config: `${inside || first.path}: ${first.message}` });
      }
      notifyCallFailure(e, failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ position: 'relative', maxWidth: 880 }}>
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 3 }}>
          {editing ? s.manualEditTitle : T.dashboards.layout.manualTitle}
        </Typography>
        {missing ? (
          <Alert severity="warning" action={<Button onClick={back}>{T.common.back}</Button>}>
            {missing}
          </Alert>
        ) : (
          <Box component="form" noValidate onSubmit={submit}>
            <Stack spacing={2}>
              <TextField
                name="key"
                label={s.componentKey}
                value={values.key}
                onChange={(e) => setValues((v) => ({ ...v, key: e.target.value }))}
                error={!!errors.key}
                helperText={errors.key ?? (editing ? T.credentials.readOnly : ' ')}
                required
                autoFocus={!editing}
                disabled={busy}
                slotProps={{ input: { readOnly: editing }, htmlInput: { maxLength: COMPONENT_KEY_MAX } }}
              />
              <TextField
                name="config"
                label={s.configuration}
                value={values.config}
                onChange={(e) => setValues((v) => ({ ...v, config: e.target.value }))}
                error={!!errors.config}
                helperText={errors.config ?? s.configurationHelper}
                required
                multiline
                minRows={12}
                disabled={busy}
                slotProps={{ input: { sx: { fontFamily: 'monospace', fontSize: 13 } } }}
              />
            </Stack>
            <FormActions onCancel={back} busy={busy} />
          </Box>
        )}
      </CardContent>
      <LoadingOverlay open={busy} />
    </Card>
  );
}
