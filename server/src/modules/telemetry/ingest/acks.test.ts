import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../platform/bus/memory.js';
import { createLogger } from '../../../platform/log.js';
import type { TelemetryMessage } from '../message.js';
import { createHeldAcks } from './acks.js';
import { createRemoteAcks } from './remote-acks.js';

const msg = (): TelemetryMessage => ({ appId: 1, deviceId: 1, qos: 1, receivedAt: 0, states: [], points: [] });

describe('held acknowledgements', () => {
  it('lets a held acknowledgement go once, when its message is settled: acknowledged if stored, not if given up', () => {
    const acks = createHeldAcks(null);
    const released: [string, boolean][] = [];
    const stored = msg();
    const givenUp = msg();
    acks.hold(stored, (ack = true) => void released.push(['stored', ack]));
    acks.hold(givenUp, (ack = true) => void released.push(['given up', ack]));
    acks.settle(givenUp, false);
    acks.settle(stored, true);
    acks.settle(stored, true);
    expect(released).toEqual([
      ['given up', false],
      ['stored', true],
    ]);
    expect(stored.ack).toBeUndefined();
    // a QoS 0 message holds nothing: settling it is a no-op
    acks.settle(msg(), true);
    expect(acks.metrics()).toEqual({});
  });

  it('with NATS, the message carries a ticket and the acknowledgement goes when the storing gateway reports it', async () => {
    const bus = createMemoryBus(createLogger('silent'));
    const acks = createHeldAcks(createRemoteAcks(bus, 'gw-one'));
    const released: boolean[] = [];
    const m = msg();
    acks.hold(m, (ack = true) => void released.push(ack));
    expect(m.ack).toMatchObject({ origin: 'gw-one' });
    expect(acks.metrics()).toMatchObject({ remote_acks_waiting: 1 });
    acks.settle(m, true);
    await bus.flush();
    for (let i = 0; i < 20 && released.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(released).toEqual([true]);
    expect(acks.metrics()).toMatchObject({ remote_acks_waiting: 0 });
    acks.close();
    await bus.close();
  });
});
