// Add a user ('Tambah Pengguna', _user_add_) and edit one ('Ubah Pengguna', _user_edit_/{id}), spec 01 sections 2, 5,
// 8: the contract's field rules in the browser, the role picked from the role list, the username read-only on edit,
// the avatar a local preview. Adding is blocked while the application has no role.
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { useNavigate, useParams } from 'react-router';
import { Alert, Box, MenuItem, Stack, TextField } from '@mui/material';
import { AddUserInput, contracts, EditUserInput, T, type OutputOf } from '@sentra/contracts';
import { boundField, fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { FormPageCard, PictureForm } from '../../ui/FormPageCard.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { PasswordField } from '../../ui/PasswordField.js';
import { useAppArea } from '../../ui/useAppArea.js';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { AvatarPicker } from './AvatarPicker.js';
import { CallError, callAndNotify, callOrThrow, notifyCallFailure, useLoad } from '../../api/call.js';
import { FormActions } from '../../ui/FormActions.js';

type Role = OutputOf<typeof contracts.roles.list>['data'][number];
type Field = 'username' | 'first' | 'last' | 'email' | 'pass' | 'passv' | 'role_id';

const EMPTY: Record<Field, string> = { username: '', first: '', last: '', email: '', pass: '', passv: '', role_id: '' };
export function UserFormPage({ routeKey }: ScreenProps) {
  const editing = routeKey.startsWith('_user_edit_');
  const { id = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const busy = loading || saving;
  const toList = () => navigate(area.to('_user_list_'));

  useLoad(
    () =>
      Promise.all([
        callAndNotify(contracts.roles.list, {}),
        editing ? callAndNotify(contracts.users.get, { id: Number(id) }) : null,
      ] as const),
    ([rolesAnswer, userAnswer]) => {
      setLoading(false);
      setRoles(rolesAnswer.ok ? rolesAnswer.value.data : []);
      if (!userAnswer) return;
      if (userAnswer.ok) {
        const u = userAnswer.value.data;
        setValues({
          ...EMPTY,
          username: u.username,
          first: u.first,
          last: u.last ?? '',
          email: u.email,
          role_id: u.role_id === null ? '' : String(u.role_id),
        });
      } else if (!userAnswer.sessionEnded) navigate(area.to('_user_list_'), { replace: true });
    },
    [editing, id, area, navigate],
  );

  const noRole = !editing && roles !== null && roles.length === 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (noRole) return notices.warning(T.users.noRole);
    const roleId = values.role_id === '' ? undefined : Number(values.role_id);
    const person = {
      first: values.first.trim(),
      last: values.last.trim(),
      email: values.email.trim(),
      role_id: roleId,
    };
    const send = async () => {
      if (editing) {
        const parsed = EditUserInput.safeParse({ id: Number(id), ...person });
        // 'Edit User Gagal' for every refusal; a taken e-mail shows under its field (the contract's errorFields)
        return parsed.success
          ? callOrThrow(contracts.users.edit, parsed.data, { fallback: T.users.editFailed })
          : parsed.error;
      }
      const parsed = AddUserInput.safeParse({
        username: values.username.trim(),
        ...person,
        pass: values.pass,
        passv: values.passv,
        email_verification: false,
      });
      // the add's notice names -3 / -4 / -12 (the contract's errors); a taken username or e-mail shows under its field
      return parsed.success ? callOrThrow(contracts.users.add, parsed.data, T.users.addFailed) : parsed.error;
    };
    setSaving(true);
    try {
      const r = await send();
      if (r instanceof z.ZodError) return setErrors(fieldErrorsOf(r));
      setErrors({});
      notices.success(editing ? T.users.editSuccess : T.users.addSuccess);
      toList();
    } catch (err) {
      setErrors(err instanceof CallError ? err.fieldErrors : {});
      notifyCallFailure(err, editing ? T.users.editFailed : T.users.addFailed);
    } finally {
      setSaving(false);
    }
  };

  const field = (name: Field, label: string, extra: Partial<React.ComponentProps<typeof TextField>> = {}) => ({
    ...boundField({ values, setValues, errors, busy }, name, label),
    ...extra,
  });

  return (
    <FormPageCard title={editing ? T.users.editTitle : T.users.addTitle} maxWidth={1000} busy={busy}>
      {noRole && (
        <Alert severity="warning" sx={{ mb: 3 }} data-testid="no-role">
          {T.users.noRole}
        </Alert>
      )}
      <PictureForm onSubmit={submit} columns="200px 1fr">
        <AvatarPicker initial={values.first || values.username} disabled={busy} />
        <Box>
          <Stack spacing={0.5}>
            <TextField
              {...field('username', T.users.username, { required: true, autoFocus: !editing })}
              helperText={errors.username ?? (editing ? T.credentials.readOnly : ' ')}
              slotProps={{ input: { readOnly: editing }, htmlInput: { maxLength: 16 } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                {...field('first', T.users.first, { required: true })}
                slotProps={{ htmlInput: { maxLength: 16 } }}
              />
              <TextField {...field('last', T.users.last)} slotProps={{ htmlInput: { maxLength: 16 } }} />
            </Stack>
            <TextField {...field('email', T.users.email, { required: true, type: 'email' })} />
            {!editing && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <PasswordField {...field('pass', T.users.pass, { required: true, autoComplete: 'new-password' })} />
                <PasswordField {...field('passv', T.users.passv, { required: true, autoComplete: 'new-password' })} />
              </Stack>
            )}
            <TextField {...field('role_id', T.users.role, { required: true, select: true })} disabled={busy || noRole}>
              {(roles ?? []).map((r) => (
                <MenuItem key={r.id} value={String(r.id)}>
                  {r.name}
                </MenuItem>
              ))}
              {/* the current role while the list loads, so the select never shows an unknown value */}
              {roles === null && values.role_id && <MenuItem value={values.role_id}>{values.role_id}</MenuItem>}
            </TextField>
          </Stack>
          <FormActions onCancel={toList} busy={busy} blocked={noRole} cancelBusy={saving} mt={2} />
        </Box>
      </PictureForm>
    </FormPageCard>
  );
}
