// Add (_dashboard_add_) and edit (_dashboard_edit_/{id}) a dashboard (spec 02 sections 2, 5, 8): name, description,
// refresh rate with its rules and helper text, decimals 0–5, parent only when other dashboards exist, custom URL,
// global variables. Add returns to the list; edit goes to the configuration page of the returned path.
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Box, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { contracts, DECIMALS_MAX, DECIMALS_MIN, T, type DashboardRecord, type OutputOf } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { FormActions } from '../../ui/FormActions.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { ROUTES, loadCall } from './dashboardCalls.js';
import { CallError, callOrThrow, notifyCallFailure, useLoad } from '../../api/call.js';
import {
  EMPTY_FORM,
  fieldOfPath,
  formBody,
  formValuesOf,
  type DashboardFormErrors,
  type DashboardFormField,
  type DashboardFormValues,
} from './dashboardForm.js';
import { GlobalVariablesField } from './GlobalVariablesField.js';

const f = T.dashboards.form;
const s = T.dashboards.screens;
type NavItem = OutputOf<typeof contracts.navs.list>['navs'][number];
const decimals = Array.from({ length: DECIMALS_MAX - DECIMALS_MIN + 1 }, (_, i) => DECIMALS_MIN + i);

export function DashboardFormPage({ routeKey }: ScreenProps) {
  const editing = routeKey === ROUTES.edit;
  const { id = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const [values, setValues] = useState<DashboardFormValues>(EMPTY_FORM);
  const [stored, setStored] = useState<DashboardRecord | undefined>();
  const [parents, setParents] = useState<NavItem[]>([]);
  const [errors, setErrors] = useState<DashboardFormErrors>({});
  const [busy, setBusy] = useState(true);

  useLoad(
    () =>
      Promise.all([
        editing ? loadCall(contracts.dashboards.get, { id: Number(id) }) : undefined,
        editing ? loadCall(contracts.dashboards.listNin, { id: Number(id) }) : loadCall(contracts.navs.list),
      ]),
    ([record, others]) => {
      setBusy(false);
      if (record) {
        if (!record.ok) {
          if (record.status === 404) navigate(area.to(ROUTES.list), { replace: true });
          return;
        }
        setStored(record.value.data);
        setValues(formValuesOf(record.value.data));
      }
      if (others.ok) setParents(others.value.navs);
    },
    [editing, id, area, navigate],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const out = formBody(values, stored);
    if (!out.ok) {
      setErrors(out.errors);
      if (out.errors.label === f.nameRequired) notices.warning(f.nameRequired);
      return;
    }
    setErrors({});
    setBusy(true);
    // spec 02 section 8: a refusal reads 'Edit Dashboard Gagal' / 'Tambah Dashboard Gagal'
    const rules = { fallback: editing ? T.dashboards.notify.editFailed : T.dashboards.notify.addFailed };
    try {
      const r = editing
        ? await callOrThrow(contracts.dashboards.edit, { id: Number(id), ...out.body }, rules)
        : await callOrThrow(contracts.dashboards.add, out.body, rules);
      notices.success(editing ? T.dashboards.notify.editSuccess : T.dashboards.notify.addSuccess);
      navigate(editing ? area.to(ROUTES.conf, { path: r.path }) : area.to(ROUTES.list));
    } catch (e) {
      const serverErrors: DashboardFormErrors = {};
      for (const problem of e instanceof CallError ? e.problems : []) {
        const field = fieldOfPath(problem.path);
        if (field && !serverErrors[field]) serverErrors[field] = problem.message;
      }
      setErrors(serverErrors);
      notifyCallFailure(e, rules.fallback);
    } finally {
      setBusy(false);
    }
  };

  const set = (name: DashboardFormField) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [name]: name === 'decimals' ? Number(e.target.value) : e.target.value }));
  const field = (name: DashboardFormField) => ({
    name,
    value: values[name],
    onChange: set(name),
    error: !!errors[name],
    fullWidth: true,
    disabled: busy,
  });

  return (
    <Card sx={{ position: 'relative', maxWidth: 880 }}>
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 3 }}>
          {editing ? s.editTitle : s.addTitle}
        </Typography>
        <Box component="form" noValidate onSubmit={submit}>
          <Stack spacing={1}>
            <TextField
              {...field('label')}
              required
              autoFocus
              label={f.name}
              helperText={errors.label ?? ' '}
              slotProps={{ htmlInput: { maxLength: 64 } }}
            />
            <TextField
              {...field('desc')}
              label={f.desc}
              multiline
              minRows={2}
              helperText={errors.desc ?? ' '}
              slotProps={{ htmlInput: { maxLength: 256 } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                {...field('refresh')}
                required
                type="number"
                label={f.refreshRate}
                helperText={errors.refresh ?? f.refreshHelper}
                slotProps={{ htmlInput: { min: 0, step: 100 } }}
              />
              <TextField
                {...field('decimals')}
                select
                label={s.decimals}
                helperText={errors.decimals ?? s.decimalsHelper}
                sx={{ maxWidth: { sm: 220 } }}
              >
                {decimals.map((d) => (
                  <MenuItem key={d} value={d}>
                    {d}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            {parents.length > 0 && (
              <TextField
                {...field('parent')}
                select
                label={f.parent}
                helperText={errors.parent ?? ' '}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">{s.noParent}</MenuItem>
                {parents.map((p) => (
                  <MenuItem key={p.id} value={String(p.id)}>{`${p.label} (/${p.path})`}</MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              {...field('customUrl')}
              type="url"
              label={s.customUrl}
              helperText={errors.customUrl ?? s.customUrlHelper}
            />
            <GlobalVariablesField
              value={values.variables}
              error={errors.variables}
              disabled={busy}
              onChange={(variables) => setValues((v) => ({ ...v, variables }))}
            />
          </Stack>
          <FormActions
            onCancel={() =>
              navigate(editing && stored ? area.to(ROUTES.conf, { path: stored.path }) : area.to(ROUTES.list))
            }
            busy={busy}
          />
        </Box>
      </CardContent>
      <LoadingOverlay open={busy} />
    </Card>
  );
}
