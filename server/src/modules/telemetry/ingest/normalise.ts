// A family adapter's output as the message the writer stores: each point on its series (created on first sight) with
// its value encoded for the series' datatype, each valid state key as a state change, all stamped with the time the
// device states (within bounds) or the receive time. Points that cannot be kept are counted as rejected, one by one.
import { validName, type AdapterOutput, type DeviceContext, type RejectReason } from '../../devices/families/index.js';
import type { StateChange } from '../../states/states.store.js';
import { encodeValue } from '../datatypes.js';
import { NO_STATES, type TelemetryMessage, type TelemetryPoint } from '../message.js';
import type { SeriesRegistry, SeriesResolution } from '../store/series.js';

export interface NormaliseOptions {
  series: Pick<SeriesRegistry, 'resolveAll'>;
  /** device-stated times further in the future than this fall back to the receive time */
  futureToleranceMs: number;
  /** device-stated times older than this fall back to the receive time */
  maxAgeMs: number;
  /** a point of the message that is not kept */
  rejectPoint: (reason: RejectReason, deviceId: number) => void;
}

export interface Normalised {
  /** null: nothing in it to store */
  message: TelemetryMessage | null;
  /** the device's stated time was out of bounds and the receive time was used */
  clockFallback: boolean;
  /**
   * The registry is creating a series the message names (PostgreSQL): normalise again once it settles (then every
   * series is held and the answer comes at once). `message` is null meanwhile.
   */
  waitFor?: Promise<unknown>;
}

export function normalise(
  o: NormaliseOptions,
  ctx: DeviceContext,
  out: AdapterOutput,
  qos: 0 | 1 | 2,
  receivedAt: number,
): Normalised {
  let stated = out.ts;
  let clockFallback = false;
  if (stated !== undefined && (stated > receivedAt + o.futureToleranceMs || stated < receivedAt - o.maxAgeMs)) {
    clockFallback = true;
    stated = undefined;
  }
  const points: TelemetryPoint[] = [];
  const answer = o.series.resolveAll(ctx.appId, ctx.deviceId, out.points);
  if (!Array.isArray(answer)) return { message: null, clockFallback, waitFor: answer as Promise<unknown> };
  const resolved = answer as readonly SeriesResolution[];
  for (let k = 0; k < out.points.length; k++) {
    const raw = out.points[k]!;
    const s = resolved[k]!;
    if (typeof s === 'string') {
      o.rejectPoint(s, ctx.deviceId);
      continue;
    }
    const value = raw.value;
    let num: number | null = value as number;
    let text: string | null = null;
    // a number of a number series, the common case, needs no encoding (nor an object for it)
    if (s.datatype !== 'number' || typeof value !== 'number' || !Number.isFinite(value)) {
      const enc = encodeValue(s.datatype, value);
      if (!enc) {
        o.rejectPoint('bad_value', ctx.deviceId);
        continue;
      }
      num = enc.num;
      text = enc.text;
    }
    // receive-time points of one series never share a millisecond (the key is (series, ts))
    const ts = stated ?? Math.max(receivedAt, s.lastStampedTs + 1);
    if (ts > s.lastStampedTs) s.lastStampedTs = ts;
    points.push({ seriesId: s.id, ts, num, text });
  }
  const states: StateChange[] = out.states.length ? [] : NO_STATES;
  for (const st of out.states) {
    if (!validName(st.key)) continue;
    states.push({
      key: st.key,
      value: st.value === null || st.value === undefined ? null : JSON.stringify(st.value),
      ts: stated ?? receivedAt,
    });
  }
  if (points.length === 0 && states.length === 0) return { message: null, clockFallback };
  return {
    // (`release` made here, so a held message keeps the shape of every message)
    message: { appId: ctx.appId, deviceId: ctx.deviceId, qos, receivedAt, points, states, release: undefined },
    clockFallback,
  };
}
