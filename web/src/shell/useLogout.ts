// Logout from the access menu: the session machine calls the logout call and clears the session; the route guard
// then sends the visitor to the sign-in (without redirectURL, as the sign-out was on purpose).
import { useSession } from '../session/useSession.js';
import type { Principal } from '../session/storage.js';

export function useLogout(principal: Principal): () => void {
  const { send } = useSession(principal);
  return () => send({ type: 'LOGOUT' });
}
