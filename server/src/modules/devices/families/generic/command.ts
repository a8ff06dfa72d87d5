// Generic MQTT, Sentra and Dummy commands: d/<id>/cmd {id, sensor, configtype, param, value} → d/<id>/cmd/res {id, ok, code?}
import { idReply, type CommandWire } from '../command.js';

export const genericCommand: CommandWire = {
  encode: (row, id, cmd) => ({
    topic: `d/${row.id}/cmd`,
    payload: JSON.stringify({ id, sensor: cmd.sensor, configtype: cmd.configtype, param: cmd.param, value: cmd.value }),
  }),
  matchReply: (row, id, _cmd, topic, payload) => (topic === `d/${row.id}/cmd/res` ? idReply(payload, id) : undefined),
};
