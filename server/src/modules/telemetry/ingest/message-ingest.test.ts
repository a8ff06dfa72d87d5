import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../platform/log.js';
import type { AckRelease, MqttIdentity } from '../../../platform/mqtt/types.js';
import type { DeviceContext, DeviceResolver } from '../../devices/families/index.js';
import type { TelemetryMessage } from '../message.js';
import type { SeriesInfo, SeriesResolution } from '../store/series.js';
import { createHeldAcks } from './acks.js';
import { createMessageIngest } from './message-ingest.js';
import { IngestRejects } from './rejects.js';

const dev = (id: number): MqttIdentity => ({ key: `device:${id}` });
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

/** device 3 (MQTT family), 4 disabled, 5 a LoRa device (disabled, so only its event is counted); others unknown */
const devices: DeviceResolver = {
  resolveDevice(identity) {
    const id = Number(identity.key.split(':')[1]);
    if (id === 3) return { deviceId: 3, appId: 1, category: 8 };
    if (id === 4) return { deviceId: 4, appId: 1, category: 8, disabled: true };
    if (id === 5) return { deviceId: 5, appId: 1, category: 8, devEui: '00aa', disabled: true };
    if (id === 666) throw new Error('registry bug');
    return null;
  },
};

function setUp(o: { resolveAll?: () => SeriesResolution[]; resolver?: DeviceResolver } = {}) {
  let closed = false;
  let resolver: DeviceResolver | null = o.resolver ?? devices;
  const rejects = new IngestRejects(() => 0);
  const acks = createHeldAcks(null);
  const delivered: [TelemetryMessage, DeviceContext][] = [];
  let nextId = 1;
  const ingest = createMessageIngest({
    log: createLogger('silent'),
    now: () => 1000,
    maxPayloadBytes: 1024,
    resolver: () => resolver,
    closed: () => closed,
    rejects,
    normalising: {
      series: {
        resolveAll:
          o.resolveAll ??
          ((appId, deviceId, keys) =>
            keys.map((k) => ({ id: nextId++, appId, deviceId, ...k, latest: null, lastStampedTs: 0 }) as SeriesInfo)),
      },
      futureToleranceMs: 60_000,
      maxAgeMs: 86_400_000,
      rejectPoint: (reason, deviceId) => void rejects.count(reason, deviceId, 1),
    },
    acks,
    deliver: (m, ctx) => void delivered.push([m, ctx]),
  });
  const released: boolean[] = [];
  const hold =
    (): AckRelease =>
    (ack = true) =>
      void released.push(ack);
  return {
    ingest,
    acks,
    rejects,
    delivered,
    released,
    hold,
    close: () => (closed = true),
    noResolver: () => (resolver = null),
  };
}

describe('one message on its way in', () => {
  it("hands a known device's points on with their series, holding a QoS 1 acknowledgement until the message is settled", () => {
    const { ingest, acks, delivered, released, hold } = setUp();
    expect(ingest.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1, b: 2 } } }), 1, hold)).toBe('queued');
    expect(delivered).toHaveLength(1);
    const [m, ctx] = delivered[0]!;
    expect(ctx).toMatchObject({ deviceId: 3, appId: 1 });
    expect(m).toMatchObject({ deviceId: 3, appId: 1, qos: 1, receivedAt: 1000 });
    expect(m.points.map((p) => p.num)).toEqual([1, 2]);
    expect(released).toEqual([]);
    acks.settle(m, true);
    expect(released).toEqual([true]);
    expect(ingest.counters).toMatchObject({ received_messages: 1, queued_messages: 1 });
  });

  it('turns away and counts, by reason and device: unknown devices, a failing resolver, disabled devices, bad payloads', () => {
    const { ingest, rejects, delivered, noResolver } = setUp();
    expect(ingest.ingest(dev(77), 'd/77/data', json({ s: { data: { a: 1 } } }))).toBe('unknown_device');
    expect(ingest.ingest(dev(666), 'd/666/data', json({ s: { data: { a: 1 } } }))).toBe('unknown_device');
    expect(ingest.ingest(dev(4), 'd/4/data', json({ s: { data: { a: 1 } } }))).toBe('disabled');
    expect(ingest.ingest(dev(3), 'd/3/data', Buffer.from('not json'))).toBe('not_json');
    expect(ingest.ingest(dev(3), 'd/3/data', Buffer.alloc(2048, 123))).toBe('too_large');
    noResolver();
    expect(ingest.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1 } } }))).toBe('unknown_device');
    expect(delivered).toEqual([]);
    expect(rejects.of(3)).toMatchObject({ count: 2, last_reason: 'too_large' });
    expect(rejects.metrics()).toMatchObject({
      rejected: { unknown_device: 3, disabled: 1, not_json: 1, too_large: 1 },
    });
  });

  it("counts a LoRa network server's events by kind, whether or not they carry data", () => {
    const { ingest } = setUp();
    ingest.ingest(dev(5), 'application/1/device/00aa/event/up', json({}));
    ingest.ingest(dev(5), 'application/1/device/00aa/event/join', json({}));
    ingest.ingest(dev(5), 'application/1/device/00aa/event/up', json({}));
    ingest.ingest(dev(5), 'application/1/device/00aa/event/strange', json({}));
    expect(ingest.loraEvents).toEqual({ up: 2, join: 1, other: 1 });
  });

  it('does not acknowledge a message it cannot keep: the pipeline closing, or its series failing to be written', () => {
    const s = setUp({
      resolveAll: () => {
        throw new Error('database is locked');
      },
    });
    expect(() => s.ingest.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1 } } }), 1, s.hold)).toThrow(/locked/);
    expect(s.released).toEqual([false]);
    s.close();
    expect(s.ingest.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1 } } }), 1, s.hold)).toBe('closed');
    expect(s.released).toEqual([false, false]);
    // a QoS 0 message has no acknowledgement to hold back
    expect(s.ingest.ingest(dev(3), 'd/3/data', json({ s: { data: { a: 1 } } }), 0, s.hold)).toBe('closed');
    expect(s.released).toEqual([false, false]);
  });

  it("waits for a device's row when the resolver must read it, keeping the client's order and its acknowledgements", async () => {
    // device 8's row is read once (answered when the test says), then cached; 9's read finds nothing; 10's fails
    let answer!: (ctx: DeviceContext | null) => void;
    let fail!: (err: Error) => void;
    let cached = false;
    const resolver: DeviceResolver = {
      resolveDevice(identity) {
        const id = Number(identity.key.split(':')[1]);
        if (id === 8) {
          if (cached) return { deviceId: 8, appId: 1, category: 8 };
          return new Promise<DeviceContext | null>((r) => (answer = r)).finally(() => (cached = true));
        }
        if (id === 9) return Promise.resolve(null);
        return new Promise((_, r) => (fail = r));
      },
    };
    const { ingest, acks, delivered, released, hold } = setUp({ resolver });
    const first = ingest.ingest(dev(8), 'd/8/data', json({ s: { data: { n: 1 } } }), 1, hold);
    expect(first).toBeInstanceOf(Promise);
    // answered from the cache at once, but after the first: it waits too
    cached = true;
    const second = ingest.ingest(dev(8), 'd/8/data', json({ s: { data: { n: 2 } } }), 1, hold);
    cached = false;
    expect(second).toBeInstanceOf(Promise);
    expect(delivered).toEqual([]);
    answer({ deviceId: 8, appId: 1, category: 8 });
    expect(await first).toBe('queued');
    expect(await second).toBe('queued');
    expect(delivered.map(([m]) => m.points[0]!.num)).toEqual([1, 2]);
    // the acknowledgements were held while the row was read, and go when the messages are stored
    expect(released).toEqual([]);
    for (const [m] of delivered) acks.settle(m, true);
    expect(released).toEqual([true, true]);
    // no device: acknowledged (not data to keep), as a refused message is at once
    expect(await ingest.ingest(dev(9), 'd/9/data', json({ s: { data: { n: 1 } } }), 1, hold)).toBe('unknown_device');
    expect(released).toEqual([true, true, true]);
    // the read failed: not stored, so not acknowledged (the device sends it again)
    const failing = ingest.ingest(dev(10), 'd/10/data', json({ s: { data: { n: 1 } } }), 1, hold);
    fail(new Error('database away'));
    expect(await failing).toBe('unknown_device');
    expect(released).toEqual([true, true, true, false]);
    // once cached, a message goes through at once again
    expect(ingest.ingest(dev(8), 'd/8/data', json({ s: { data: { n: 3 } } }), 0)).toBe('queued');
  });
});
