// Tenant self-registration (/admin/registration, spec 01 sections 2, 5, 8): validated in the browser with the same
// zod schema the server uses; -3/-4/-5 and 'Registrasi Gagal' on failure; 'Registrasi Sukses' then the sign-in.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Box, Stack, TextField, Typography } from '@mui/material';
import { contracts, RegisterInput, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { fieldErrorsOf, fieldErrorsOfEnvelope, type FieldErrors } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { PasswordField } from '../../ui/PasswordField.js';
import { SignInFrame } from '../signin/SignInFrame.js';
import { FormActions } from '../../ui/FormActions.js';

const FIELDS = ['username', 'first', 'last', 'email', 'pass', 'passv', 'tenant_name'] as const;
type Field = (typeof FIELDS)[number];

const LABELS: Record<Field, string> = {
  username: T.registrationPage.username,
  first: T.registrationPage.first,
  last: T.registrationPage.last,
  email: T.registrationPage.email,
  pass: T.registrationPage.pass,
  passv: T.registrationPage.passv,
  tenant_name: T.registrationPage.tenantName,
};

export function RegistrationPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    username: '',
    first: '',
    last: '',
    email: '',
    pass: '',
    passv: '',
    tenant_name: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = RegisterInput.safeParse({ ...values, last: values.last || undefined, email_verification: false });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    setBusy(true);
    const r = await api.call(contracts.auth.register, parsed.data);
    setBusy(false);
    if (isOk(r)) {
      notices.success(T.registration.success);
      navigate('/admin/login', { replace: true });
      return;
    }
    setErrors(fieldErrorsOfEnvelope(r.body));
    notices.error(failureMessage(r, { byCode: contracts.auth.register.errors, fallback: T.registration.failed }));
  };

  const field = (name: Field) => {
    const props = {
      name,
      label: LABELS[name],
      value: values[name],
      onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
      error: !!errors[name],
      helperText: errors[name] ?? ' ',
      fullWidth: true,
      disabled: busy,
      required: name !== 'last',
    };
    return name === 'pass' || name === 'passv' ? (
      <PasswordField key={name} {...props} autoComplete="new-password" />
    ) : (
      <TextField key={name} {...props} type={name === 'email' ? 'email' : 'text'} />
    );
  };

  return (
    <SignInFrame>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 3 }}>
        {T.registrationPage.title}
      </Typography>
      <Box component="form" noValidate onSubmit={submit} sx={{ position: 'relative' }}>
        <Stack spacing={0.5}>
          {field('username')}
          <Box sx={{ display: 'grid', columnGap: 2, rowGap: 0.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {field('first')}
            {field('last')}
          </Box>
          {field('email')}
          {field('pass')}
          {field('passv')}
          {field('tenant_name')}
        </Stack>
        <FormActions onCancel={() => navigate('/admin/login')} busy={busy} label={T.registration.submit} mt={2} />
        <LoadingOverlay open={busy} />
      </Box>
    </SignInFrame>
  );
}
