// Tasmota commands: cmnd/<topic>/<param> with the value as text → stat/<topic>/RESULT {"<Param>": ...}
// (case-insensitive), or stat/<topic>/POWER<n> alone for a POWER command.
import { replyJson, type CommandWire } from '../command.js';
import { isPlainObject } from '../wire.js';

/** Tasmota takes a command's value as text: ON/OFF for booleans, JSON for structures. */
export const tasmotaValue = (v: unknown) =>
  v === true ? 'ON' : v === false ? 'OFF' : typeof v === 'string' ? v : JSON.stringify(v);

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
  if (typeof answer === 'number' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value) === answer;
  return true;
}

export const tasmotaCommand: CommandWire = {
  encode(row, _id, cmd) {
    if (!row.topic || !/^[A-Za-z0-9_]+$/.test(cmd.param)) return null;
    return { topic: `cmnd/${row.topic}/${cmd.param}`, payload: tasmotaValue(cmd.value) };
  },
  matchReply(row, _id, cmd, topic, payload) {
    // POWER<n> may be answered by stat/<topic>/POWER<n> alone (ON/OFF as text, no RESULT): that answers it too
    if (
      topic.toLowerCase() === `stat/${row.topic}/${cmd.param}`.toLowerCase() &&
      topic !== `stat/${row.topic}/RESULT`
    ) {
      const text = payload.toString('utf8').trim();
      if (!/^(ON|OFF)$/.test(text)) return undefined;
      const reply = { [topic.slice(topic.lastIndexOf('/') + 1)]: text };
      return tasmotaTook(cmd.value, text) ? { ok: true, reply } : { ok: false, code: 'unchanged', reply };
    }
    if (topic !== `stat/${row.topic}/RESULT`) return undefined;
    const body = replyJson(payload);
    if (!isPlainObject(body)) return undefined;
    // an unknown command or a bad value: Tasmota answers {"Command":"Unknown"} / {"Command":"Error"}
    if (typeof body.Command === 'string' && /^(Unknown|Error)$/i.test(body.Command))
      return { ok: false, code: body.Command, reply: body };
    const wanted = cmd.param.toLowerCase();
    const key = Object.keys(body).find((k) => k.toLowerCase() === wanted);
    if (key === undefined) return undefined;
    // the device kept another value (a power lock, an interlock, a value out of range): it refused
    return tasmotaTook(cmd.value, body[key])
      ? { ok: true, reply: body }
      : { ok: false, code: 'unchanged', reply: body };
  },
};
