// BUS=nats acknowledgements: the receiving gateway lets a held acknowledgement go only when the storing gateway
// reports the commit, unacknowledged when it reports giving up or never reports (a gateway lost with the message).
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../platform/bus/memory.js';
import { createLogger } from '../../../platform/log.js';
import { until } from '../../../platform/testing/until.js';
import { createRemoteAcks, type RemoteAcks } from './remote-acks.js';

const log = createLogger('error');
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('acknowledgements reported across gateways', () => {
  const open: RemoteAcks[] = [];
  afterEach(() => open.splice(0).forEach((a) => a.close()));

  it('acknowledges once the storing gateway reports the commit, in one report per turn', async () => {
    const bus = createMemoryBus(log);
    const receiving = createRemoteAcks(bus, 'gw-one');
    const storing = createRemoteAcks(bus, 'gw-two');
    open.push(receiving, storing);
    const released: Array<[number, boolean]> = [];
    const tickets = [1, 2, 3].map((k) => receiving.ticket((ack = true) => released.push([k, ack])));
    expect(tickets.map((t) => t.origin)).toEqual(['gw-one', 'gw-one', 'gw-one']);
    await settle();
    expect(released).toEqual([]);
    expect(receiving.waiting).toBe(3);
    storing.settled(tickets[0]!, true);
    storing.settled(tickets[2]!, false);
    storing.settled(tickets[1]!, true);
    expect(released).toEqual([]); // not before the turn ends
    await settle();
    expect(released.sort()).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(receiving.waiting).toBe(0);
    expect(storing.stats.remote_acks_sent).toBe(3);
  });

  it('settles its own messages at once', () => {
    const receiving = createRemoteAcks(createMemoryBus(log), 'gw-one');
    open.push(receiving);
    let acked: boolean | undefined;
    const t = receiving.ticket((ack = true) => (acked = ack));
    receiving.settled(t, true);
    expect(acked).toBe(true);
  });

  it('lets an acknowledgement nobody reports go unacknowledged after the time-out, and ignores a late report', async () => {
    let now = 1_000;
    const bus = createMemoryBus(log);
    const receiving = createRemoteAcks(bus, 'gw-one', { now: () => now, timeoutMs: 50 });
    const storing = createRemoteAcks(bus, 'gw-two');
    open.push(receiving, storing);
    const released: boolean[] = [];
    const t = receiving.ticket((ack = true) => released.push(ack));
    now += 10;
    // a sweep runs every 50 ms (real time): 80 ms let one pass over the young ticket
    await new Promise((r) => setTimeout(r, 80));
    expect(released).toEqual([]); // young: still waiting
    now += 100;
    expect(await until(() => released.length > 0)).toBe(true);
    expect(released).toEqual([false]);
    expect(receiving.stats.remote_acks_timed_out).toBe(1);
    storing.settled(t, true);
    await settle();
    expect(released).toEqual([false]);
  });
});
