import net from 'node:net';
import mqttPacket from 'mqtt-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { nativeFd } from '../native-fd.js';
import { until } from '../testing/until.js';
import type { LoopCommand, ThreadEvent } from './broker-wire.js';
import { BrokerThreads } from './broker-threads.js';

let pool: BrokerThreads | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function threads(count: number, answer?: (ev: ThreadEvent) => LoopCommand | undefined) {
  const events: ThreadEvent[] = [];
  const lost: string[] = [];
  pool = new BrokerThreads({
    count,
    host: '127.0.0.1',
    log: createLogger('silent'),
    native: nativeFd(),
    workerData: { debug: false, maxOutboundBytes: 1 << 20, nativeReads: true, fastPath: true, proxyProtocolFrom: [] },
    onEvent: (t, ev) => {
      events.push(ev);
      const a = answer?.(ev);
      if (a) pool!.send(t, a);
    },
    onReleased: () => {},
    onLost: (_t, err) => lost.push(err.message),
    greeting: () => [],
  });
  return { pool, events, lost };
}

/** a client's CONNECT on the port: a listening thread asks the event loop who it is (an `auth` event) */
function knock(port: number): net.Socket {
  const s = net.connect(port, '127.0.0.1');
  s.on('error', () => {});
  s.write(
    mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: 'knock' }),
  );
  return s;
}

describe('the broker threads', () => {
  it('replaces a thread that exits, and its successor listens on the same port', async () => {
    const { pool, events, lost } = threads(1);
    const port = await pool.listen(0);
    expect(port).toBeGreaterThan(0);
    const first = pool.all[0]!;
    await first.worker.terminate();
    expect(await until(() => pool.all[0] !== first)).toBe(true);
    expect(lost).toEqual(['MQTT broker thread exited']);
    expect(pool.port).toBe(port);
    const sockets: net.Socket[] = [];
    try {
      expect(
        await until(() => {
          if (sockets.length < 50) sockets.push(knock(port));
          return events.some((e) => e.e === 'auth');
        }, 10_000),
      ).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });

  it('stops every thread on close, once, telling what each held is gone', async () => {
    const { pool, lost } = threads(2);
    await pool.listen(0);
    await Promise.all([pool.close(), pool.close()]);
    expect(lost.filter((m) => m === 'MQTT broker closed')).toHaveLength(pool.all.length);
  });

  it("asks for a subscription with its QoS and writes its SUBACK only once the event loop granted it (the event loop records a granted filter at once, so another thread's publish routed after SUBACK reaches it)", async () => {
    let grant: (() => void) | undefined;
    const { pool, events } = threads(1, (ev) => {
      if (ev.e === 'auth') return { t: 'authAnswer', req: ev.req, sid: 7 };
      if (ev.e === 'authz' && ev.kind === 'subscribe') {
        grant = () => pool.send(pool.all[0]!, { t: 'authzAnswer', req: ev.req, ok: true });
      }
      return undefined;
    });
    const port = await pool.listen(0);
    const s = net.connect(port, '127.0.0.1');
    let bytes = Buffer.alloc(0);
    s.on('data', (d: Buffer) => (bytes = Buffer.concat([bytes, d])));
    s.write(
      mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: 'w' }),
    );
    expect(await until(() => bytes.includes(Buffer.from([0x20, 2, 0, 0])))).toBe(true);
    s.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 3, subscriptions: [{ topic: 'd/1/#', qos: 1 }] }));
    try {
      expect(await until(() => grant !== undefined)).toBe(true);
      expect(events.find((e) => e.e === 'authz')).toMatchObject({ topic: 'd/1/#', kind: 'subscribe', qos: 1 });
      // no SUBACK before the answer (the thread does not report live subscriptions afterwards: the grant was it)
      await new Promise((r) => setTimeout(r, 50)); // time for a SUBACK written too early to arrive: none is awaited
      expect(bytes.includes(Buffer.from([0x90, 3, 0, 3]))).toBe(false);
      grant!();
      expect(await until(() => bytes.includes(Buffer.from([0x90, 3, 0, 3, 1])))).toBe(true);
      expect(events.some((e) => e.e === 'subs')).toBe(false);
    } finally {
      s.destroy();
    }
  });
});
