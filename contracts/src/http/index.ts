// The route table: every documented call, once. Add a domain's contract here and the server mounts it.
import { authContract } from './auth.js';
import { appsContract } from './apps.js';
import { credentialsContract } from './credentials.js';
import { refreshTokenContract, usersContract } from './users.js';
import { rolesContract } from './roles.js';
import { navsContract } from './navs.js';
import { dashboardsContract } from './dashboards.js';
import { deviceFamilyContract, devicesContract } from './devices.js';
import { tagsContract } from './tags.js';
import { loraContract } from './lora.js';
import { deviceDataContract } from './device-data.js';
import { statesContract } from './states.js';
import { commandsContract } from './commands.js';
import { cardsContract } from './cards.js';
import { webserviceContract } from './webservice.js';
import { rulesContract } from './rules.js';
import { tasksContract } from './tasks.js';
import { notificationsContract } from './notifications.js';
import { systemContract } from './system.js';
import type { CallDef } from './define.js';

export const contracts = {
  auth: authContract,
  apps: appsContract,
  credentials: credentialsContract,
  users: usersContract,
  refreshToken: refreshTokenContract,
  roles: rolesContract,
  navs: navsContract,
  dashboards: dashboardsContract,
  devices: devicesContract,
  deviceFamilies: deviceFamilyContract,
  tags: tagsContract,
  lora: loraContract,
  deviceData: deviceDataContract,
  states: statesContract,
  commands: commandsContract,
  cards: cardsContract,
  webservice: webserviceContract,
  rules: rulesContract,
  tasks: tasksContract,
  notifications: notificationsContract,
  system: systemContract,
} as const;

export function allCalls(): CallDef[] {
  return Object.values(contracts).flatMap((c) => Object.values(c) as CallDef[]);
}

export { authContract, appsContract };
export { credentialsContract, usersContract, refreshTokenContract, rolesContract, navsContract, dashboardsContract };
export { devicesContract, deviceFamilyContract, tagsContract, loraContract };
export { deviceDataContract, statesContract, commandsContract };
export { cardsContract, webserviceContract };
export { rulesContract, tasksContract, notificationsContract, systemContract };
export { WEBSERVICE_LIMITS, WebserviceCode, WebserviceAnswer } from './webservice.js';
