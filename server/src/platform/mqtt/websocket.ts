// MQTT over WebSocket on the gateway's HTTP port (path /mqtt), for browsers and clients behind HTTP-only proxies:
// each accepted socket becomes a byte stream handed to the same aedes instance as TCP connections.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { Logger } from '../log.js';

export interface WebSocketEndpoint {
  close(): Promise<void>;
}

// MQTT packets from devices are small; a megabyte bounds what one frame may make the gateway buffer
const MAX_FRAME_BYTES = 1024 * 1024;

function pathOf(req: http.IncomingMessage): string | undefined {
  try {
    return new URL(req.url ?? '/', 'http://gateway').pathname;
  } catch {
    return undefined;
  }
}

export function serveMqttOverWebSocket(
  server: http.Server,
  path: string,
  handle: (stream: Duplex, req: http.IncomingMessage) => void,
  log: Logger,
): WebSocketEndpoint {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    clientTracking: true,
  });
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // other paths (socket.io) belong to other listeners of the same event
    if (pathOf(req) !== path) return;
    socket.on('error', (err) => log.debug('MQTT WebSocket upgrade failed', err));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on('error', (err) => log.debug('MQTT WebSocket stream error', err));
      // a connection dropped without a close frame (or closed by the peer) only ends the stream's readable side, so the
      // stream never emits 'close' and the broker never learns the device left: destroyed here, it does
      ws.once('close', () => stream.destroy());
      handle(stream, req);
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
