// Test support: an MQTT 3.1.1 client written with mqtt-packet alone, for what a client library hides (writing without
// waiting, reading every packet, timing each acknowledgement). Never imported by the gateway itself.
import net from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';

export interface RawClient {
  socket: net.Socket;
  /** called with every packet the broker sends, in order */
  onPacket(listener: (p: Packet) => void): void;
  /** writes one packet (mqtt-packet's object form) */
  send(packet: Parameters<typeof mqttPacket.generate>[0]): boolean;
}

/** Connects to 127.0.0.1:`port` and signs in; rejects when the CONNACK refuses or does not come within `timeoutMs`. */
export function connectRaw(
  port: number,
  connect: { clientId: string; username?: string; password?: string; clean?: boolean; keepalive?: number },
  timeoutMs = 5000,
): Promise<RawClient> {
  const socket = net.connect(port, '127.0.0.1');
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const listeners: Array<(p: Packet) => void> = [];
  socket.on('data', (d) => parser.parse(d));
  const client: RawClient = {
    socket,
    onPacket: (listener) => void listeners.push(listener),
    send: (packet) => socket.write(mqttPacket.generate(packet)),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no CONNACK')), timeoutMs);
    socket.once('error', (err) => (clearTimeout(timer), reject(err)));
    parser.on('packet', (p) => {
      if (p.cmd === 'connack') {
        clearTimeout(timer);
        const code = (p as { returnCode?: number }).returnCode ?? 0;
        if (code === 0) resolve(client);
        else reject(new Error(`CONNACK ${code}`));
      }
      for (const l of listeners) l(p);
    });
    client.send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: connect.clean ?? true,
      clientId: connect.clientId,
      keepalive: connect.keepalive ?? 60,
      ...(connect.username !== undefined && { username: connect.username }),
      ...(connect.password !== undefined && { password: Buffer.from(connect.password) }),
    });
  });
}
