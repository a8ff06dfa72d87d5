// React view of a principal's session actor: components send events and read the snapshot, nothing else.
import { useSelector } from '@xstate/react';
import { sessionActor } from './live.js';
import type { Principal } from './storage.js';

export function useSession(principal: Principal) {
  const actor = sessionActor(principal);
  const state = useSelector(actor, (s) => s.value as string);
  const session = useSelector(actor, (s) => s.context.session);
  const error = useSelector(actor, (s) => s.context.error);
  const notRegistered = useSelector(actor, (s) => s.context.notRegistered);
  const loggedOut = useSelector(actor, (s) => s.context.loggedOut);
  return {
    state,
    session,
    error,
    notRegistered,
    loggedOut,
    authenticated: state === 'authenticated',
    busy: state === 'submitting',
    send: actor.send,
  };
}

export const TENANT: Principal = { kind: 'tenant' };
export const member = (domain: string): Principal => ({ kind: 'member', domain });
