// Generic MQTT, Sentra end devices and Dummy devices: d/<id>/data|state up, d/<id>/cmd down, d/<id>/cmd/res back.
import type { WireFamily } from '../family.js';
import { genericCommand } from './command.js';
import { genericBroker } from './topics.js';
import { noneRegistration, tokenRegistration, mqttRegistration } from './registration.js';
import { adaptGeneric } from './uplink.js';

export const genericFamily: WireFamily = {
  wire: 'generic',
  categories: [1 /* Dummy */, 2 /* Sentra end device */, 8 /* MQTT */],
  uplink: adaptGeneric,
  command: genericCommand,
  broker: genericBroker,
  registration: { none: noneRegistration, token: tokenRegistration, mqtt: mqttRegistration },
};
