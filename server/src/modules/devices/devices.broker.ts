// Devices on the embedded broker (DESIGN.md section 4): who a client is (its credentials, token, UID or the
// application's network-server pair), which topics it may use (only its own), and what its traffic tells the
// registry (presence, activation evidence). Telemetry itself is another module's.
import { gatewayUid, type TasmotaDiscovery } from '@sentra/contracts';
import { brokerSecretMatches } from '../../platform/crypto.js';
import { badCredentials, notAuthorized, type Broker, type BrokerAuthority, type MqttIdentity, type MqttRefusal } from '../../platform/mqtt/types.js';
import type { Logger } from '../../platform/log.js';
import { TOKEN_PATTERN, type Activation } from './activation.js';
import { applyDiscovery, discoveryTopic } from './tasmota-discovery.js';
import type { DeviceRow } from './families.js';
import type { LoraApplications } from '../lora/network-server-auth.js';
import { SEEN_FLUSH_MS, type DeviceService } from './devices.service.js';

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
}

/** The application a (credentials_id, secret) pair belongs to; the credentials module answers. */
export type NetworkServerSignIn = (credentialsId: string, secret: string) => { appId: number; credentialsRowId: number } | null;

/** A filter or topic strictly below `prefix`, with no wildcard in the prefix levels. */
export function isUnder(topic: string, ...prefix: string[]): boolean {
  const levels = topic.split('/');
  return levels.length > prefix.length && prefix.every((p, i) => levels[i] === p);
}

export interface TopicRules {
  publish(topic: string): boolean;
  subscribe(filter: string): boolean;
}

const nothing: TopicRules = { publish: () => false, subscribe: () => false };
const own = (...prefix: string[]): TopicRules => ({ publish: (t) => isUnder(t, ...prefix), subscribe: (f) => isUnder(f, ...prefix) });

/** What an identity may publish and subscribe: only under its own identity. */
export function topicRules(identity: DeviceIdentity): TopicRules {
  switch (identity.role) {
    case 'device':
    case 'token':
      return identity.deviceId === undefined ? nothing : own('d', String(identity.deviceId));
    case 'tasmota': {
      const t = identity.topic!;
      return {
        // besides tele/stat: the firmware's connect sequence publishes an empty cmnd/<topic>/POWER (before it
        // subscribes, so it reaches nobody: ignored) and its discovery under tasmota/discovery/<MAC>/ (issue 27)
        publish: (topic) =>
          isUnder(topic, 'tele', t) ||
          isUnder(topic, 'stat', t) ||
          topic === `cmnd/${t}/POWER` ||
          (discoveryTopic(topic) !== undefined && (identity.mac === undefined || discoveryTopic(topic)!.mac === identity.mac)),
        subscribe: (f) => isUnder(f, 'cmnd', t) || isUnder(f, 'tele', t) || isUnder(f, 'stat', t),
      };
    }
    case 'gateway':
      return own('gw', identity.uid!);
    case 'unclaimedGateway':
      return { publish: (topic) => topic === `gw/${identity.uid}/up`, subscribe: () => false };
    case 'networkServer':
      return own('application', String(identity.appId));
    default:
      return nothing;
  }
}

type Registry = Pick<DeviceService, 'byBrokerUsername' | 'byUid' | 'byToken'>;

/** the MAC a Tasmota's discovery named (kept in its details), if any */
function knownMac(row: Pick<DeviceRow, 'details'>): string | undefined {
  try {
    const mac = (JSON.parse(row.details) as { tasmota_discovery?: TasmotaDiscovery | null }).tasmota_discovery?.mac;
    return typeof mac === 'string' ? mac : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A network server's rights: its application's tree under Sentra's numeric application id and under each of its own
 * application ids (ChirpStack UUIDs) recorded on the application's LoRa server entries. ChirpStack subscribes
 * `application/+/device/+/command/+`: allowed, and what reaches it is limited to those trees (receiveScope).
 */
function networkServerRules(appId: number, uuids: readonly string[]): TopicRules & { scope(filter: string): string[] | undefined } {
  const trees = [String(appId), ...uuids];
  const mine = (topic: string) => trees.some((level) => isUnder(topic, 'application', level));
  const across = (filter: string) => filter.startsWith('application/+/') || filter === 'application/#';
  return {
    publish: mine,
    subscribe: (filter) => mine(filter) || across(filter),
    scope: (filter) => (across(filter) ? trees.map((level) => `application/${level}/`) : undefined),
  };
}

export function createDeviceAuthority(
  registry: Registry,
  activation: Pick<Activation, 'tokenByValue'>,
  networkServer?: NetworkServerSignIn,
  lora?: Pick<LoraApplications, 'uuidsOf'>,
): BrokerAuthority {
  const rulesOf = (identity: DeviceIdentity) =>
    identity.role === 'networkServer' && identity.appId !== undefined ? networkServerRules(identity.appId, lora?.uuidsOf(identity.appId) ?? []) : topicRules(identity);
  /** a token device added after it connected: its identity learns the device id on its next publish */
  function resolved(identity: DeviceIdentity): DeviceIdentity {
    if (identity.role === 'token' && identity.deviceId === undefined) {
      const device = registry.byToken(identity.tokenId!);
      if (device && !device.disabled) identity.deviceId = device.id;
    }
    return identity;
  }

  return {
    authenticate(clientId, username, password): DeviceIdentity | MqttRefusal | null {
      if (!username) return null;
      if (TOKEN_PATTERN.test(username)) {
        const token = activation.tokenByValue(username);
        if (token) {
          const device = registry.byToken(token.id);
          if (device?.disabled) return null;
          return { key: `token:${token.id}`, appId: token.appId, role: 'token', tokenId: token.id, deviceId: device?.id };
        }
      }
      const byName = registry.byBrokerUsername(username);
      if (byName) {
        if (byName.disabled) return null;
        // answered as an unknown username is (5), so the answer tells no one which device usernames exist
        if (!brokerSecretMatches(password, byName.brokerPassword)) return notAuthorized('wrong device password');
        return byName.topic
          ? { key: `device:${byName.id}`, appId: byName.appId, role: 'tasmota', deviceId: byName.id, topic: byName.topic, mac: knownMac(byName) }
          : { key: `device:${byName.id}`, appId: byName.appId, role: 'device', deviceId: byName.id };
      }
      if (password && networkServer) {
        const ns = networkServer(username, password.toString());
        if (ns) return { key: `ns:${ns.credentialsRowId}`, appId: ns.appId, role: 'networkServer' };
      }
      if (clientId === username && gatewayUid.safeParse(username).success) {
        const gateway = registry.byUid(username);
        // registered: bound to its application by the secret made at activation, never by its UID alone
        if (gateway) {
          if (gateway.disabled) return null;
          if (!brokerSecretMatches(password, gateway.brokerPassword)) return badCredentials('wrong gateway secret');
          return { key: `device:${gateway.id}`, appId: gateway.appId, role: 'gateway', deviceId: gateway.id, uid: username };
        }
        return { key: `gateway:${username}`, role: 'unclaimedGateway', uid: username };
      }
      return null;
    },
    authorizePublish: (identity, topic) => {
      const i = resolved(identity as DeviceIdentity);
      if (!rulesOf(i).publish(topic)) return false;
      // a Tasmota's first discovery publish binds the session to that MAC (a device cannot spread retained
      // discovery messages over many MACs before its discovery has been read)
      if (i.role === 'tasmota' && i.mac === undefined) i.mac = discoveryTopic(topic)?.mac;
      return true;
    },
    authorizeSubscribe: (identity, filter) => rulesOf(resolved(identity as DeviceIdentity)).subscribe(filter),
    receiveScope(identity, filter) {
      const i = identity as DeviceIdentity;
      return i.role === 'networkServer' && i.appId !== undefined ? networkServerRules(i.appId, lora?.uuidsOf(i.appId) ?? []).scope(filter) : undefined;
    },
  };
}

/** Whether a connected identity is (or speaks for) this device: kicked when the device is removed or disabled. */
export const belongsTo = (row: Pick<DeviceRow, 'id' | 'tokenId' | 'uid'>) => (identity: MqttIdentity) => {
  const i = identity as DeviceIdentity;
  return i.deviceId === row.id || (row.tokenId !== null && i.tokenId === row.tokenId) || (row.uid !== null && i.uid === row.uid);
};

/** the events that show a LoRa device is there: an uplink, or a join (ChirpStack v4 `event/join`) */
const LORA_HEARD = /^application\/([^/]+)\/device\/([0-9A-Fa-f]{16})\/event\/(up|join)$/;
/** LoRa devices are heard only through their network server: silent this long, they count as offline (default of
 * PRESENCE_SILENCE_S; docs/decisions/presence-lora.md). */
export const LORA_SILENCE_MS = 15 * 60_000;
/** how often silent devices are looked for: offline within the silence plus this (a quarter of it, at most a minute) */
export const silenceSweepMs = (silenceMs: number) => Math.min(60_000, Math.max(1000, Math.floor(silenceMs / 4)));

/**
 * Registers the authority and listens to the broker: activation evidence (token connected, UID heard), presence
 * (connect, disconnect, Tasmota LWT, any message, LoRa uplinks with a silence time-out), and kicks on remove/disable.
 */
export interface PresenceBus {
  readonly kind: 'memory' | 'nats';
  publish(subject: string, data: unknown): void;
  subscribe<T>(subject: string, handler: (msg: { data: T }) => unknown): { unsubscribe(): void };
}

/** How long a starting gateway listens for the other gateways' connected devices (scale-out) */
export const PRESENCE_GATHER_MS = 1500;

export function attachDevicesToBroker(
  broker: Broker,
  devices: DeviceService,
  activation: Activation,
  opts: { log: Logger; networkServer?: NetworkServerSignIn; lora?: LoraApplications; silenceMs?: number; now?: () => number; loraCategory: number; bus?: PresenceBus; presenceGatherMs?: number },
) {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  broker.addAuthority(createDeviceAuthority(devices, activation, opts.networkServer, opts.lora));

  const deviceOf = (identity: MqttIdentity) => {
    const i = identity as DeviceIdentity;
    if (i.role === 'token' && i.deviceId === undefined) {
      const device = devices.byToken(i.tokenId!);
      if (device && !device.disabled) i.deviceId = device.id;
    }
    return i.role === 'unclaimedGateway' || i.role === 'networkServer' ? undefined : i.deviceId;
  };

  // the same device may hold a second connection for a moment (a reconnect racing the old socket's close): it is
  // offline only when its last connection closes. Counted here, not by scanning every connection on each disconnect.
  const connections = new Map<number, number>();
  broker.on('connected', (identity) => {
    const i = identity as DeviceIdentity;
    if (i.role === 'token') activation.tokenConnected(i.tokenId!, now());
    const id = deviceOf(i);
    if (id === undefined) return;
    connections.set(id, (connections.get(id) ?? 0) + 1);
    devices.setOnline(id, true, now());
  });
  broker.on('disconnected', (identity) => {
    const id = deviceOf(identity);
    if (id === undefined) return;
    const left = (connections.get(id) ?? 1) - 1;
    if (left > 0) return void connections.set(id, left);
    connections.delete(id);
    devices.setOnline(id, false, now());
  });
  broker.on('message', (identity, topic, payload) => {
    const i = identity as DeviceIdentity;
    const ts = now();
    if ((i.role === 'gateway' || i.role === 'unclaimedGateway') && topic === `gw/${i.uid}/up`) activation.heard(i.uid!, ts);
    if (i.role === 'networkServer') {
      const m = LORA_HEARD.exec(topic);
      const names = m !== null && i.appId !== undefined && (m[1] === String(i.appId) || opts.lora?.names(i.appId, m[1]!) === true);
      const device = names ? devices.byDevEui(i.appId!, m![2]!.toUpperCase()) : undefined;
      if (device && !device.disabled) devices.seen(device.id, ts);
      return;
    }
    const id = deviceOf(i);
    if (id === undefined) return;
    if (i.role === 'tasmota' && topic === `tele/${i.topic}/LWT`) return devices.setOnline(id, payload.toString().trim() !== 'Offline', ts);
    if (i.role === 'tasmota' && topic.startsWith('tasmota/discovery/')) discovered(i, id, topic, payload);
    // a will is published by the broker after the device's connection ended: the device is not there
    if (broker.ended?.(identity)) return;
    devices.seen(id, ts);
  });

  /** a Tasmota's discovery message fills its info (its MAC binds its later discovery publishes) */
  function discovered(identity: DeviceIdentity, id: number, topic: string, payload: Buffer) {
    try {
      devices.updateDetails(id, (details) => {
        const next = applyDiscovery((details.tasmota_discovery as TasmotaDiscovery | null | undefined) ?? null, topic, payload);
        if (next === undefined) return details;
        if (next?.mac) identity.mac = next.mac;
        return { ...details, tasmota_discovery: next };
      });
    } catch (err) {
      opts.log.error(`Tasmota discovery of device ${id} not kept`, err);
    }
  }

  devices.on('removed', (row) => broker.disconnect(belongsTo(row)));
  devices.on('disabled', (row) => broker.disconnect(belongsTo(row)));
  // a regenerated secret ends the connections signed in with the old one
  devices.on('secret', (row) => broker.disconnect(belongsTo(row)));
  // a gateway heard while unclaimed reconnects as the registered device, with its gw/<uid>/... rights
  devices.on('added', (row) => {
    if (row.uid) broker.disconnect((i) => (i as DeviceIdentity).role === 'unclaimedGateway' && (i as DeviceIdentity).uid === row.uid);
  });

  // After a crash the registry still says "online" for the devices whose connections died with the gateway. At start,
  // every device marked online by a connection that no gateway holds goes offline: alone (memory bus) at once; in
  // scale-out after asking the other gateways on `presence.held` which devices they hold.
  const held = opts.bus?.subscribe<{ reply: string }>('presence.held', ({ data }) => opts.bus!.publish(data.reply, { ids: [...connections.keys()] }));
  const reconcile = (others: ReadonlySet<number>) => {
    try {
      const all = new Set([...others, ...connections.keys()]);
      const n = devices.expireUnheld([opts.loraCategory], startedAt, all, now());
      if (n) opts.log.info(`presence: ${n} device(s) left online by a stopped gateway are offline now`);
    } catch (err) {
      opts.log.error('presence reconciliation failed', err);
    }
  };
  let gather: NodeJS.Timeout | undefined;
  if (opts.bus?.kind === 'nats') {
    const others = new Set<number>();
    const reply = `presence.reply.${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
    const answers = opts.bus.subscribe<{ ids: number[] }>(reply, ({ data }) => data.ids.forEach((id) => others.add(id)));
    opts.bus.publish('presence.held', { reply });
    gather = setTimeout(() => {
      answers.unsubscribe();
      reconcile(others);
    }, opts.presenceGatherMs ?? PRESENCE_GATHER_MS);
    gather.unref();
  } else reconcile(new Set());

  const every = (ms: number, what: string, fn: () => void) => {
    const t = setInterval(() => {
      try {
        fn();
      } catch (err) {
        opts.log.error(`${what} failed`, err);
      }
    }, ms);
    t.unref();
    return t;
  };
  const silenceMs = opts.silenceMs ?? LORA_SILENCE_MS;
  const sweep = every(silenceSweepMs(silenceMs), 'device silence sweep', () => devices.expireSilent([opts.loraCategory], silenceMs, now()));
  const seenWrites = every(SEEN_FLUSH_MS, 'device presence write', () => devices.flushSeen());
  return {
    close: () => {
      clearInterval(sweep);
      clearInterval(seenWrites);
      if (gather) clearTimeout(gather);
      held?.unsubscribe();
      devices.flushSeen();
    },
  };
}
