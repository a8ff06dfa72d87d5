// Presence at a gateway's start in scale-out (BUS=nats): the devices another gateway holds stay online, however long
// the rest of the start keeps this gateway's event loop busy. Real NATS; the broker and the registry are stand-ins.
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsBus } from '../../platform/bus/nats.js';
import type { Bus } from '../../platform/bus/types.js';
import { hasNatsServer, startNatsServer, type NatsServer } from '../../platform/bus/testing/nats-server.js';
import { createLogger } from '../../platform/log.js';
import { until } from '../../platform/testing/until.js';
import { attachDevicesToBroker } from './devices.broker.js';

const log = createLogger('error');

describe.skipIf(!hasNatsServer)('presence at a gateway start (BUS=nats)', () => {
  let nats: NatsServer;
  const buses: Bus[] = [];
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await nats?.stop();
  });
  const bus = async () => {
    const b = await createNatsBus({ url: nats.url }, log);
    buses.push(b);
    return b;
  };

  it('keeps online the devices another gateway holds, even when the start blocks the event loop past the window', async () => {
    // the gateway already running holds device 41
    const other = await bus();
    other.subscribe<{ reply: string }>('presence.held', ({ data }) => other.publish(data.reply, { ids: [41] }));
    await other.flush();

    const kept: number[][] = [];
    const devices = Object.assign(new EventEmitter(), {
      expireUnheld: (_except: number[], _before: number, held: ReadonlySet<number>) => (kept.push([...held]), 0),
      expireSilent: () => 0,
      flushSeen() {},
    });
    const broker = Object.assign(new EventEmitter(), { addAuthority() {}, disconnect() {} });
    const gatherMs = 300;
    const presence = attachDevicesToBroker(broker as never, devices as never, {} as never, {
      log,
      loraCategory: 9,
      bus: await bus(),
      presenceGatherMs: gatherMs,
    });
    try {
      // the rest of a start on a starved machine: the loop reads no socket for longer than the whole window
      const blockedUntil = Date.now() + 3 * gatherMs;
      while (Date.now() < blockedUntil);
      expect(await until(() => kept.length > 0, 10_000)).toBe(true);
      expect(kept).toEqual([[41]]);
    } finally {
      presence.close();
    }
  });
});
