// MQTT over WebSocket reaches the broker through the event loop: the HTTP server is the event loop's, so each
// WebSocket connection is relayed to the first broker thread (`wsOpen`/`wsData`/`wsEnd`), and what that thread writes
// comes back here (`ws`/`wsEnd`) to be written to the socket, which is closed once it holds more than the outbound
// limit unwritten (its client stopped reading).
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log.js';
import type { LoopCommand } from './broker-wire.js';
import { serveMqttOverWebSocket, type WebSocketEndpoint } from './websocket.js';

export class WebSocketRelay {
  private readonly streams = new Map<number, Duplex>();
  private nextId = 1;
  private readonly endpoints: WebSocketEndpoint[] = [];

  constructor(
    /** sends to the broker thread serving WebSocket connections (the first one, whichever runs now) */
    private readonly toThread: (m: LoopCommand) => void,
    private readonly maxOutbound: number,
    /** a connection closed for holding `bytes` unwritten */
    private readonly overflowed: (bytes: number) => void,
    private readonly log: Logger,
  ) {}

  /** serves MQTT over WebSocket at `path` on `server`; `addressOf`: the client address of an upgrade request */
  attach(
    server: http.Server,
    path: string,
    addressOf: (req: http.IncomingMessage) => string | undefined = (req) => req.socket.remoteAddress,
  ) {
    this.endpoints.push(
      serveMqttOverWebSocket(server, path, (stream, req) => this.open(stream, addressOf(req)), this.log),
    );
  }

  /** relays one WebSocket connection's bytes to the broker thread */
  open(stream: Duplex, address: string | undefined) {
    const id = this.nextId++;
    this.streams.set(id, stream);
    this.toThread({ t: 'wsOpen', id, address });
    stream.on('data', (data: Buffer) => this.toThread({ t: 'wsData', id, data: new Uint8Array(data) }));
    stream.on('close', () => {
      if (this.streams.delete(id)) this.toThread({ t: 'wsEnd', id });
    });
  }

  /** the thread wrote `data` to connection `id` */
  write(id: number, data: Uint8Array) {
    const stream = this.streams.get(id);
    if (!stream) return;
    stream.write(data);
    if (stream.writableLength > this.maxOutbound) {
      this.overflowed(stream.writableLength);
      this.streams.delete(id);
      stream.destroy();
      this.toThread({ t: 'wsEnd', id });
    }
  }

  /** the thread ended connection `id` */
  ended(id: number) {
    const stream = this.streams.get(id);
    this.streams.delete(id);
    stream?.end();
  }

  /** the thread is gone, and its connections with it */
  dropAll() {
    for (const stream of this.streams.values()) stream.destroy();
    this.streams.clear();
  }

  /** stops accepting WebSocket connections */
  async close() {
    await Promise.all(this.endpoints.map((e) => e.close()));
  }
}
