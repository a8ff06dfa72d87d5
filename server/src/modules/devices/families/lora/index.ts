// LoRa devices, heard and commanded through their application's network server (ChirpStack v4 integration topics
// application/<app>/device/<devEui>/...).
import type { WireFamily } from '../family.js';
import { loraCommand } from './command.js';
import { loraBroker } from './topics.js';
import { loraRegistration } from './registration.js';
import { adaptLora } from './uplink.js';

export const loraFamily: WireFamily = {
  wire: 'lora',
  categories: [3],
  uplink: adaptLora,
  command: loraCommand,
  broker: loraBroker,
  registration: { lora: loraRegistration },
};
