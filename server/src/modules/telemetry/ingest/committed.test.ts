import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../platform/bus/memory.js';
import type { Bus } from '../../../platform/bus/types.js';
import { createLogger } from '../../../platform/log.js';
import type { CommittedTelemetry } from '../message.js';
import type { SeriesInfo } from '../store/series.js';
import { createCommittedFanOut, type CommittedFanOutOptions } from './committed.js';

const log = createLogger('silent');
const batch = (deviceId: number, ts: number): CommittedTelemetry => ({
  appId: 1,
  deviceId,
  receivedAt: ts,
  committedAt: ts,
  points: [{ seriesId: 1, ts, num: ts, text: null }],
  states: [],
});
const series = { id: 1, latest: null } as SeriesInfo;
const byId = (id: number) => (id === 1 ? series : undefined);

let buses: Bus[] = [];
afterEach(async () => {
  for (const b of buses) await b.close();
  buses = [];
  series.latest = null;
});
const settle = () => new Promise((r) => setTimeout(r, 10));

function fanOut(extra: Partial<CommittedFanOutOptions> = {}) {
  return createCommittedFanOut({
    log,
    series: { byId, refreshLatest: async () => 0 },
    share: null,
    origin: 'gw-one',
    closing: () => false,
    ...extra,
  });
}

describe('committed telemetry to listeners', () => {
  it('tells every listener each committed message, until it unsubscribes; a throwing listener stops no other', () => {
    const f = fanOut();
    const heard: number[] = [];
    f.subscribe(() => {
      throw new Error('listener bug');
    });
    const off = f.subscribe((b) => void heard.push(b.deviceId));
    f.committed([batch(1, 1), batch(2, 1)]);
    off();
    f.committed([batch(3, 1)]);
    expect(heard).toEqual([1, 2]);
  });

  it("with NATS, shares this gateway's commits and serves another gateway's to its own listeners and latest values", async () => {
    const bus = createMemoryBus(log);
    buses.push(bus);
    let closing = false;
    const one = fanOut({ share: bus, origin: 'gw-one', closing: () => closing });
    const two = fanOut({ share: bus, origin: 'gw-two' });
    const heardOne: number[] = [];
    const heardTwo: number[] = [];
    one.subscribe((b) => void heardOne.push(b.deviceId));
    two.subscribe((b) => void heardTwo.push(b.deviceId));
    two.committed([batch(7, 50)]);
    await settle();
    // gw-one hears gw-two's commit once (its own listeners), gw-two its own once (not again from the bus)
    expect(heardOne).toEqual([7]);
    expect(heardTwo).toEqual([7]);
    expect(series.latest).toEqual({ ts: 50, num: 50, text: null });
    // closing: another gateway's commits are no longer heard
    closing = true;
    two.committed([batch(8, 60)]);
    await settle();
    expect(heardOne).toEqual([7]);
    one.close();
    two.close();
  });

  it('reads every latest value again when the bus connection comes back, then tells those that computed from them', async () => {
    const bus = createMemoryBus(log);
    buses.push(bus);
    let connection: ((up: boolean) => void) | undefined;
    const share: Bus = { ...bus, onConnection: (l) => void (connection = l) };
    let refreshed = 0;
    const order: string[] = [];
    const f = fanOut({
      share,
      series: {
        byId,
        refreshLatest: async () => {
          refreshed++;
          order.push('latest');
          return 1;
        },
      },
    });
    f.onMended(() => void order.push('mended'));
    const off = f.onMended(() => void order.push('gone'));
    off();
    // the connection going says nothing yet
    connection!(false);
    await settle();
    expect(refreshed).toBe(0);
    connection!(true);
    await settle();
    expect(order).toEqual(['latest', 'mended']);
    f.close();
  });
});
