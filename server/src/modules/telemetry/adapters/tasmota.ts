// Tasmota, as real firmware sends it with the default FullTopic `%prefix%/%topic%/`: tele/<topic>/SENSOR|STATE|LWT and
// stat/<topic>/RESULT|POWER<n>. Tasmota's `Time` is local time without a zone, so points take the receive time.
import { accept, isPlainObject, NOTHING, parseJson, reject, validName, type AdapterResult, type DeviceContext, type RawPoint, type RawState } from './types.js';
import { inferDatatype } from '../datatypes.js';

/** STATE fields that are measurements (charted as points under sensor `device`); other scalars are device states. */
const STATE_POINTS: Readonly<Record<string, readonly string[]>> = {
  '': ['UptimeSec', 'Heap', 'Sleep', 'LoadAvg', 'MqttCount', 'Vcc'],
  Wifi: ['RSSI', 'Signal', 'LinkCount'],
};
/** STATE fields that are neither (clock, human-readable uptime) */
const STATE_SKIP = new Set(['Time', 'Uptime']);

/** `"Power":[45,30]` on multi-channel devices: channels become subparams "1", "2", ... like Tasmota's Power1, Power2. */
function pushValue(sensor: string, param: string, value: unknown, out: RawPoint[]): void {
  if (Array.isArray(value) && value.length > 0 && value.length <= 32 && value.every((v) => typeof v === 'number')) {
    value.forEach((v, i) => out.push({ sensor, configtype: 'data', param, subparam: String(i + 1), datatype: 'number', value: v }));
    return;
  }
  if (isPlainObject(value)) {
    for (const sub in value) {
      const dt = inferDatatype(value[sub]);
      if (dt && validName(sub)) out.push({ sensor, configtype: 'data', param, subparam: sub, datatype: dt, value: value[sub] });
    }
    return;
  }
  const dt = inferDatatype(value);
  if (dt) out.push({ sensor, configtype: 'data', param, subparam: '', datatype: dt, value });
}

function sensorMessage(body: Record<string, unknown>): AdapterResult {
  const points: RawPoint[] = [];
  const states: RawState[] = [];
  for (const key in body) {
    if (key === 'Time' || !validName(key)) continue;
    const v = body[key];
    if (isPlainObject(v)) {
      for (const param in v) if (validName(param)) pushValue(key, param, v[param], points);
    } else if (v !== null && typeof v !== 'object') {
      states.push({ key, value: v }); // TempUnit, PressureUnit: unit settings, not measurements
    }
  }
  return accept({ points, states });
}

function stateMessage(body: Record<string, unknown>): AdapterResult {
  const points: RawPoint[] = [];
  const states: RawState[] = [];
  for (const key in body) {
    if (STATE_SKIP.has(key) || !validName(key)) continue;
    const v = body[key];
    if (isPlainObject(v)) {
      for (const name of STATE_POINTS[key] ?? []) if (typeof v[name] === 'number') points.push({ sensor: 'device', configtype: 'data', param: key, subparam: name, datatype: 'number', value: v[name] });
    } else if (STATE_POINTS[''].includes(key)) {
      if (typeof v === 'number') points.push({ sensor: 'device', configtype: 'data', param: key, subparam: '', datatype: 'number', value: v });
    } else if (v !== null && typeof v !== 'object') {
      states.push({ key, value: v });
    }
  }
  return accept({ points, states });
}

export function adaptTasmota(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult {
  const parts = topic.split('/');
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
  const handler = prefix === 'tele' ? (leaf === 'SENSOR' ? sensorMessage : leaf === 'STATE' ? stateMessage : undefined) : leaf === 'RESULT' ? resultMessage : undefined;
  if (!handler) return NOTHING; // INFO1..3, STATUS*, HASS_STATE ...: not telemetry
  const json = parseJson(payload);
  if (!json.ok) return reject('not_json');
  if (!isPlainObject(json.value)) return reject('bad_shape', 'not an object');
  return handler(json.value);
}

/** RESULT answers a command: `{"POWER":"ON"}`, `{"Dimmer":40}` ... each top-level field is a device state. */
function resultMessage(body: Record<string, unknown>): AdapterResult {
  const states: RawState[] = [];
  for (const key in body) if (validName(key)) states.push({ key, value: body[key] ?? null });
  return accept({ points: [], states });
}
