// A lean MQTT 3.1.1 device for the ingest benchmark's load generator: one TCP connection speaking the protocol itself
// (CONNECT/CONNACK, PUBLISH QoS 0 and 1 with PUBACK, PINGREQ, DISCONNECT) with packets written whole, one write each.
// MQTT.js spends ~40 µs of CPU per QoS 1 publish; on the benchmark's two cores that CPU is taken from the gateway
// under test, so the default generator is this one (BENCH_FLEET=mqttjs selects MQTT.js).
import net from 'node:net';
import { fixedHeader } from '../../src/platform/mqtt/testing/packets.js';

const CONNACK = 0x20;
const PUBACK = 0x40;
const PINGRESP = 0xd0;

function str(s: string): Buffer {
  const b = Buffer.from(s);
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
}

function packet(first: number, body: Buffer): Buffer {
  return Buffer.concat([fixedHeader(first, body.length), body]);
}

export interface WireClientOptions {
  port: number;
  clientId: string;
  username: string;
  /** a registered device's broker secret (the REST registration's answer) */
  password?: string;
  keepaliveS: number;
  timeoutMs: number;
}

export class WireClient {
  private socket!: net.Socket;
  private pending = Buffer.alloc(0);
  private nextId = 1;
  /** QoS 1 publishes not yet acknowledged */
  outstanding = 0;
  acked = 0;
  private ping?: NodeJS.Timeout;

  static connect(opts: WireClientOptions): Promise<WireClient> {
    const c = new WireClient();
    return c.open(opts).then(() => c);
  }

  private open(opts: WireClientOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('CONNACK timeout')), opts.timeoutMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        this.socket?.destroy();
        reject(err);
      };
      this.socket = net.connect({ host: '127.0.0.1', port: opts.port, noDelay: true }, () => {
        // protocol name, level 4, flags: username + clean session, keepalive
        const header = Buffer.from([
          0,
          4,
          0x4d,
          0x51,
          0x54,
          0x54,
          4,
          opts.password ? 0xc2 : 0x82,
          opts.keepaliveS >> 8,
          opts.keepaliveS & 0xff,
        ]);
        this.socket.write(
          packet(
            0x10,
            Buffer.concat([
              header,
              str(opts.clientId),
              str(opts.username),
              ...(opts.password ? [str(opts.password)] : []),
            ]),
          ),
        );
      });
      this.socket.on('error', (err) => fail(err));
      this.socket.on('close', () => {
        clearTimeout(timer);
        if (this.ping) clearInterval(this.ping);
      });
      this.socket.on('data', (chunk) => {
        this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
        for (;;) {
          if (this.pending.length < 2) return;
          // every packet a server sends a device here has a one-byte remaining length
          const len = this.pending[1]!;
          if (len & 0x80 || this.pending.length < 2 + len) return;
          const type = this.pending[0]! & 0xf0;
          if (type === CONNACK) {
            clearTimeout(timer);
            if (this.pending[3] !== 0) return fail(new Error(`CONNACK ${this.pending[3]}`));
            this.ping = setInterval(() => this.socket.write(Buffer.from([0xc0, 0])), (opts.keepaliveS * 1000) / 2);
            this.ping.unref();
            resolve();
          } else if (type === PUBACK) {
            this.outstanding--;
            this.acked++;
          } else if (type !== PINGRESP) {
            return fail(new Error(`unexpected packet type ${type >> 4}`));
          }
          this.pending = this.pending.subarray(2 + len);
        }
      });
    });
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  /** one PUBLISH, written with a single write */
  publish(topic: Buffer, payload: string, qos: 0 | 1): void {
    const payloadLen = Buffer.byteLength(payload);
    const bodyLen = topic.length + (qos ? 2 : 0) + payloadLen;
    const head = fixedHeader(qos ? 0x32 : 0x30, bodyLen);
    const buf = Buffer.allocUnsafe(head.length + bodyLen);
    let o = head.copy(buf, 0);
    o += topic.copy(buf, o);
    if (qos) {
      const id = this.nextId;
      this.nextId = id === 0xffff ? 1 : id + 1;
      buf[o++] = id >> 8;
      buf[o++] = id & 0xff;
      this.outstanding++;
    }
    buf.write(payload, o);
    this.socket.write(buf);
  }

  /** the topic as MQTT writes it: length-prefixed UTF-8 */
  static topic(topic: string): Buffer {
    return str(topic);
  }

  end(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ping) clearInterval(this.ping);
      if (this.socket.destroyed) return resolve();
      this.socket.end(Buffer.from([0xe0, 0]), () => resolve());
      setTimeout(resolve, 2000).unref();
    });
  }
}
