// The downlink vocabulary every wire family shares: a command's body, the message that carries it, and what a reply
// says (docs/conventions.md "Device topics"). Each family's command.ts encodes its downlink and recognises its reply;
// the command path (commands/commands.service.ts) asks the family table (./index.ts).
import { jsonDepthWithin } from '@sentra/contracts';
import type { DeviceRow } from '../devices.table.js';
import type { LoraDecoder } from './lora/decoder.js';
import type { DeviceIdentity } from './topics.js';
import { isPlainObject, MAX_DEPTH, MAX_PAYLOAD_BYTES, parseJson } from './wire.js';

export interface CommandBody {
  sensor: string;
  configtype: string;
  param: string;
  value: unknown;
}

export interface Outbound {
  topic: string;
  payload: string;
}

/** what a reply says: accepted or refused (with the device's own code), plus the device's answer as sent */
export interface ReplyVerdict {
  ok: boolean;
  code?: number | string;
  reply: unknown;
}

/**
 * For a LoRa device: `application` is the application level of its topics (its network server's own application id,
 * e.g. a ChirpStack UUID; Sentra's numeric application id by default), and `decoder` its decoder table. Other
 * families ignore it.
 */
export interface LoraDownlink {
  application?: string;
  decoder?: LoraDecoder;
}

export interface CommandWire {
  /** The message that carries command `id` to the device, or null when the device cannot take it. */
  encode(row: DeviceRow, id: string, cmd: CommandBody, lora: LoraDownlink): Outbound | null;
  /** The verdict when `topic`/`payload` answers the pending command `id` to `row`; undefined when it does not. */
  matchReply(
    row: DeviceRow,
    id: string,
    cmd: CommandBody,
    topic: string,
    payload: Buffer,
    loraApplication: string,
  ): ReplyVerdict | undefined;
  /** Whether one of these broker connections carries the device's commands; absent: a connection of the device itself. */
  reachable?(row: DeviceRow, connected: readonly DeviceIdentity[]): boolean;
}

/** A reply's JSON, or undefined for what telemetry counts as malformed: the reply goes back in the call's answer */
export const replyJson = (payload: Buffer): unknown => {
  if (payload.length > MAX_PAYLOAD_BYTES) return undefined;
  const parsed = parseJson(payload);
  return parsed.ok && jsonDepthWithin(parsed.value, MAX_DEPTH) ? parsed.value : undefined;
};

/** `{id, ok, code?}` of the generic and gateway replies */
export function idReply(payload: Buffer, id: string): ReplyVerdict | undefined {
  const body = replyJson(payload);
  if (!isPlainObject(body) || body.id !== id) return undefined;
  const code = typeof body.code === 'number' || typeof body.code === 'string' ? body.code : undefined;
  return { ok: body.ok === true, code, reply: body };
}
