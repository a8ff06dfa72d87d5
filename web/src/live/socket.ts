// One socket.io connection per signed-in principal and application (STYLE.md "Live data"): authenticated with the
// same headers as REST (keyed by header names, docs/decisions.md "Realtime"), opened on first use, shared by every
// live subscription of the page.
import { io, type Socket } from 'socket.io-client';
import { Header } from '@sentra/contracts';
import { areaOf } from '../api/area.js';
import { sessionStore } from '../session/storage.js';
import { createLiveHub, type LiveHub } from './hub.js';

interface Connection {
  key: string;
  socket: Socket;
  hub: LiveHub;
}

let current: Connection | null = null;

/** the REST session headers of the current page's principal, or null without a session */
export function liveAuth(pathname = window.location.pathname): { key: string; auth: Record<string, string> } | null {
  const area = areaOf(pathname);
  if (!area.domain) return null;
  const session = area.isTenant ? sessionStore.read({ kind: 'tenant' }) : sessionStore.read({ kind: 'member', domain: area.domain });
  if (!session) return null;
  const auth: Record<string, string> = area.isTenant
    ? { [Header.tenantId]: String(session.id), [Header.tenantToken]: session.token }
    : { [Header.accountId]: String(session.id), [Header.accountToken]: session.token };
  auth[Header.appDomain] = area.domain;
  return { key: `${area.isTenant ? 'tenant' : 'member'}:${session.id}:${session.token}:${area.domain}`, auth };
}

/** the page's shared hub; a new principal or application closes the old socket */
export function liveHub(): LiveHub | null {
  const who = liveAuth();
  if (!who) return null;
  if (current?.key === who.key) return current.hub;
  current?.socket.close();
  const socket = io(import.meta.env.VITE_FETCH_BASE || undefined, { auth: who.auth, transports: ['websocket'], reconnectionDelayMax: 10_000 });
  const hub = createLiveHub(socket as unknown as Parameters<typeof createLiveHub>[0]);
  socket.on('connect', () => hub.resubscribe());
  current = { key: who.key, socket, hub };
  return hub;
}

/** closes the shared socket (sign-out) */
export function closeLive(): void {
  current?.socket.close();
  current = null;
}

/** the shared socket itself, for live layers that route pushes by the room they joined (the dashboard card feeds) */
export function liveSocket(): Socket | null {
  return liveHub() ? current!.socket : null;
}
