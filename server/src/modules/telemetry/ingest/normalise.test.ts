import { describe, expect, it } from 'vitest';
import type { DeviceContext, RawPoint, RejectReason } from '../../devices/families/index.js';
import type { SeriesInfo, SeriesResolution } from '../store/series.js';
import { normalise, type NormaliseOptions } from './normalise.js';

const ctx = { deviceId: 5, appId: 2, category: 1, disabled: false } as DeviceContext;
const point = (param: string, value: unknown, datatype: RawPoint['datatype'] = 'number'): RawPoint => ({
  sensor: 's',
  configtype: 'c',
  param,
  subparam: '',
  datatype,
  value,
});

/** series by param: `limited` answers series_limit, the rest get ids in order of first sight */
function setup() {
  const known = new Map<string, SeriesInfo>();
  const rejected: [RejectReason, number][] = [];
  const o: NormaliseOptions = {
    series: {
      resolveAll: (appId, deviceId, keys) =>
        keys.map((k): SeriesResolution => {
          if (k.param === 'limited') return 'series_limit';
          let s = known.get(k.param);
          if (!s)
            known.set(
              k.param,
              (s = { id: known.size + 1, appId, deviceId, ...k, latest: null, lastStampedTs: 0 } as SeriesInfo),
            );
          return s;
        }),
    },
    futureToleranceMs: 1000,
    maxAgeMs: 10_000,
    rejectPoint: (reason, deviceId) => void rejected.push([reason, deviceId]),
  };
  return { o, rejected };
}

describe('normalising an adapter output into a stored message', () => {
  it("puts each point on its series at the device's time and keeps valid state keys as JSON", () => {
    const { o } = setup();
    const { message, clockFallback } = normalise(
      o,
      ctx,
      {
        points: [point('suhu', 21.5), point('pintu', 'buka', 'string')],
        states: [{ key: 'relay', value: true }],
        ts: 50_000,
      },
      1,
      50_500,
    );
    expect(clockFallback).toBe(false);
    expect(message).toEqual({
      appId: 2,
      deviceId: 5,
      qos: 1,
      receivedAt: 50_500,
      points: [
        { seriesId: 1, ts: 50_000, num: 21.5, text: null },
        { seriesId: 2, ts: 50_000, num: null, text: 'buka' },
      ],
      states: [{ key: 'relay', value: 'true', ts: 50_000 }],
    });
  });

  it('falls back to the receive time for a stated time out of bounds, never giving one series the same millisecond twice', () => {
    const { o } = setup();
    const first = normalise(o, ctx, { points: [point('suhu', 1)], states: [], ts: 100_000 }, 0, 10_000);
    expect(first.clockFallback).toBe(true);
    expect(first.message?.points[0]?.ts).toBe(10_000);
    const second = normalise(o, ctx, { points: [point('suhu', 2)], states: [] }, 0, 10_000);
    expect(second.message?.points[0]?.ts).toBe(10_001);
    expect(normalise(o, ctx, { points: [point('suhu', 3)], states: [], ts: 1 }, 0, 20_000).clockFallback).toBe(true);
  });

  it('counts points it cannot keep, drops invalid state keys, and leaves nothing to store as null', () => {
    const { o, rejected } = setup();
    const r = normalise(
      o,
      ctx,
      {
        points: [point('limited', 1), point('suhu', 'not a number')],
        states: [
          { key: '', value: 1 },
          { key: '__proto__', value: 1 },
        ],
      },
      0,
      1000,
    );
    expect(r.message).toBeNull();
    expect(rejected).toEqual([
      ['series_limit', 5],
      ['bad_value', 5],
    ]);
  });
});
