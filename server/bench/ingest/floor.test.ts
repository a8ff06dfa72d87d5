// The broker floors (floor.c, node-floor.mjs) answer what the fleet sends as a broker would on the wire, so the fleet
// runs against them unchanged: CONNACK to CONNECT, a PUBACK per QoS 1 PUBLISH (none for QoS 0), PINGRESP to PINGREQ,
// and they count the PUBLISHes they read.
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import mqttPacket from 'mqtt-packet';
import { buildC } from './fleet.js';
import { startFloor } from './floor.js';

const binary = buildC('floor.c');
const script = fileURLToPath(new URL('./node-floor.mjs', import.meta.url));
const floors = [
  ...(binary ? [{ name: 'floor.c', command: binary, args: [] as string[] }] : []),
  { name: 'node-floor.mjs', command: process.execPath, args: [script] },
];

describe('the broker floors', () => {
  it.each(floors)(
    '$name answers CONNECT, QoS 1 PUBLISH and PINGREQ as a broker does, and counts the PUBLISHes',
    async ({ command, args }) => {
      const floor = startFloor(command, args, { BENCH_FLOOR_LIMIT_S: '30' });
      try {
        const s = net.connect(await floor.port(), '127.0.0.1');
        let got = Buffer.alloc(0);
        s.on('data', (d: Buffer) => (got = Buffer.concat([got, d])));
        const publish = (qos: 0 | 1, messageId?: number) =>
          mqttPacket.generate({
            cmd: 'publish',
            topic: 'd/1/data',
            payload: Buffer.from('{"env":{"data":{"t":1}}}'),
            qos,
            retain: false,
            dup: false,
            ...(messageId !== undefined && { messageId }),
          });
        s.write(
          Buffer.concat([
            mqttPacket.generate({
              cmd: 'connect',
              protocolId: 'MQTT',
              protocolVersion: 4,
              clean: true,
              clientId: 'f',
              keepalive: 60,
            }),
            publish(1, 0x1234),
            publish(0),
            mqttPacket.generate({ cmd: 'pingreq' }),
          ]),
        );
        const expected = Buffer.from([0x20, 2, 0, 0, 0x40, 2, 0x12, 0x34, 0xd0, 0]);
        for (let i = 0; i < 500 && got.length < expected.length; i++) await new Promise((r) => setTimeout(r, 20));
        expect([...got]).toEqual([...expected]);
        expect(await floor.mark()).toMatchObject({ messages: 2 });
        s.destroy();
      } finally {
        floor.quit();
      }
    },
  );
});
