// The manual rule form (spec 03 sections 2.9, 5): name, category (the twelve by name), condition, action and details
// as JSON text, description, key (add only); key and category read-only on edit. "Tambah rule sukses/gagal", "Edit
// rule sukses/gagal"; success returns to the list. The "Uji rule" panel tests the condition as typed.
import { useEffect, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Box, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { RULE_KEY_MAX, T, type TriggerEntry } from '@sentra/contracts';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import type { FieldErrors } from '../../ui/forms.js';
import { FormCard } from '../../ui/FormCard.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { addRule, editRule, getRule } from './ruleCalls.js';
import { infoLimitError, RULE_CATEGORY_LIST } from './ruleDraft.js';
import { checkManual, EMPTY_MANUAL, JSON_FIELDS, parseObject, type ManualForm } from './ruleManualForm.js';
import { RuleTestPanel, type RuleTestSubject } from './RuleTestPanel.js';
import { RuleRoute } from './routes.js';

const S = T.ruleScreens;
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** What the test panel needs from the typed condition: its triggers and the device the first DEVICE_ID entry names. */
function testSubject(form: ManualForm): RuleTestSubject | null {
  const condition = parseObject(form.condition);
  if (!condition) return null;
  const triggers = (
    Array.isArray(condition.triggers)
      ? condition.triggers
      : Array.isArray(condition.groups)
        ? (condition.groups as unknown[][]).flat()
        : []
  ) as TriggerEntry[];
  const device = triggers.find((t) => t?.field?.query === 'DEVICE_ID');
  const deviceId = Number(device?.value);
  return {
    category: Number(form.category),
    trigger: [],
    condition,
    deviceId: Number.isSafeInteger(deviceId) && deviceId > 0 ? deviceId : null,
  };
}

export function RuleManualPage({ routeKey }: ScreenProps) {
  const { id = '' } = useParams();
  const editing = routeKey === RuleRoute.edit;
  const area = useAppArea();
  const navigate = useNavigate();
  const [form, setForm] = useState<ManualForm>(EMPTY_MANUAL);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [loading, setLoading] = useState(editing);
  const [busy, setBusy] = useState(false);
  const subject = useMemo(() => testSubject(form), [form]);

  useEffect(() => {
    if (!editing) return;
    getRule(Number(id))
      .then(
        (r) =>
          setForm({
            name: r.name,
            key: r.key ?? '',
            category: String(r.category),
            condition: pretty(r.condition),
            action: pretty(r.action),
            details: pretty(r.details),
            description: r.description,
          }),
        () => undefined,
      )
      .finally(() => setLoading(false));
  }, [editing, id]);

  const set = (field: keyof ManualForm) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [field]: value }));
    const over = infoLimitError(field, value);
    setErrors(({ [field]: _gone, ...rest }) => (over ? { ...rest, [field]: over } : rest));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const check = checkManual(form, editing);
    if (!check.ok) {
      setErrors(check.errors);
      // spec 03 section 5: the JSON messages are warnings
      for (const w of check.jsonWarnings) notices.warning(w);
      return;
    }
    setForm(check.formatted);
    setBusy(true);
    try {
      if (editing) await editRule({ ...check.body, id: Number(id) });
      else await addRule(check.body);
      notices.success(editing ? T.rules.editSuccess : T.rules.addSuccess);
      navigate(area.to(RuleRoute.list));
    } catch (err) {
      if (err instanceof DeviceCallError) setErrors(err.fieldErrors);
      notices.error(err instanceof DeviceCallError ? err.message : editing ? T.rules.editFailed : T.rules.addFailed);
      setBusy(false);
    }
  };

  const field = (name: keyof ManualForm) => ({
    value: form[name],
    onChange: set(name),
    error: Boolean(errors[name]),
    disabled: busy,
    fullWidth: true,
  });
  const json = (name: (typeof JSON_FIELDS)[number], label: string, rows: number) => (
    <TextField
      {...field(name)}
      label={label}
      required
      multiline
      minRows={rows}
      maxRows={24}
      helperText={errors[name] ?? ' '}
      slotProps={{ input: { sx: { fontFamily: 'monospace', fontSize: 13 } } }}
    />
  );

  return (
    <Box sx={{ maxWidth: 880 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
        {editing ? S.editTitle : S.addTitle}
      </Typography>
      <FormCard
        onSubmit={submit}
        onCancel={() => navigate(area.to(RuleRoute.list))}
        busy={busy}
        loading={loading}
        canSave={!loading}
      >
        <Stack spacing={1}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField {...field('name')} label={S.name} required autoFocus helperText={errors.name ?? ' '} />
            <TextField
              {...field('key')}
              label={S.key}
              disabled={busy || editing}
              helperText={errors.key ?? (editing ? ' ' : S.keyHelp)}
              slotProps={{ htmlInput: { maxLength: RULE_KEY_MAX, style: { fontFamily: 'monospace' } } }}
            />
          </Stack>
          <TextField
            {...field('category')}
            select
            label={S.category}
            required
            disabled={busy || editing}
            helperText={errors.category ?? ' '}
          >
            {RULE_CATEGORY_LIST.map((c) => (
              <MenuItem key={c.code} value={String(c.code)}>{`${c.code} · ${c.name}`}</MenuItem>
            ))}
          </TextField>
          {json('condition', S.condition, 6)}
          {json('action', S.action, 6)}
          {json('details', S.details, 2)}
          <TextField
            {...field('description')}
            label={S.description}
            multiline
            minRows={2}
            helperText={errors.description ?? ' '}
          />
        </Stack>
      </FormCard>
      <RuleTestPanel subject={subject} />
    </Box>
  );
}
