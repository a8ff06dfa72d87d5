// Application-user sign-in (/{domain}/login, spec 01 section 2): username, password with show/hide, 'Masuk'.
// Already signed in → the application; a 401 (domain not registered) → the admin sign-in with a warning.
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { member, useSession } from '../../session/useSession.js';
import { safeRedirect } from '../../shell/guards.js';
import { DOMAIN_PATTERN } from '../../api/area.js';
import { SignInFrame } from './SignInFrame.js';
import { SignInForm } from './SignInForm.js';

function AppSignIn({ domain }: { domain: string }) {
  const { authenticated, busy, state, notRegistered, send } = useSession(member(domain));
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => send({ type: 'DISMISS' }), [send]);

  useEffect(() => {
    if (state === 'failure' && notRegistered) {
      send({ type: 'DISMISS' });
      navigate('/admin/login', { replace: true });
    }
  }, [state, notRegistered, send, navigate]);

  if (authenticated) return <Navigate to={safeRedirect(search) ?? `/${domain}`} replace />;
  return (
    <SignInFrame>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 3 }}>
        {T.signInPage.appSignInTitle(domain)}
      </Typography>
      <SignInForm
        busy={busy}
        submitLabel={T.login.signIn}
        onSubmit={(username, password) => send({ type: 'SUBMIT', username, password })}
      />
    </SignInFrame>
  );
}

export function AppSignInPage() {
  const { domain = '' } = useParams();
  if (!DOMAIN_PATTERN.test(domain)) return <Navigate to="/admin/login" replace />;
  return <AppSignIn key={domain} domain={domain} />;
}
