// A LoRa network-server integration (ChirpStack v4) signs in with its application's credentials pair and speaks for
// all of the application's LoRa devices under application/<app>/device/<devEui>/...
import { isUnder, nothing, type BrokerRules, type TopicRules } from '../topics.js';

/** the events that show a LoRa device is there: an uplink, or a join (ChirpStack v4 `event/join`) */
const LORA_HEARD = /^application\/([^/]+)\/device\/([0-9A-Fa-f]{16})\/event\/(up|join)$/;

/**
 * A network server's rights: its application's tree under Sentra's numeric application id and under each of its own
 * application ids (ChirpStack UUIDs) recorded on the application's LoRa server entries. ChirpStack subscribes
 * `application/+/device/+/command/+`: allowed, and what reaches it is limited to those trees (scope).
 */
function networkServerRules(appId: number, uuids: readonly string[]): TopicRules {
  const trees = [String(appId), ...uuids];
  const mine = (topic: string) => trees.some((level) => isUnder(topic, 'application', level));
  const across = (filter: string) => filter.startsWith('application/+/') || filter === 'application/#';
  return {
    publish: mine,
    subscribe: (filter) => mine(filter) || across(filter),
    scope: (filter) => (across(filter) ? trees.map((level) => `application/${level}/`) : undefined),
  };
}

export const loraBroker: BrokerRules = {
  roles: ['networkServer'],
  rules: (identity, env) =>
    identity.appId === undefined
      ? nothing
      : networkServerRules(identity.appId, env.lora?.uuidsOf(identity.appId) ?? []),
  // LoRa devices are heard only through their network server: an uplink or a join of one of its application's devices
  heard(identity, topic, _payload, ts, env) {
    const m = LORA_HEARD.exec(topic);
    const names =
      m !== null &&
      identity.appId !== undefined &&
      (m[1] === String(identity.appId) || env.lora?.names(identity.appId, m[1]!) === true);
    if (names)
      void env.devices
        .byDevEui(identity.appId!, m![2]!.toUpperCase())
        .then((device) => device && !device.disabled && env.devices.seen(device.id, ts))
        .catch((err) => env.log.error('LoRa presence not read', err));
    return true;
  },
};
