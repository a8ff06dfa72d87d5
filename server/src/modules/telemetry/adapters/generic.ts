// Generic MQTT, Sentra end devices and Dummy devices (DESIGN.md section 4): `d/<deviceId>/data` and `d/<deviceId>/state`.
// An optional top-level `_ts` (epoch ms or s, or ISO-8601 with zone) states the measurement time.
import { z } from 'zod';
import { accept, isPlainObject, MAX_NAME, NOTHING, parseDeviceTime, parseJson, reject, type AdapterResult, type DeviceContext, type RawPoint, type RawState } from './types.js';
import { pointsOfParams } from './tree.js';

const name = z.string().min(1).max(MAX_NAME);
const sensorName = name.refine((s) => s[0] !== '_', 'names starting with _ are reserved');
const dataSchema = z.record(sensorName, z.record(name, z.record(name, z.unknown()))).refine((o) => Object.keys(o).length > 0, 'no sensor');
const stateSchema = z.record(sensorName, z.unknown()).refine((o) => Object.keys(o).length > 0 && Object.keys(o).length <= 256, '1 to 256 keys');

/** `d/<id>/<kind>` split once; the id must be the device's own. */
export function adaptGeneric(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult {
  const parts = topic.split('/');
  if (parts.length < 3 || parts[0] !== 'd') return reject('unknown_topic', topic);
  if (parts[1] !== String(ctx.deviceId)) return reject('topic_mismatch', topic);
  const kind = parts.slice(2).join('/');
  if (kind !== 'data' && kind !== 'state') return NOTHING; // cmd/res belongs to the command flow
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
    const states: RawState[] = Object.entries(parsed.data).map(([key, value]) => ({ key, value: value ?? null }));
    return accept({ points: [], states, ts });
  }
  const parsed = dataSchema.safeParse(body);
  if (!parsed.success) return reject('bad_shape', parsed.error.issues[0]?.message);
  const points: RawPoint[] = [];
  for (const sensor in parsed.data) {
    const configtypes = parsed.data[sensor];
    for (const configtype in configtypes) {
      if (!pointsOfParams(ctx, sensor, configtype, configtypes[configtype], points)) return reject('bad_shape', 'name');
    }
  }
  return accept({ points, states: [], ts });
}
