// Logout from the access menu: the session machine calls the logout call and clears the session; we go to sign-in.
import { useNavigate } from 'react-router';
import { useSession } from '../session/useSession.js';
import type { Principal } from '../session/storage.js';
import { loginPathFor } from './guards.js';

export function useLogout(principal: Principal): () => void {
  const { send } = useSession(principal);
  const navigate = useNavigate();
  return () => {
    send({ type: 'LOGOUT' });
    navigate(loginPathFor(principal), { replace: true });
  };
}
