// The uplink vocabulary every wire family shares: what a family's uplink adapter receives (the device behind an MQTT
// identity) and what it answers: points and state changes in the product's own terms, or a typed reason for dropping
// the message (counted by the ingest pipeline). Adapters are pure functions.
import { jsonDepthWithin } from '@sentra/contracts';
import type { MqttIdentity } from '../../../platform/mqtt/types.js';
import type { Datatype } from '../../telemetry/datatypes.js';
import type { DataTemplate } from './generic/template.js';
import type { LoraDecoder } from './lora/decoder.js';

/** Default payload limit: far above any real device message, far below what could hurt the gateway. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** The device a message belongs to, as the device registry knows it (cached there: resolved on every message). */
export interface DeviceContext {
  deviceId: number;
  appId: number;
  /** family code, docs/conventions.md "Codes of the domain" */
  category: number;
  /** Tasmota `%topic%` */
  tasmotaTopic?: string;
  /** LoRa DevEUI (hex, any case) */
  devEui?: string;
  /** serial gateway UID */
  uid?: string;
  /** decodes a LoRa uplink's raw `data` when the network server sent no decoded `object` */
  loraDecoder?: LoraDecoder;
  /** a disabled device's messages are dropped (counted as `disabled`) */
  disabled?: boolean;
  /** the bus subject of the device's telemetry, `tele.<app>.<device>` (the ingest pipeline's, kept with its context) */
  teleSubject?: string;
  /** the generic family's template of the device's data messages (generic/template.ts), kept with its context */
  dataTemplate?: DataTemplate;
  /** datatype declared by the device's sensor configuration; undefined → inferred from the JSON value */
  declaredDatatype?(sensor: string, configtype: string, param: string, subparam: string): Datatype | undefined;
}

/**
 * Implemented by the device registry. `topic` is absent for connect/disconnect events: answer the device when the
 * identity is one device, null when it is not (a LoRa network server speaks for many devices).
 */
export interface DeviceResolver {
  resolveDevice(identity: MqttIdentity, topic?: string): DeviceResolution;
}

/** a device's context (null: none) at once, or a promise of it when its row has to be read first */
export type DeviceResolution = DeviceContext | null | Promise<DeviceContext | null>;

export interface RawPoint {
  sensor: string;
  configtype: string;
  param: string;
  /** '' when the param has no subparams */
  subparam: string;
  datatype: Datatype;
  value: unknown;
}

export interface RawState {
  key: string;
  /** any JSON value; null makes the state "Inactive" */
  value: unknown;
}

export interface AdapterOutput {
  points: RawPoint[];
  states: RawState[];
  /** true/false when the message itself says so (Tasmota LWT); absent otherwise */
  online?: boolean;
  /** the time the device (or network server) states for the message, epoch ms; absent → receive time */
  ts?: number;
}

export type RejectReason =
  | 'unknown_device'
  | 'disabled'
  | 'too_large'
  | 'not_json'
  | 'bad_shape'
  | 'bad_value'
  | 'topic_mismatch'
  | 'unknown_topic'
  | 'decoder_error'
  | 'datatype_mismatch'
  | 'series_limit'
  /** a new state key past MAX_STATE_KEYS_PER_DEVICE (counted after the writer's commit) */
  | 'state_limit'
  | 'closed';

export type AdapterResult = { ok: true; out: AdapterOutput } | { ok: false; reason: RejectReason; detail?: string };

export const reject = (reason: RejectReason, detail?: string): AdapterResult => ({ ok: false, reason, detail });
export const accept = (out: AdapterOutput): AdapterResult => ({ ok: true, out });
export const NOTHING: AdapterResult = { ok: true, out: { points: [], states: [] } };

/**
 * Names of sensors, configtypes, params, subparams and state keys: 1 to 64 characters, never `__proto__` (where a
 * name becomes an object key, as in the card editor's selection tree, it would reach Object.prototype).
 */
export const MAX_NAME = 64;
export const validName = (s: string): boolean => s.length > 0 && s.length <= MAX_NAME && s !== '__proto__';

/** A message sets at most this many states (each is a row with a history of its own). */
export const MAX_STATES = 256;

/** Objects and arrays in a value nest at most this deep: JSON.parse reads any depth, but storing the value
 * (JSON.stringify) runs out of stack some thousands of levels down, well inside the payload limit. */
export const MAX_DEPTH = 32;

/** Why a JSON value cannot be kept as a state, or undefined: a number beyond a double (JSON's 1e999 reads as
 * Infinity) or a structure nested too deep. */
export function unstorable(v: unknown): AdapterResult | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : reject('bad_value', 'number out of range');
  if (!jsonDepthWithin(v, MAX_DEPTH)) return reject('bad_shape', `nested deeper than ${MAX_DEPTH}`);
  return undefined;
}

// fatal: bytes that are not UTF-8 make a malformed message, not text with U+FFFD in it (as fast as Buffer#toString)
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseJson(payload: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(utf8.decode(payload)) };
  } catch {
    return { ok: false };
  }
}

/**
 * A command reply `{id, ok, code?}` (d/<id>/cmd/res, gw/<uid>/res): no telemetry, but a malformed one is counted here;
 * the command flow matches the reply to its command (its family's command.ts).
 */
export function commandReply(payload: Buffer): AdapterResult {
  const json = parseJson(payload);
  if (!json.ok) return reject('not_json');
  const body = json.value;
  if (!isPlainObject(body) || typeof body.id !== 'string' || typeof body.ok !== 'boolean')
    return reject('bad_shape', 'a reply is {id, ok, code?}');
  return jsonDepthWithin(body, MAX_DEPTH) ? NOTHING : reject('bad_shape', `nested deeper than ${MAX_DEPTH}`);
}

/** A device-stated time: epoch ms, epoch seconds (below 1e11) or an ISO-8601 string with a zone. */
export function parseDeviceTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.round(v < 1e11 ? v * 1000 : v);
  if (typeof v === 'string' && /(Z|[+-]\d\d:?\d\d)$/.test(v)) {
    const ms = Date.parse(v);
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
