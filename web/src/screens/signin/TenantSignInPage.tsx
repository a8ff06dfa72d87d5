// Tenant sign-in (/admin/login, spec 01 section 2): 'As Tenant' signs in with username and password; 'As User' opens
// an application's own sign-in (/{appname}/login) in a new window.
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useLocation } from 'react-router';
import { Box, Button, Link, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { appDomain, T } from '@sentra/contracts';
import { TENANT, useSession } from '../../session/useSession.js';
import { safeRedirect } from '../../shell/guards.js';
import { SignInFrame } from './SignInFrame.js';
import { SignInForm } from './SignInForm.js';

function TenantForm() {
  const { busy, send } = useSession(TENANT);
  return (
    <SignInForm
      busy={busy}
      submitLabel={T.login.login}
      onSubmit={(username, password) => send({ type: 'SUBMIT', username, password })}
    />
  );
}

function UserForm() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = appDomain.safeParse(name.trim());
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? T.common.required);
    setError(null);
    window.open(`/${parsed.data}/login`, '_blank', 'noopener');
  };
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <TextField
          name="appname"
          label={T.login.appName}
          value={name}
          onChange={(e) => setName(e.target.value)}
          fullWidth
          error={!!error}
          helperText={error ?? T.signInPage.appNameHint}
        />
        <Button type="submit" variant="contained" size="large">
          {T.login.continue}
        </Button>
      </Stack>
    </Box>
  );
}

export function TenantSignInPage() {
  const { authenticated, send } = useSession(TENANT);
  const { search } = useLocation();
  const [tab, setTab] = useState(0);
  useEffect(() => send({ type: 'DISMISS' }), [send]);
  if (authenticated) return <Navigate to={safeRedirect(search) ?? '/admin/apps'} replace />;
  return (
    <SignInFrame>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 3 }}>
        {T.signInPage.title}
      </Typography>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ mb: 3 }} variant="fullWidth">
        <Tab label={T.login.asTenant} id="signin-tab-0" aria-controls="signin-panel-0" />
        <Tab label={T.login.asUser} id="signin-tab-1" aria-controls="signin-panel-1" />
      </Tabs>
      <Box role="tabpanel" id={`signin-panel-${tab}`} aria-labelledby={`signin-tab-${tab}`}>
        {tab === 0 ? <TenantForm /> : <UserForm />}
      </Box>
      <Typography variant="body2" sx={{ mt: 4, textAlign: 'center' }}>
        {T.signInPage.noAccount}{' '}
        <Link component={RouterLink} to="/admin/registration">
          {T.signInPage.register}
        </Link>
      </Typography>
    </SignInFrame>
  );
}
