// Serial gateways (ZLAN, USR-IOT, Bivocom, Friendcom, Sentra gateways): gw/<uid>/up, gw/<uid>/down, gw/<uid>/res.
import type { WireFamily } from '../family.js';
import { gatewayCommand } from './command.js';
import { gatewayBroker } from './topics.js';
import { uidRegistration } from './registration.js';
import { adaptGateway } from './uplink.js';

export const gatewayFamily: WireFamily = {
  wire: 'gateway',
  categories: [4 /* ZLAN */, 5 /* USR-IOT */, 6 /* Bivocom */, 7 /* Friendcom */, 10 /* Sentra gateways */],
  uplink: adaptGateway,
  command: gatewayCommand,
  broker: gatewayBroker,
  registration: { uid: uidRegistration },
};
