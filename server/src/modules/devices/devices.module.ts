// Composes the devices domain with its neighbours (tags, LoRa servers, the broker): what app.ts mounts and closes.
import { familyByKey } from '@sentra/contracts';
import type { Db } from '../../db.js';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import type { Broker } from '../../platform/mqtt/types.js';
import { createLoraService } from '../lora/lora.service.js';
import { loraRoutes } from '../lora/lora.routes.js';
import { loraApplications, loraNetworkServerSignIn } from '../lora/network-server-auth.js';
import { createTagsService } from '../tags/tags.service.js';
import { tagsRoutes } from '../tags/tags.routes.js';
import { createActivation } from './activation.js';
import { simulatedEmmaCloud, simulatedImouCloud, type EmmaPluginCloud, type ImouCloud } from './cloud.js';
import { attachDevicesToBroker, type PresenceBus } from './devices.broker.js';
import { devicesRoutes } from './devices.routes.js';
import { createDeviceService } from './devices.service.js';
import { shareRegistryChanges } from './registry-changes.js';
import { brokerAddress, type RequestOrigin } from './broker-address.js';

export interface DevicesDomainDeps {
  db: Db;
  broker: Broker;
  /** presence and the registry's changes across gateways (scale-out) */
  bus?: PresenceBus;
  config: Config;
  log: Logger;
  now?: () => number;
  emma?: EmmaPluginCloud;
  imou?: ImouCloud;
  /** the HTTP port actually bound (MQTT over WebSocket is served on it at /mqtt) */
  httpPort?: () => number;
  /** the tenant of an application (apps domain): device identities on the broker carry it */
  tenantOf?: (appId: number) => number | undefined;
}

export function createDevicesDomain({
  db,
  broker,
  bus,
  config,
  log,
  now = Date.now,
  emma = simulatedEmmaCloud,
  imou = simulatedImouCloud,
  httpPort = () => config.PORT,
  tenantOf,
}: DevicesDomainDeps) {
  const tags = createTagsService(db, { now });
  const lora = createLoraService(db, { now });
  const activation = createActivation(db, now);
  const mqttPort = () => broker.port || config.MQTT_PORT;
  // where devices connect: MQTT_PUBLIC_URL, else the host the asking request came to (broker-address.ts)
  const address = (origin?: RequestOrigin) =>
    brokerAddress(
      { publicUrl: config.MQTT_PUBLIC_URL, bindHost: config.HOST, mqttPort: mqttPort(), httpPort: httpPort() },
      origin,
    );
  const devices = createDeviceService(db, {
    tags,
    lora,
    activation,
    emma,
    imou,
    now,
    brokerUrl: (origin) => address(origin).url,
    broker: (origin) => {
      const a = address(origin);
      return { host: a.host, port: a.port, wsUrl: a.wsUrl };
    },
  });
  // which application a network server's topics name (Sentra's numeric id or its own, e.g. a ChirpStack UUID)
  const loraApps = loraApplications(db, { now });
  // scale-out: the other gateways kick and forget a device as this one does (registry-changes.ts)
  const registryChanges = shareRegistryChanges(bus, devices);
  const onBroker = attachDevicesToBroker(broker, devices, activation, {
    log,
    now,
    networkServer: loraNetworkServerSignIn(db),
    lora: loraApps,
    silenceMs: config.PRESENCE_SILENCE_S * 1000,
    loraCategory: familyByKey('lora')!.category,
    bus,
    registryChanges,
    tenantOf,
  });
  return {
    tags,
    lora,
    loraApplications: loraApps,
    devices,
    activation,
    registryChanges,
    routes: [...devicesRoutes({ db, devices, activation, emma, now }), ...tagsRoutes(tags), ...loraRoutes(lora)],
    close: () => {
      registryChanges.close();
      onBroker.close();
    },
  };
}
