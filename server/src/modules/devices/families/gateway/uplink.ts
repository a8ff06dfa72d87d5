// Serial gateways (ZLAN, USR-IOT, Bivocom, Friendcom, Sentra gateways) on gw/<uid>/up. Our frame format for
// Modbus-like register sets: `{ "node": 1, "registers": { "40001": 231.5, "coil1": true }, "ts"?: epoch }`, or an
// array of up to 32 such frames (one poll cycle of several nodes). Each node is a sensor `node<n>`, each register a param.
import { z } from 'zod';
import {
  accept,
  commandReply,
  MAX_NAME,
  NOTHING,
  parseDeviceTime,
  parseJson,
  reject,
  type AdapterResult,
  type DeviceContext,
  type RawPoint,
} from '../wire.js';

const frameSchema = z.object({
  node: z.number().int().min(0).max(255),
  ts: z.union([z.number(), z.string()]).optional(),
  registers: z
    .record(z.string().min(1).max(MAX_NAME), z.union([z.number(), z.boolean()]))
    .refine((r) => Object.keys(r).length > 0 && Object.keys(r).length <= 256, '1 to 256 registers'),
});
const upSchema = z.union([frameSchema, z.array(frameSchema).min(1).max(32)]);

export function adaptGateway(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== 'gw') return reject('unknown_topic', topic);
  if (!ctx.uid || parts[1].toLowerCase() !== ctx.uid.toLowerCase()) return reject('topic_mismatch', topic);
  // a reply is the command flow's to match; here it is only checked
  if (parts[2] === 'res') return commandReply(payload);
  if (parts[2] !== 'up') return NOTHING;
  const json = parseJson(payload);
  if (!json.ok) return reject('not_json');
  const parsed = upSchema.safeParse(json.value);
  if (!parsed.success) return reject('bad_shape', parsed.error.issues[0]?.message);
  const frames = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  let ts: number | undefined;
  for (const f of frames) {
    if (f.ts === undefined) continue;
    const t = parseDeviceTime(f.ts);
    if (t === undefined) return reject('bad_value', 'ts');
    ts = ts === undefined ? t : Math.max(ts, t); // one poll cycle: the frames share its time
  }
  const points: RawPoint[] = [];
  for (const f of frames) {
    const sensor = `node${f.node}`;
    for (const reg in f.registers) {
      const v = f.registers[reg];
      const datatype =
        ctx.declaredDatatype?.(sensor, 'data', reg, '') ?? (typeof v === 'boolean' ? 'boolean' : 'number');
      points.push({ sensor, configtype: 'data', param: reg, subparam: '', datatype, value: v });
    }
  }
  return accept({ points, states: [], ts });
}
