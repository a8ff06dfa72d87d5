// Tasmota, as real firmware sends it with the default FullTopic `%prefix%/%topic%/`: tele/<topic>/SENSOR|STATE|LWT and
// stat/<topic>/RESULT|POWER<n>. Tasmota's `Time` is local time without a zone by default, so points take the receive
// time; with SetOption52 1 the firmware appends its UTC offset ("2026-12-06T20:10:00+07:00") and that instant is the
// reading's time (a plug sending what it stored while away, the demo's history), bounded as every device time is.
import {
  accept,
  isPlainObject,
  MAX_STATES,
  NOTHING,
  parseDeviceTime,
  parseJson,
  reject,
  validName,
  type AdapterResult,
  type DeviceContext,
  type RawPoint,
  type RawState,
} from '../wire.js';
import { pushPoint, pushState } from '../tree.js';

/** STATE fields that are measurements (charted as points under sensor `device`); other scalars are device states. */
const STATE_POINTS: ReadonlyMap<string, readonly string[]> = new Map([
  ['', ['UptimeSec', 'Heap', 'Sleep', 'LoadAvg', 'MqttCount', 'Vcc']],
  ['Wifi', ['RSSI', 'Signal', 'LinkCount']],
]);
const DEVICE_POINTS = STATE_POINTS.get('')!;
/** STATE fields that are neither (clock, human-readable uptime) */
const STATE_SKIP = new Set(['Time', 'Uptime']);

// Firmware sends neither names beyond 64 characters nor numbers beyond a double: such a message is malformed as a
// whole (counted), not quietly thinned. Fields of a type nobody maps (null readings, objects STATE does not know) are
// skipped as before.
const badName = () => reject('bad_shape', 'name');

/** `"Power":[45,30]` on multi-channel devices: channels become subparams "1", "2", ... like Tasmota's Power1, Power2. */
function pushValue(sensor: string, param: string, value: unknown, out: RawPoint[]): AdapterResult | undefined {
  if (Array.isArray(value) && value.length > 0 && value.length <= 32 && value.every((v) => typeof v === 'number')) {
    value.forEach((v, i) =>
      out.push({ sensor, configtype: 'data', param, subparam: String(i + 1), datatype: 'number', value: v }),
    );
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const sub in value) {
      if (!validName(sub)) return badName();
      const bad = value[sub] === null ? undefined : pushPoint(sensor, 'data', param, sub, undefined, value[sub], out);
      if (bad) return bad;
    }
    return undefined;
  }
  return value === null ? undefined : pushPoint(sensor, 'data', param, '', undefined, value, out);
}

const answer = (points: RawPoint[], states: RawState[]): AdapterResult =>
  states.length > MAX_STATES ? reject('bad_shape', `more than ${MAX_STATES} states`) : accept({ points, states });

function sensorMessage(body: Record<string, unknown>): AdapterResult {
  const points: RawPoint[] = [];
  const states: RawState[] = [];
  for (const key in body) {
    if (key === 'Time') continue;
    if (!validName(key)) return badName();
    const v = body[key];
    let bad: AdapterResult | undefined;
    if (isPlainObject(v)) {
      for (const param in v) {
        bad = validName(param) ? pushValue(key, param, v[param], points) : badName();
        if (bad) return bad;
      }
    } else if (v !== null && typeof v !== 'object') {
      bad = pushState(key, v, states); // TempUnit, PressureUnit: unit settings, not measurements
    }
    if (bad) return bad;
  }
  return answer(points, states);
}

function stateMessage(body: Record<string, unknown>): AdapterResult {
  const points: RawPoint[] = [];
  const states: RawState[] = [];
  for (const key in body) {
    if (STATE_SKIP.has(key)) continue;
    if (!validName(key)) return badName();
    const v = body[key];
    let bad: AdapterResult | undefined;
    if (isPlainObject(v)) {
      for (const name of STATE_POINTS.get(key) ?? []) {
        if (v[name] === undefined) continue;
        if (typeof v[name] !== 'number') return reject('bad_value', `${key}.${name}`);
        points.push({
          sensor: 'device',
          configtype: 'data',
          param: key,
          subparam: name,
          datatype: 'number',
          value: v[name],
        });
      }
    } else if (DEVICE_POINTS.includes(key)) {
      if (typeof v !== 'number') return reject('bad_value', key);
      points.push({ sensor: 'device', configtype: 'data', param: key, subparam: '', datatype: 'number', value: v });
    } else if (v !== null && typeof v !== 'object') {
      bad = pushState(key, v, states);
    }
    if (bad) return bad;
  }
  return answer(points, states);
}

export function adaptTasmota(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult {
  const parts = topic.split('/');
  // the firmware's connect sequence (issue 27): its discovery (the devices module reads it) and its empty POWER query
  if (parts[0] === 'tasmota' && parts[1] === 'discovery') return NOTHING;
  if (parts.length === 3 && parts[0] === 'cmnd' && parts[2] === 'POWER' && payload.length === 0) return NOTHING;
  if (parts.length !== 3 || (parts[0] !== 'tele' && parts[0] !== 'stat')) return reject('unknown_topic', topic);
  if (!ctx.tasmotaTopic || parts[1] !== ctx.tasmotaTopic) return reject('topic_mismatch', topic);
  const [prefix, , leaf] = parts;
  if (prefix === 'tele' && leaf === 'LWT') {
    const text = payload.toString('utf8').trim();
    if (text === 'Online') return accept({ points: [], states: [], online: true });
    if (text === 'Offline') return accept({ points: [], states: [], online: false });
    return reject('bad_value', 'LWT');
  }
  if (prefix === 'stat' && /^POWER\d*$/.test(leaf)) {
    const text = payload.toString('utf8').trim();
    if (!/^(ON|OFF)$/.test(text)) return reject('bad_value', leaf);
    return accept({ points: [], states: [{ key: leaf, value: text }] });
  }
  const handler =
    prefix === 'tele'
      ? leaf === 'SENSOR'
        ? sensorMessage
        : leaf === 'STATE'
          ? stateMessage
          : undefined
      : leaf === 'RESULT'
        ? resultMessage
        : undefined;
  if (!handler) return NOTHING; // INFO1..3, STATUS*, HASS_STATE ...: not telemetry
  const json = parseJson(payload);
  if (!json.ok) return reject('not_json');
  if (!isPlainObject(json.value)) return reject('bad_shape', 'not an object');
  const result = handler(json.value);
  // only a Time with its zone names an instant; without one (the firmware's default) the receive time stands
  const ts = typeof json.value.Time === 'string' ? parseDeviceTime(json.value.Time) : undefined;
  return result.ok && ts !== undefined ? { ok: true, out: { ...result.out, ts } } : result;
}

/** RESULT answers a command: `{"POWER":"ON"}`, `{"Dimmer":40}` ... each top-level field is a device state. */
function resultMessage(body: Record<string, unknown>): AdapterResult {
  const states: RawState[] = [];
  for (const key in body) {
    const bad = validName(key) ? pushState(key, body[key] ?? null, states) : badName();
    if (bad) return bad;
  }
  return answer([], states);
}
