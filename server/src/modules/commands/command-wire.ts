// How a command reaches each device family on the wire, and how its reply is recognised (DESIGN.md section 4):
//   generic MQTT, Sentra, Dummy: d/<id>/cmd {id, sensor, configtype, param, value} → d/<id>/cmd/res {id, ok, code?}
//   Tasmota: cmnd/<topic>/<param> with the value as text → stat/<topic>/RESULT {"<Param>": ...} (case-insensitive)
//   LoRa (ChirpStack v4): application/<app>/device/<devEui>/command/down {id, devEui, confirmed, fPort, data | object}, <app> being
//                         the network server's application UUID when its LoRa server entry records one
//                         → application/<app>/device/<devEui>/event/ack {queueItemId: id, acknowledged}
//   serial gateways: gw/<uid>/down {id, node, register, value, sensor, configtype, param} → gw/<uid>/res {id, ok, code?}
import { jsonDepthWithin } from '@sentra/contracts';
import { MAX_DEPTH, MAX_PAYLOAD_BYTES, parseJson, WIRE_OF_CATEGORY, type LoraDecoder, type WireProtocol } from '../devices/families/index.js';
import { encodeLora } from '../devices/families/lora/encoder.js';
import type { DeviceRow } from '../devices/families.js';

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

/** The fPort LoRa configuration downlinks use (the device profile's codec encodes `object`). */
export const LORA_COMMAND_FPORT = 10;

export const wireOf = (row: Pick<DeviceRow, 'category'>): WireProtocol | undefined => WIRE_OF_CATEGORY[row.category];

/** A reply's JSON, or undefined for what telemetry counts as malformed: the reply goes back in the call's answer */
const json = (payload: Buffer): unknown => {
  if (payload.length > MAX_PAYLOAD_BYTES) return undefined;
  const parsed = parseJson(payload);
  return parsed.ok && jsonDepthWithin(parsed.value, MAX_DEPTH) ? parsed.value : undefined;
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Tasmota takes a command's value as text: ON/OFF for booleans, JSON for structures. */
export const tasmotaValue = (v: unknown) => (v === true ? 'ON' : v === false ? 'OFF' : typeof v === 'string' ? v : JSON.stringify(v));

const ON = /^(on|1|true)$/i;
const OFF = /^(off|0|false)$/i;

/**
 * Whether Tasmota's answer shows the value a command set. Only where the answer can be checked: an ON/OFF answer to
 * an ON/OFF-like value (not TOGGLE, BLINK, 2...), a number to a number; any other answer is taken as the device's word.
 */
export function tasmotaTook(sent: unknown, answer: unknown): boolean {
  const value = tasmotaValue(sent);
  if (answer === 'ON' || answer === 'OFF') {
    if (ON.test(value)) return answer === 'ON';
    if (OFF.test(value)) return answer === 'OFF';
    return true;
  }
  if (typeof answer === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value) === answer;
  return true;
}

/**
 * The message that carries command `id` to the device, or null when its family takes no commands. For a LoRa device,
 * `lora.application` is the application level of its topics (its network server's own application id, e.g. a
 * ChirpStack UUID; Sentra's numeric application id by default), and `lora.decoder` its decoder table: when the table
 * can encode the command's field, the downlink carries those bytes as `data` (the network server then needs no codec
 * of its own), else the `object` for the network server's codec.
 */
export function encodeCommand(row: DeviceRow, id: string, cmd: CommandBody, lora: { application?: string; decoder?: LoraDecoder } = {}): Outbound | null {
  switch (wireOf(row)) {
    case 'generic':
      return { topic: `d/${row.id}/cmd`, payload: JSON.stringify({ id, sensor: cmd.sensor, configtype: cmd.configtype, param: cmd.param, value: cmd.value }) };
    case 'tasmota':
      if (!row.topic || !/^[A-Za-z0-9_]+$/.test(cmd.param)) return null;
      return { topic: `cmnd/${row.topic}/${cmd.param}`, payload: tasmotaValue(cmd.value) };
    case 'lora': {
      if (!row.devEui) return null;
      const devEui = row.devEui.toLowerCase();
      const head = { id, devEui, confirmed: true, fPort: LORA_COMMAND_FPORT };
      const bytes = lora.decoder ? encodeLora(lora.decoder, LORA_COMMAND_FPORT, cmd.param, cmd.value) : null;
      const body = bytes ? { ...head, data: bytes.toString('base64') } : { ...head, object: { sensor: cmd.sensor, configtype: cmd.configtype, param: cmd.param, value: cmd.value } };
      return { topic: `application/${lora.application ?? row.appId}/device/${devEui}/command/down`, payload: JSON.stringify(body) };
    }
    case 'gateway': {
      if (!row.uid) return null;
      const node = /^node(\d{1,3})$/.exec(cmd.sensor);
      const body = { id, node: node ? Number(node[1]) : null, register: cmd.param, value: cmd.value, sensor: cmd.sensor, configtype: cmd.configtype, param: cmd.param };
      return { topic: `gw/${row.uid}/down`, payload: JSON.stringify(body) };
    }
    default:
      return null;
  }
}

/** `{id, ok, code?}` of the generic and gateway replies */
function idReply(payload: Buffer, id: string): ReplyVerdict | undefined {
  const body = json(payload);
  if (!isObject(body) || body.id !== id) return undefined;
  const code = typeof body.code === 'number' || typeof body.code === 'string' ? body.code : undefined;
  return { ok: body.ok === true, code, reply: body };
}

/** The verdict when `topic`/`payload` answers the pending command `id` to `row`; undefined when it does not. */
export function matchReply(row: DeviceRow, id: string, cmd: CommandBody, topic: string, payload: Buffer, loraApplication = String(row.appId)): ReplyVerdict | undefined {
  switch (wireOf(row)) {
    case 'generic':
      return topic === `d/${row.id}/cmd/res` ? idReply(payload, id) : undefined;
    case 'gateway':
      return row.uid && topic === `gw/${row.uid}/res` ? idReply(payload, id) : undefined;
    case 'tasmota': {
      // POWER<n> may be answered by stat/<topic>/POWER<n> alone (ON/OFF as text, no RESULT): that answers it too
      if (topic.toLowerCase() === `stat/${row.topic}/${cmd.param}`.toLowerCase() && topic !== `stat/${row.topic}/RESULT`) {
        const text = payload.toString('utf8').trim();
        if (!/^(ON|OFF)$/.test(text)) return undefined;
        const reply = { [topic.slice(topic.lastIndexOf('/') + 1)]: text };
        return tasmotaTook(cmd.value, text) ? { ok: true, reply } : { ok: false, code: 'unchanged', reply };
      }
      if (topic !== `stat/${row.topic}/RESULT`) return undefined;
      const body = json(payload);
      if (!isObject(body)) return undefined;
      // an unknown command or a bad value: Tasmota answers {"Command":"Unknown"} / {"Command":"Error"}
      if (typeof body.Command === 'string' && /^(Unknown|Error)$/i.test(body.Command)) return { ok: false, code: body.Command, reply: body };
      const wanted = cmd.param.toLowerCase();
      const key = Object.keys(body).find((k) => k.toLowerCase() === wanted);
      if (key === undefined) return undefined;
      // the device kept another value (a power lock, an interlock, a value out of range): it refused
      return tasmotaTook(cmd.value, body[key]) ? { ok: true, reply: body } : { ok: false, code: 'unchanged', reply: body };
    }
    case 'lora': {
      if (!row.devEui || topic.toLowerCase() !== `application/${loraApplication}/device/${row.devEui.toLowerCase()}/event/ack`) return undefined;
      const body = json(payload);
      if (!isObject(body) || body.queueItemId !== id) return undefined;
      return { ok: body.acknowledged === true, reply: body };
    }
    default:
      return undefined;
  }
}
