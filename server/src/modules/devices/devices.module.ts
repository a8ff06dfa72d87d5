// Composes the devices domain with its neighbours (tags, LoRa servers, the broker): what app.ts mounts and closes.
import { familyByKey } from '@sentra/contracts';
import type { AppStore } from '../../db.js';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import type { Broker } from '../../platform/mqtt/types.js';
import { createLoraService } from '../lora/lora.service.js';
import { createLoraStore } from '../lora/lora.store.js';
import { loraRoutes } from '../lora/lora.routes.js';
import { loraApplications, loraNetworkServerSignIn, type CredentialsPairByHash } from '../lora/network-server-auth.js';
import { createTagsService } from '../tags/tags.service.js';
import { createTagsStore } from '../tags/tags.store.js';
import { tagsRoutes } from '../tags/tags.routes.js';
import { createSensorSettingsStore } from '../telemetry/sensor-settings.store.js';
import { createActivation } from './activation.js';
import { simulatedEmmaCloud, simulatedImouCloud, type EmmaPluginCloud, type ImouCloud } from './cloud.js';
import { attachDevicesToBroker, type PresenceBus } from './devices.broker.js';
import { devicesRoutes } from './devices.routes.js';
import { createDeviceService, hashPlainBrokerPasswords } from './devices.service.js';
import { createDevicesStore } from './devices.store.js';
import type { AddRootDashboard } from './dummy-dashboard.js';
import { shareRegistryChanges } from './registry-changes.js';
import { brokerAddress, type RequestOrigin } from './broker-address.js';

export interface DevicesDomainDeps {
  store: AppStore;
  /** the credentials domain: the API credentials pair a LoRa network server signs in with */
  credentialsPairByHash: CredentialsPairByHash;
  /** the dashboards domain: a new root dashboard ("Generate Dashboard" of a dummy device) */
  addDashboard: AddRootDashboard;
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

/** Ready once the registry's start-up work is done (plain broker passwords hashed, the search index, LoRa ids). */
export async function createDevicesDomain({
  store,
  credentialsPairByHash,
  addDashboard,
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
  const devicesStore = createDevicesStore(store);
  await hashPlainBrokerPasswords(devicesStore);
  await devicesStore.search.ensureIndex();
  const tags = createTagsService(
    createTagsStore(store),
    { devices: devicesStore, sensors: createSensorSettingsStore(store) },
    { now },
  );
  const loraStore = createLoraStore(store);
  // which application a network server's topics name (Sentra's numeric id or its own, e.g. a ChirpStack UUID)
  const loraApps = await loraApplications(loraStore, {
    now,
    onError: (err) => log.error('LoRa application ids not read', err),
  });
  const lora = createLoraService(loraStore, {
    now,
    devicesOn: devicesStore.countOnNetworkServer,
    changed: loraApps.reload,
  });
  const activation = await createActivation(devicesStore, now);
  const mqttPort = () => broker.port || config.MQTT_PORT;
  // where devices connect: MQTT_PUBLIC_URL, else the host the asking request came to (broker-address.ts)
  const address = (origin?: RequestOrigin) =>
    brokerAddress(
      { publicUrl: config.MQTT_PUBLIC_URL, bindHost: config.HOST, mqttPort: mqttPort(), httpPort: httpPort() },
      origin,
    );
  const devices = createDeviceService(devicesStore, {
    log,
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
  // scale-out: the other gateways kick and forget a device as this one does (registry-changes.ts)
  const registryChanges = shareRegistryChanges(bus, devices);
  const onBroker = attachDevicesToBroker(broker, devices, activation, {
    log,
    now,
    networkServer: loraNetworkServerSignIn(credentialsPairByHash),
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
    /** a registered device connected to this gateway's broker (devices.broker.ts `onConnected`) */
    onDeviceConnected: onBroker.onConnected,
    routes: [
      ...devicesRoutes({ addDashboard, devices, activation, emma, now }),
      ...tagsRoutes(tags),
      ...loraRoutes(lora),
    ],
    /** stops the broker listeners and writes what presence has gathered: before the store closes */
    close: async () => {
      registryChanges.close();
      await onBroker.close();
    },
  };
}
