// Application-user sign-in (/{domain}/login, spec 01 section 2): username, password with show/hide, 'Masuk'.
// Already signed in → the application; a 401 (domain not registered) → the admin sign-in with a warning.
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { member, useSession } from '../../session/useSession.js';
import { safeRedirect } from '../../shell/guards.js';
import { DOMAIN_PATTERN } from '../../api/area.js';
import { PasswordField } from '../../ui/PasswordField.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { SignInFrame } from './SignInFrame.js';

function AppSignIn({ domain }: { domain: string }) {
  const { authenticated, busy, state, notRegistered, send } = useSession(member(domain));
  const { search } = useLocation();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => send({ type: 'DISMISS' }), [send]);

  useEffect(() => {
    if (state === 'failure' && notRegistered) {
      send({ type: 'DISMISS' });
      navigate('/admin/login', { replace: true });
    }
  }, [state, notRegistered, send, navigate]);

  if (authenticated) return <Navigate to={safeRedirect(search) ?? `/${domain}`} replace />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username || !password) return;
    send({ type: 'SUBMIT', username: username.trim(), password });
  };
  return (
    <SignInFrame>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 3 }}>{T.signInPage.appSignInTitle(domain)}</Typography>
      <Box component="form" noValidate onSubmit={submit} sx={{ position: 'relative' }}>
        <Stack spacing={2}>
          <TextField name="username" label={T.login.username} value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" autoFocus fullWidth
            error={touched && !username} helperText={touched && !username ? T.common.required : ' '} disabled={busy} />
          <PasswordField name="password" label={T.login.password} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" fullWidth
            error={touched && !password} helperText={touched && !password ? T.common.required : ' '} disabled={busy} />
          <Button type="submit" variant="contained" size="large" disabled={busy}>{T.login.signIn}</Button>
        </Stack>
        <LoadingOverlay open={busy} />
      </Box>
    </SignInFrame>
  );
}

export function AppSignInPage() {
  const { domain = '' } = useParams();
  if (!DOMAIN_PATTERN.test(domain)) return <Navigate to="/admin/login" replace />;
  return <AppSignIn key={domain} domain={domain} />;
}
