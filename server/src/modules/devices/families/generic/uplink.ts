// Generic MQTT, Sentra end devices and Dummy devices (docs/conventions.md "Device topics"): `d/<deviceId>/data` and
// `d/<deviceId>/state`. An optional top-level `_ts` (epoch ms or s, or ISO-8601 with zone) states the measurement time.
import { z } from 'zod';
import {
  accept,
  commandReply,
  isPlainObject,
  MAX_NAME,
  MAX_STATES,
  NOTHING,
  parseDeviceTime,
  parseJson,
  reject,
  validName,
  type AdapterOutput,
  type AdapterResult,
  type DeviceContext,
  type RawPoint,
  type RawState,
} from '../wire.js';
import { pointsOfParams, pushState } from '../tree.js';
import { fromTemplate, learnTemplate } from './template.js';

const name = z.string().min(1).max(MAX_NAME);
const sensorName = name.refine((s) => s[0] !== '_', 'names starting with _ are reserved');

/**
 * `{ sensor: { configtype: { ... } } }`, checked by hand: this runs for every data message and a schema library costs a
 * tenth of the ingest budget here. Param and subparam names are checked by the walk that makes the points.
 */
function dataShapeError(body: Record<string, unknown>): string | undefined {
  let sensors = 0;
  for (const sensor in body) {
    sensors++;
    if (!validName(sensor) || sensor[0] === '_')
      return `invalid sensor name ${JSON.stringify(sensor.slice(0, MAX_NAME))}`;
    const configs = body[sensor];
    if (!isPlainObject(configs)) return `${sensor}: expected an object`;
    for (const configtype in configs) {
      if (!validName(configtype)) return `${sensor}: invalid configtype name`;
      if (!isPlainObject(configs[configtype])) return `${sensor}.${configtype}: expected an object`;
    }
  }
  return sensors === 0 ? 'no sensor' : undefined;
}
const stateSchema = z
  .record(sensorName, z.unknown())
  .refine((o) => Object.keys(o).length > 0 && Object.keys(o).length <= MAX_STATES, `1 to ${MAX_STATES} keys`);

/** `d/<id>/` (the id from 2 to `slash`) names the device: its id written as String(id) writes it */
function namesDevice(topic: string, slash: number, deviceId: number): boolean {
  if (slash === 2 || (topic.charCodeAt(2) === 0x30 && slash > 3)) return false;
  let id = 0;
  for (let i = 2; i < slash; i++) {
    const digit = topic.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return false;
    id = id * 10 + digit;
  }
  return id === deviceId;
}

/** `d/<id>/<kind>`; the id must be the device's own. */
export function adaptGeneric(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult {
  const slash = topic.indexOf('/', 2);
  if (!topic.startsWith('d/') || slash < 0) return reject('unknown_topic', topic);
  if (!namesDevice(topic, slash, ctx.deviceId)) return reject('topic_mismatch', topic);
  const kind = topic.slice(slash + 1);
  // a reply is the command flow's to match; here it is only checked
  if (kind === 'cmd/res') return commandReply(payload);
  if (kind !== 'data' && kind !== 'state') return NOTHING;
  if (kind === 'data') {
    const fast = fromTemplate(ctx, payload);
    if (fast) return accept(fast);
  }
  const json = parseJson(payload);
  if (!json.ok) return reject('not_json');
  if (!isPlainObject(json.value)) return reject('bad_shape', 'not an object');
  const body = json.value;
  let ts: number | undefined;
  if ('_ts' in body) {
    ts = parseDeviceTime(body._ts);
    if (ts === undefined) return reject('bad_value', '_ts');
    delete body._ts;
  }
  if (kind === 'state') {
    const parsed = stateSchema.safeParse(body);
    if (!parsed.success) return reject('bad_shape', parsed.error.issues[0]?.message);
    const states: RawState[] = [];
    for (const [key, value] of Object.entries(parsed.data)) {
      const bad = pushState(key, value ?? null, states);
      if (bad) return bad;
    }
    return accept({ points: [], states, ts });
  }
  const shapeError = dataShapeError(body);
  if (shapeError) return reject('bad_shape', shapeError);
  const data = body as Record<string, Record<string, Record<string, unknown>>>;
  const points: RawPoint[] = [];
  for (const sensor in data) {
    const configtypes = data[sensor];
    for (const configtype in configtypes) {
      const bad = pointsOfParams(ctx, sensor, configtype, configtypes[configtype], points);
      if (bad) return bad;
    }
  }
  const out: AdapterOutput = { points, states: [], ts };
  learnTemplate(ctx, payload, out);
  return accept(out);
}
