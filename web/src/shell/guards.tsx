// Route guards: a page of a principal's area needs that principal's session; without it the visitor goes to that
// area's sign-in, carrying where they wanted to go as redirectURL.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../session/useSession.js';
import type { Principal } from '../session/storage.js';

export const loginPathFor = (p: Principal) => (p.kind === 'tenant' ? '/admin/login' : `/${p.domain}/login`);

export function loginWithRedirect(p: Principal, from: string): string {
  return `${loginPathFor(p)}?redirectURL=${encodeURIComponent(from)}`;
}

/** The redirectURL of a sign-in page, if it is a path of this console (never another site). */
export function safeRedirect(search: string): string | undefined {
  const v = new URLSearchParams(search).get('redirectURL');
  return v && v.startsWith('/') && !v.startsWith('//') && !v.includes('\\') ? v : undefined;
}

export function RequireSession({ principal, children }: { principal: Principal; children: ReactNode }) {
  const { authenticated, loggedOut } = useSession(principal);
  const location = useLocation();
  if (!authenticated && loggedOut) return <Navigate to={loginPathFor(principal)} replace />;
  if (!authenticated)
    return <Navigate to={loginWithRedirect(principal, location.pathname + location.search)} replace />;
  return <>{children}</>;
}
