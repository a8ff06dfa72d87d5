// Test support: a real socket.io client signed in with session headers, and acknowledged requests. Never imported by
// the gateway itself.
import { io as connectIo, type Socket } from 'socket.io-client';
import { Header } from '@sentra/contracts';

export const sessionAuth = (s: { tenant: { id: number; token: string } }, domain?: string): Record<string, string> => ({
  [Header.tenantId]: String(s.tenant.id),
  [Header.tenantToken]: s.tenant.token,
  ...(domain ? { [Header.appDomain]: domain } : {}),
});

/** Connects once (no reconnection); resolves with the socket, or with the handshake refusal's `data`. */
export function openSocket(url: string, auth: Record<string, string>): Promise<{ socket?: Socket; refusal?: any }> {
  return new Promise((resolve) => {
    const socket = connectIo(url, {
      auth,
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 3000,
    });
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (err: Error & { data?: unknown }) => {
      socket.close();
      resolve({ refusal: err.data ?? { message: err.message } });
    });
  });
}

/** Emits with an acknowledgement, failing after 3 s. */
export const ask = (socket: Socket, event: string, body: unknown) =>
  socket.timeout(3000).emitWithAck(event, body) as Promise<Record<string, any>>;
