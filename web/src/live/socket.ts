// One socket.io connection per signed-in principal and application (docs/conventions.md "Live data like Grafana Live"):
// authenticated with the same headers as REST (keyed by header names, docs/decisions/platform.md "Realtime"), opened on
// first use, shared by every live subscription of the page through the one hub (`hub.ts`).
import { io, type Socket } from 'socket.io-client';
import { Header } from '@sentra/contracts';
import { areaOf } from '../api/area.js';
import { sessionStore } from '../session/storage.js';
import { createLiveHub, type LiveHub, type LiveTransport } from './hub.js';

const ACK_TIMEOUT_MS = 10_000;

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
  const session = area.isTenant
    ? sessionStore.read({ kind: 'tenant' })
    : sessionStore.read({ kind: 'member', domain: area.domain });
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
  const socket = io(import.meta.env.VITE_FETCH_BASE || undefined, {
    auth: who.auth,
    transports: ['websocket'],
    reconnectionDelayMax: 10_000,
  });
  const hub = createLiveHub(transportOf(socket));
  current = { key: who.key, socket, hub };
  return hub;
}

let refusing: LiveHub | null = null;

/** the page's hub, or without a session one whose every subscription fails like a 401 (cards then poll their GET) */
export function liveHubOrRefusing(): LiveHub {
  return liveHub() ?? (refusing ??= createLiveHub(refusingTransport));
}

const refusingTransport: LiveTransport = {
  subscribe: () => Promise.reject({ response_result: -14, message: 'unauthorized' }),
  unsubscribe: () => undefined,
  on: () => () => undefined,
  onReconnect: () => () => undefined,
};

/** the hub's view of a socket.io connection: subscribe answered through the acknowledgement (or failed after 10 s) */
export function transportOf(socket: Pick<Socket, 'timeout' | 'emit' | 'on' | 'off' | 'connected'>): LiveTransport {
  // a subscribe that timed out before the first connection has no answer coming: that connection joins again too
  let timedOut = false;
  return {
    subscribe: (channel, params) =>
      new Promise((resolve, reject) => {
        socket
          .timeout(ACK_TIMEOUT_MS)
          .emit(
            'subscribe',
            { channel, params },
            (err: unknown, ack: { response_result?: number; room?: string; message?: string }) => {
              if (err) {
                timedOut = true;
                return reject({ response_result: -99, message: 'timeout' });
              }
              if (ack?.response_result === 0 && typeof ack.room === 'string') resolve(ack.room);
              else reject(ack ?? { response_result: -99 });
            },
          );
      }),
    unsubscribe: (room) => void socket.emit('unsubscribe', { room }),
    on: (event, fn) => {
      socket.on(event, fn);
      return () => void socket.off(event, fn);
    },
    onReconnect: (fn) => {
      // 'connect' fires on the first connection too: the first subscribes are buffered by socket.io until then, so
      // only later connections (a reconnect) need new subscribes, unless one of the buffered ones timed out
      let first = !socket.connected;
      const handler = () => {
        const skip = first && !timedOut;
        first = timedOut = false;
        if (!skip) fn();
      };
      socket.on('connect', handler);
      return () => void socket.off('connect', handler);
    },
  };
}

/** closes the shared socket (sign-out) */
export function closeLive(): void {
  current?.socket.close();
  current = null;
}

/** opens the shared socket early (a dashboard view starts its handshake while its record loads) */
export function liveSocket(): Socket | null {
  return liveHub() ? current!.socket : null;
}
