// 'Ubah Password Pengguna' (@user/password/{id}, spec 01 sections 2, 5, 8): new password and its confirmation, both at
// least one character, revealable; different → warning 'Password confirmation failed'; the new password is trimmed.
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { ChangePasswordInput, contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { boundField, fieldErrorsOf, fieldErrorsOfEnvelope, type FieldErrors } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { PasswordField } from '../../ui/PasswordField.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { callAndNotify, useLoad } from '../../api/call.js';
import { FormActions } from '../../ui/FormActions.js';

export function UserPasswordPage() {
  const { id = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const [values, setValues] = useState({ passn: '', passv: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [username, setUsername] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toList = () => navigate(area.to('_user_list_'));

  useLoad(
    () => callAndNotify(contracts.users.get, { id: Number(id) }),
    (o) => {
      if (o.ok) setUsername(o.value.data.username);
      else if (!o.sessionEnded) navigate(area.to('_user_list_'), { replace: true });
    },
    [id, area, navigate],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const out: FieldErrors = {};
    if (!values.passn.length) out.passn = T.common.required;
    if (!values.passv.length) out.passv = T.common.required;
    if (Object.keys(out).length) return setErrors(out);
    if (values.passn !== values.passv) {
      setErrors({ passv: T.users.passwordConfirmFailed });
      return notices.warning(T.users.passwordConfirmFailed);
    }
    const parsed = ChangePasswordInput.safeParse({ id: Number(id), passn: values.passn });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    setBusy(true);
    const r = await api.call(contracts.users.changePassword, parsed.data);
    setBusy(false);
    if (isOk(r)) {
      notices.success(T.users.passwordSuccess);
      toList();
      return;
    }
    setErrors(fieldErrorsOfEnvelope(r.body));
    notices.error(failureMessage(r, { fallback: T.users.passwordFailed }));
  };

  const field = (name: 'passn' | 'passv', label: string) => ({
    ...boundField({ values, setValues, errors, busy }, name, label),
    required: true,
    autoComplete: 'new-password',
  });

  return (
    <Card sx={{ position: 'relative', maxWidth: 560 }}>
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {T.users.passwordTitle}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }} data-testid="password-user">
          {username ? T.users.passwordFor(username) : ' '}
        </Typography>
        <Box component="form" noValidate onSubmit={submit}>
          <Stack spacing={0.5}>
            <PasswordField {...field('passn', T.users.newPassword)} autoFocus />
            <PasswordField {...field('passv', T.users.confirmPassword)} />
          </Stack>
          <FormActions onCancel={toList} busy={busy} mt={2} />
        </Box>
      </CardContent>
      <LoadingOverlay open={busy || username === null} />
    </Card>
  );
}
