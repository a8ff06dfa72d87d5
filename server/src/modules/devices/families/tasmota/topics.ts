// Tasmota keeps to tele|stat/<topic>/... out and cmnd/<topic>/... in, plus what its firmware's connect sequence
// publishes; its LWT says whether it is there, and its discovery fills its info (./discovery.ts).
import type { TasmotaDiscovery } from '@sentra/contracts';
import type { DeviceRow } from '../../devices.table.js';
import { isUnder, type BrokerRules, type DeviceIdentity, type HeardEnv } from '../topics.js';
import { applyDiscovery, discoveryTopic } from './discovery.js';

/** the MAC a Tasmota's discovery named (kept in its details), if any: it binds the device's session from sign-in on */
export function knownMac(row: Pick<DeviceRow, 'details'>): string | undefined {
  try {
    const mac = (JSON.parse(row.details) as { tasmota_discovery?: TasmotaDiscovery | null }).tasmota_discovery?.mac;
    return typeof mac === 'string' ? mac : undefined;
  } catch {
    return undefined;
  }
}

/** a Tasmota's discovery message fills its info (its MAC binds its later discovery publishes) */
function discovered(identity: DeviceIdentity, id: number, topic: string, payload: Buffer, env: HeardEnv) {
  env.devices
    .updateDetails(id, (details) => {
      const next = applyDiscovery(
        (details.tasmota_discovery as TasmotaDiscovery | null | undefined) ?? null,
        topic,
        payload,
      );
      if (next === undefined) return details;
      if (next?.mac) identity.mac = next.mac;
      return { ...details, tasmota_discovery: next };
    })
    .catch((err) => env.log.error(`Tasmota discovery of device ${id} not kept`, err));
}

export const tasmotaBroker: BrokerRules = {
  roles: ['tasmota'],
  rules(identity) {
    const t = identity.topic!;
    return {
      // besides tele/stat: the firmware's connect sequence publishes an empty cmnd/<topic>/POWER (before it
      // subscribes, so it reaches nobody: ignored) and its discovery under tasmota/discovery/<MAC>/ (issue 27)
      publish: (topic) =>
        isUnder(topic, 'tele', t) ||
        isUnder(topic, 'stat', t) ||
        topic === `cmnd/${t}/POWER` ||
        (discoveryTopic(topic) !== undefined &&
          (identity.mac === undefined || discoveryTopic(topic)!.mac === identity.mac)),
      subscribe: (f) => isUnder(f, 'cmnd', t) || isUnder(f, 'tele', t) || isUnder(f, 'stat', t),
    };
  },
  // a Tasmota's first discovery publish binds the session to that MAC (a device cannot spread retained discovery
  // messages over many MACs before its discovery has been read)
  published(identity, topic) {
    if (identity.mac === undefined) identity.mac = discoveryTopic(topic)?.mac;
  },
  heard(identity, topic, payload, ts, env) {
    const id = env.deviceOf(identity);
    if (id === undefined) return true;
    if (topic === `tele/${identity.topic}/LWT`) {
      void env.devices
        .setOnline(id, payload.toString().trim() !== 'Offline', ts)
        .catch((err) => env.log.error(`presence of device ${id} not written`, err));
      return true;
    }
    if (topic.startsWith('tasmota/discovery/')) discovered(identity, id, topic, payload, env);
    return false;
  },
};
