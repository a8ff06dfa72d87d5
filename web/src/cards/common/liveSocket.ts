// The card feeds' transport over the console's one shared socket (web/src/live/socket.ts: one connection per principal
// and application, authenticated with the REST session headers). The feeds subscribe themselves because they route
// pushes by the room the server answered (several feeds of one dashboard, e.g. selected variables, share the event).
import { liveSocket } from '../../live/socket.js';
import type { LiveTransport } from './cardFeed.js';

const ACK_TIMEOUT_MS = 10_000;

/** The transport of the current page's principal; subscribing without a session fails like a 401. */
export function liveTransport(): LiveTransport {
  const socket = liveSocket();
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
