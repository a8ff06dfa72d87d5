// The socket.io connection the card feeds share: one per principal and application (the REST session headers go in
// the handshake's `auth`, as the gateway's realtime platform expects), reconnecting on its own. Until the console
// has a shared live client for every screen (web/src/live), the cards own this one; it implements LiveTransport.
import { io, type Socket } from 'socket.io-client';
import { Header } from '@sentra/contracts';
import { areaOf } from '../../api/area.js';
import { sessionStore } from '../../session/storage.js';
import type { LiveTransport } from './cardFeed.js';

const sockets = new Map<string, Socket>();

function authOf(): { key: string; auth: Record<string, string> } | null {
  const area = areaOf(window.location.pathname);
  if (!area.domain) return null;
  const creds = area.isTenant ? sessionStore.read({ kind: 'tenant' }) : sessionStore.read({ kind: 'member', domain: area.domain });
  if (!creds) return null;
  const auth: Record<string, string> = { [Header.appDomain]: area.domain };
  auth[area.isTenant ? Header.tenantId : Header.accountId] = String(creds.id);
  auth[area.isTenant ? Header.tenantToken : Header.accountToken] = creds.token;
  return { key: `${area.isTenant ? 't' : 'm'}:${area.domain}:${creds.id}`, auth };
}

function socketOf(): Socket | null {
  const who = authOf();
  if (!who) return null;
  let s = sockets.get(who.key);
  if (!s) {
    const base = import.meta.env.VITE_FETCH_BASE || undefined;
    s = base ? io(base, { auth: who.auth, transports: ['websocket'] }) : io({ auth: who.auth, transports: ['websocket'] });
    sockets.set(who.key, s);
  }
  return s;
}

const ACK_TIMEOUT_MS = 10_000;

/** The transport of the current page's principal; subscribing without a session fails like a 401. */
export function liveTransport(): LiveTransport {
  const socket = socketOf();
  if (!socket) {
    return {
      subscribe: () => Promise.reject({ response_result: -14, message: 'unauthorized' }),
      unsubscribe: () => undefined,
      on: () => () => undefined,
      onReconnect: () => () => undefined,
    };
  }
  return {
    subscribe: (channel, params) =>
      new Promise((resolve, reject) => {
        socket.timeout(ACK_TIMEOUT_MS).emit('subscribe', { channel, params }, (err: unknown, ack: { response_result?: number; room?: string; message?: string }) => {
          if (err) return reject({ response_result: -99, message: 'timeout' });
          if (ack?.response_result === 0 && typeof ack.room === 'string') resolve(ack.room);
          else reject(ack ?? { response_result: -99 });
        });
      }),
    unsubscribe: (room) => void socket.emit('unsubscribe', { room }),
    on: (event, fn) => {
      socket.on(event, fn);
      return () => void socket.off(event, fn);
    },
    onReconnect: (fn) => {
      // 'connect' fires on the first connection too: the first subscribe is buffered by socket.io until then, so
      // only later connections (a reconnect) need a new subscribe
      let first = !socket.connected;
      const handler = () => {
        if (first) return void (first = false);
        fn();
      };
      socket.on('connect', handler);
      return () => void socket.off('connect', handler);
    },
  };
}
