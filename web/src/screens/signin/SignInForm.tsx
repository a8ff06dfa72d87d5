// The username/password form both sign-ins share (tenant 'Login', application user 'Masuk'): required fields shown
// once the form was submitted, the username trimmed, a loading overlay while the session machine works.
import { useState, type FormEvent } from 'react';
import { Box, Button, Stack, TextField } from '@mui/material';
import { T } from '@sentra/contracts';
import { PasswordField } from '../../ui/PasswordField.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';

export function SignInForm({
  busy,
  submitLabel,
  onSubmit,
}: {
  busy: boolean;
  submitLabel: string;
  onSubmit(username: string, password: string): void;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username || !password) return;
    onSubmit(username.trim(), password);
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ position: 'relative' }}>
      <Stack spacing={2}>
        <TextField
          name="username"
          label={T.login.username}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          autoFocus
          fullWidth
          error={touched && !username}
          helperText={touched && !username ? T.common.required : ' '}
          disabled={busy}
        />
        <PasswordField
          name="password"
          label={T.login.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          fullWidth
          error={touched && !password}
          helperText={touched && !password ? T.common.required : ' '}
          disabled={busy}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {submitLabel}
        </Button>
      </Stack>
      <LoadingOverlay open={busy} />
    </Box>
  );
}
