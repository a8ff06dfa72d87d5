// The broker's side of the wire families: who a signed-in client is (its role and identity) and the topic rules each
// family gives it. devices.broker.ts signs clients in; the family of the identity's role (./index.ts) answers what it
// may publish and subscribe, and what its messages tell the registry (presence, activation evidence, discovery).
import type { Logger } from '../../../platform/log.js';
import type { MqttIdentity } from '../../../platform/mqtt/types.js';
import type { LoraApplications } from '../../lora/network-server-auth.js';
import type { Activation } from '../activation.js';
import type { DeviceService } from '../devices.service.js';

export type DeviceRole =
  /** MQTT and Sentra end devices: d/<id>/... */
  | 'device'
  /** a Sentra end device signed in with its token; `deviceId` once it has been added */
  | 'token'
  /** Tasmota: tele|stat/<topic>/... out, cmnd/<topic>/... in */
  | 'tasmota'
  /** a registered serial gateway: gw/<uid>/... */
  | 'gateway'
  /** a serial gateway nobody has added yet: only gw/<uid>/up, so the UID check can hear it */
  | 'unclaimedGateway'
  /** a LoRa network-server integration signed in with an application's credentials pair: application/<appId>/... */
  | 'networkServer';

export interface DeviceIdentity extends MqttIdentity {
  role: DeviceRole;
  deviceId?: number;
  tokenId?: number;
  uid?: string;
  topic?: string;
  /** Tasmota: the MAC its discovery named; from then on its discovery publishes only under that MAC */
  mac?: string;
  /** a device or registered gateway signed in with a secret: the stored hash it matched (a connection whose device's
   * secret changed since is ended when that change may have gone unheard, devices.broker.ts) */
  secretHash?: string | null;
}

/** A filter or topic strictly below `prefix`, with no wildcard in the prefix levels. */
export function isUnder(topic: string, ...prefix: string[]): boolean {
  const levels = topic.split('/');
  return levels.length > prefix.length && prefix.every((p, i) => levels[i] === p);
}

export interface TopicRules {
  publish(topic: string): boolean;
  subscribe(filter: string): boolean;
  /** the topic prefixes a subscription across identities (a network server's `application/+/...`) may receive */
  scope?(filter: string): string[] | undefined;
}

export const nothing: TopicRules = { publish: () => false, subscribe: () => false };
export const own = (...prefix: string[]): TopicRules => ({
  publish: (t) => isUnder(t, ...prefix),
  subscribe: (f) => isUnder(f, ...prefix),
});

/** What topic rules may look up beyond the identity: a network server's own application ids (ChirpStack UUIDs). */
export interface TopicEnv {
  lora?: Pick<LoraApplications, 'uuidsOf'>;
}

/** What a family's broker hook may tell the registry when one of its identities publishes. */
export interface HeardEnv {
  devices: Pick<DeviceService, 'seen' | 'setOnline' | 'byDevEui' | 'updateDetails'>;
  activation: Pick<Activation, 'heard'>;
  lora?: Pick<LoraApplications, 'names'>;
  log: Logger;
  /** the registered device the identity is (a token device learns its id once added), undefined when none */
  deviceOf(identity: DeviceIdentity): number | undefined;
}

export interface BrokerRules {
  /** the broker identities that speak this family's wire */
  roles: readonly DeviceRole[];
  /** what an identity may publish and subscribe: only under its own identity */
  rules(identity: DeviceIdentity, env: TopicEnv): TopicRules;
  /** after a publish was allowed (a Tasmota's first discovery publish binds its session to that MAC) */
  published?(identity: DeviceIdentity, topic: string): void;
  /**
   * What a message tells the registry beyond "the device was heard" (activation evidence, an LWT, a discovery):
   * `true` when the family has said all there is, so the message does not also count as the device being seen.
   */
  heard?(identity: DeviceIdentity, topic: string, payload: Buffer, ts: number, env: HeardEnv): boolean;
}
