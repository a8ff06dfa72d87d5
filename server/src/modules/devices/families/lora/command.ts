// LoRa commands through ChirpStack v4: application/<app>/device/<devEui>/command/down {id, devEui, confirmed, fPort,
// data | object}, <app> being the network server's application UUID when its LoRa server entry records one
// → application/<app>/device/<devEui>/event/ack {queueItemId: id, acknowledged}
import { replyJson, type CommandWire } from '../command.js';
import { isPlainObject } from '../wire.js';
import { encodeLora } from './encoder.js';

/** The fPort LoRa configuration downlinks use (the device profile's codec encodes `object`). */
export const LORA_COMMAND_FPORT = 10;

export const loraCommand: CommandWire = {
  // when the device's decoder table can encode the command's field, the downlink carries those bytes as `data` (the
  // network server then needs no codec of its own), else the `object` for the network server's codec
  encode(row, id, cmd, lora) {
    if (!row.devEui) return null;
    const devEui = row.devEui.toLowerCase();
    const head = { id, devEui, confirmed: true, fPort: LORA_COMMAND_FPORT };
    const bytes = lora.decoder ? encodeLora(lora.decoder, LORA_COMMAND_FPORT, cmd.param, cmd.value) : null;
    const body = bytes
      ? { ...head, data: bytes.toString('base64') }
      : { ...head, object: { sensor: cmd.sensor, configtype: cmd.configtype, param: cmd.param, value: cmd.value } };
    return {
      topic: `application/${lora.application ?? row.appId}/device/${devEui}/command/down`,
      payload: JSON.stringify(body),
    };
  },
  matchReply(row, id, _cmd, topic, payload, loraApplication) {
    if (
      !row.devEui ||
      topic.toLowerCase() !== `application/${loraApplication}/device/${row.devEui.toLowerCase()}/event/ack`
    )
      return undefined;
    const body = replyJson(payload);
    if (!isPlainObject(body) || body.queueItemId !== id) return undefined;
    return { ok: body.acknowledged === true, reply: body };
  },
  // a LoRa device has no connection of its own: a network server of its application carries its downlinks
  reachable: (row, connected) => connected.some((i) => i.role === 'networkServer' && i.appId === row.appId),
};
