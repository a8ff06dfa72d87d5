// Serial gateway commands: gw/<uid>/down {id, node, register, value, sensor, configtype, param} → gw/<uid>/res {id, ok, code?}
import { idReply, type CommandWire } from '../command.js';

export const gatewayCommand: CommandWire = {
  encode(row, id, cmd) {
    if (!row.uid) return null;
    const node = /^node(\d{1,3})$/.exec(cmd.sensor);
    const body = {
      id,
      node: node ? Number(node[1]) : null,
      register: cmd.param,
      value: cmd.value,
      sensor: cmd.sensor,
      configtype: cmd.configtype,
      param: cmd.param,
    };
    return { topic: `gw/${row.uid}/down`, payload: JSON.stringify(body) };
  },
  matchReply: (row, id, _cmd, topic, payload) =>
    row.uid && topic === `gw/${row.uid}/res` ? idReply(payload, id) : undefined,
};
