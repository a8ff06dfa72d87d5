// Generic MQTT devices, Sentra end devices and Dummy devices (docs/conventions.md "Device topics"): `d/<id>/data`
// carries the reading tree, `d/<id>/state` the states, commands arrive on `d/<id>/cmd` and are answered on
// `d/<id>/cmd/res`.
import type { Reading } from '../profiles/types.js';
import { isRecord, parseJsonObject, type CommandReply, type DeviceCommand, type Frame } from './types.js';

export const genericTopics = (deviceId: number) => ({
  data: `d/${deviceId}/data`,
  state: `d/${deviceId}/state`,
  command: `d/${deviceId}/cmd`,
  reply: `d/${deviceId}/cmd/res`,
});

/** The data frame, and the state frame when the reading has states and `withStates` is set. `ts` becomes `_ts`. */
export function genericFrames(
  deviceId: number,
  reading: Reading,
  opts: { ts?: number; withStates?: boolean } = {},
): Frame[] {
  const topics = genericTopics(deviceId);
  const body = opts.ts === undefined ? reading.data : { ...reading.data, _ts: opts.ts };
  const frames: Frame[] = [{ topic: topics.data, payload: JSON.stringify(body) }];
  if (opts.withStates && reading.states && Object.keys(reading.states).length > 0) {
    frames.push({
      topic: topics.state,
      payload: JSON.stringify(opts.ts === undefined ? reading.states : { ...reading.states, _ts: opts.ts }),
    });
  }
  return frames;
}

/** `{id, sensor, configtype, param, value}`, or null for anything else (a device ignores what it cannot read). */
export function parseGenericCommand(payload: Buffer | string): DeviceCommand | null {
  const o = parseJsonObject(payload);
  if (!o || (typeof o.id !== 'string' && typeof o.id !== 'number')) return null;
  if (typeof o.param !== 'string') return null;
  return {
    id: o.id,
    sensor: typeof o.sensor === 'string' ? o.sensor : '',
    configtype: typeof o.configtype === 'string' ? o.configtype : '',
    param: o.param,
    value: isRecord(o) ? o.value : undefined,
  };
}

export function genericReply(deviceId: number, reply: CommandReply): Frame {
  const body =
    reply.code === undefined ? { id: reply.id, ok: reply.ok } : { id: reply.id, ok: reply.ok, code: reply.code };
  return { topic: genericTopics(deviceId).reply, payload: JSON.stringify(body) };
}
