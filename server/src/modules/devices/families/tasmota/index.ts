// Tasmota firmware with its default FullTopic `%prefix%/%topic%/`: tele|stat/<topic>/... up, cmnd/<topic>/... down,
// and its own discovery under tasmota/discovery/<MAC>/.
import type { WireFamily } from '../family.js';
import { tasmotaCommand } from './command.js';
import { tasmotaBroker } from './topics.js';
import { tasmotaRegistration } from './registration.js';
import { adaptTasmota } from './uplink.js';

export const tasmotaFamily: WireFamily = {
  wire: 'tasmota',
  categories: [9],
  uplink: adaptTasmota,
  command: tasmotaCommand,
  broker: tasmotaBroker,
  registration: { tasmota: tasmotaRegistration },
};

export { knownMac } from './topics.js';
