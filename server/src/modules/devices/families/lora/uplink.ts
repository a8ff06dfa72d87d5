// LoRa uplinks from a ChirpStack-v4-style network server integration: application/<appId>/device/<devEui>/event/<type>.
// `up` carries the decoded `object` (sensor `lora`) or raw `data` bytes decoded by the device's decoder table; the
// best gateway's RSSI/SNR become sensor `radio`. `status` carries battery and margin; `join` only says the device lives;
// `ack` answers a downlink (matched by the command flow, only checked here).
import { z } from 'zod';
import { decodeLora } from './decoder.js';
import { pointsOfParams } from '../tree.js';
import {
  accept,
  NOTHING,
  parseDeviceTime,
  parseJson,
  reject,
  type AdapterResult,
  type DeviceContext,
  type RawPoint,
} from '../wire.js';

const uplinkSchema = z.object({
  deviceInfo: z.object({ devEui: z.string().regex(/^[0-9a-fA-F]{16}$/) }),
  time: z.string().optional(),
  fPort: z.number().int().min(0).max(255).optional(),
  data: z.string().max(400).optional(),
  object: z.record(z.string(), z.unknown()).optional(),
  rxInfo: z
    .array(z.object({ rssi: z.number().optional(), snr: z.number().optional() }))
    .max(64)
    .optional(),
});
/** what every event names: the device */
const eventSchema = z.object({ deviceInfo: z.object({ devEui: z.string() }) });
const ackSchema = eventSchema.extend({ queueItemId: z.string(), acknowledged: z.boolean() });
const statusSchema = eventSchema.extend({
  time: z.string().optional(),
  margin: z.number().optional(),
  batteryLevel: z.number().optional(),
  externalPowerSource: z.boolean().optional(),
});

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function radioPoints(rxInfo: z.infer<typeof uplinkSchema>['rxInfo'], out: RawPoint[]): void {
  let best: { rssi?: number; snr?: number } | undefined;
  for (const rx of rxInfo ?? [])
    if (rx.rssi !== undefined && (best?.rssi === undefined || rx.rssi > best.rssi)) best = rx;
  if (best?.rssi !== undefined)
    out.push({
      sensor: 'radio',
      configtype: 'data',
      param: 'rssi',
      subparam: '',
      datatype: 'number',
      value: best.rssi,
    });
  if (best?.snr !== undefined)
    out.push({ sensor: 'radio', configtype: 'data', param: 'snr', subparam: '', datatype: 'number', value: best.snr });
}

export function adaptLora(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult {
  const parts = topic.split('/');
  if (parts.length !== 6 || parts[0] !== 'application' || parts[2] !== 'device' || parts[4] !== 'event')
    return reject('unknown_topic', topic);
  const devEui = parts[3].toLowerCase();
  if (!ctx.devEui || devEui !== ctx.devEui.toLowerCase()) return reject('topic_mismatch', topic);
  const event = parts[5];
  if (event !== 'up' && event !== 'status' && event !== 'join' && event !== 'ack') return NOTHING; // txack, log, location
  const json = parseJson(payload);
  if (!json.ok) return reject('not_json');
  if (event === 'join' || event === 'ack') {
    const parsed = (event === 'ack' ? ackSchema : eventSchema).safeParse(json.value);
    if (!parsed.success) return reject('bad_shape', parsed.error.issues[0]?.message);
    if (parsed.data.deviceInfo.devEui.toLowerCase() !== devEui) return reject('topic_mismatch', 'devEui');
    return event === 'join' ? accept({ points: [], states: [], online: true }) : NOTHING;
  }
  const points: RawPoint[] = [];
  if (event === 'status') {
    const parsed = statusSchema.safeParse(json.value);
    if (!parsed.success) return reject('bad_shape', parsed.error.issues[0]?.message);
    if (parsed.data.deviceInfo.devEui.toLowerCase() !== devEui) return reject('topic_mismatch', 'devEui');
    const { batteryLevel, margin } = parsed.data;
    if (batteryLevel !== undefined)
      points.push({
        sensor: 'status',
        configtype: 'data',
        param: 'battery_level',
        subparam: '',
        datatype: 'number',
        value: batteryLevel,
      });
    if (margin !== undefined)
      points.push({
        sensor: 'status',
        configtype: 'data',
        param: 'margin',
        subparam: '',
        datatype: 'number',
        value: margin,
      });
    return accept({ points, states: [], ts: parseDeviceTime(parsed.data.time) });
  }
  const parsed = uplinkSchema.safeParse(json.value);
  if (!parsed.success) return reject('bad_shape', parsed.error.issues[0]?.message);
  const up = parsed.data;
  if (up.deviceInfo.devEui.toLowerCase() !== devEui) return reject('topic_mismatch', 'devEui');
  if (up.object && Object.keys(up.object).length > 0) {
    const bad = pointsOfParams(ctx, 'lora', 'data', up.object, points);
    if (bad) return bad;
  } else if (up.data) {
    if (!BASE64.test(up.data)) return reject('bad_value', 'data');
    const bytes = Buffer.from(up.data, 'base64');
    if (ctx.loraDecoder) {
      const decoded = decodeLora(ctx.loraDecoder, up.fPort, bytes);
      if (!decoded.ok) return reject('decoder_error', decoded.error);
      // values the decoder made that cannot be points are the decoder's error, with the reason the walk gave
      const bad = pointsOfParams(ctx, 'lora', 'data', decoded.values, points);
      if (bad && !bad.ok) return reject('decoder_error', bad.detail);
    } else {
      // without a decoder the bytes are still kept, so a decoder configured later can be checked against them
      points.push({
        sensor: 'lora',
        configtype: 'data',
        param: 'raw',
        subparam: '',
        datatype: 'string',
        value: bytes.toString('hex'),
      });
    }
  }
  radioPoints(up.rxInfo, points);
  return accept({ points, states: [], ts: parseDeviceTime(up.time) });
}
