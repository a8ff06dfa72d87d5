// Devices on the embedded broker (docs/conventions.md "Device topics"): who a client is (its credentials, token, UID or
// the application's network-server pair), which topics it may use (only its own: the rules of its wire family,
// families/<wire>/topics.ts), and what its traffic tells the registry (presence, and through its family activation
// evidence, LWT, discovery). Telemetry itself is another module's.
import { gatewayUid } from '@sentra/contracts';
import { brokerSecretMatches } from '../../platform/crypto.js';
import {
  badCredentials,
  isRefusal,
  notAuthorized,
  type Broker,
  type BrokerAuthority,
  type MqttIdentity,
  type MqttRefusal,
} from '../../platform/mqtt/types.js';
import type { Logger } from '../../platform/log.js';
import { TOKEN_PATTERN, type Activation } from './activation.js';
import type { DeviceRow } from './devices.table.js';
import type { RegistryChanges } from './registry-changes.js';
import {
  familyOfRole,
  nothing,
  type DeviceIdentity,
  type HeardEnv,
  type TopicEnv,
  type TopicRules,
} from './families/index.js';
import { knownMac } from './families/tasmota/index.js';
import type { LoraApplications } from '../lora/network-server-auth.js';
import { SEEN_FLUSH_MS, type DeviceService } from './devices.service.js';

/** The application a (credentials_id, secret) pair belongs to; the credentials module answers. */
export type NetworkServerSignIn = (
  credentialsId: string,
  secret: string,
) => Promise<{ appId: number; credentialsRowId: number } | null>;

/** What an identity may publish and subscribe: only under its own identity, by the rules of its wire family. */
export function topicRules(identity: DeviceIdentity, env: TopicEnv = {}): TopicRules {
  return familyOfRole(identity.role)?.broker.rules(identity, env) ?? nothing;
}

/** the identity of a serial gateway heard before anyone registered its UID (its client id and username are the UID) */
const unclaimedKey = (uid: string) => `gateway:${uid}`;

type Registry = Pick<DeviceService, 'byBrokerUsername' | 'byUid' | 'byToken'>;

export function createDeviceAuthority(
  registry: Registry,
  activation: Pick<Activation, 'tokenByValue' | 'admitUnclaimed'>,
  networkServer?: NetworkServerSignIn,
  lora?: Pick<LoraApplications, 'uuidsOf'>,
  /** the tenant of an application (the broker counts retained messages per tenant) */
  tenantOf: (appId: number) => number | undefined = () => undefined,
): BrokerAuthority {
  const env: TopicEnv = { lora };

  // a token device added after it connected learns its device id from the registry's `added` (attachDevicesToBroker)
  async function identify(
    clientId: string,
    username: string | undefined,
    password: Buffer | undefined,
    address: string | undefined,
  ): Promise<DeviceIdentity | MqttRefusal | null> {
    if (!username) return null;
    if (TOKEN_PATTERN.test(username)) {
      const token = await activation.tokenByValue(username);
      if (token) {
        const device = await registry.byToken(token.id);
        if (device?.disabled) return null;
        return {
          key: `token:${token.id}`,
          appId: token.appId,
          role: 'token',
          tokenId: token.id,
          deviceId: device?.id,
        };
      }
    }
    const byName = await registry.byBrokerUsername(username);
    if (byName) {
      if (byName.disabled) return null;
      // answered as an unknown username is (5), so the answer tells no one which device usernames exist
      if (!brokerSecretMatches(password, byName.brokerPassword)) return notAuthorized('wrong device password');
      return byName.topic
        ? {
            key: `device:${byName.id}`,
            appId: byName.appId,
            role: 'tasmota',
            deviceId: byName.id,
            topic: byName.topic,
            mac: knownMac(byName),
            secretHash: byName.brokerPassword,
          }
        : {
            key: `device:${byName.id}`,
            appId: byName.appId,
            role: 'device',
            deviceId: byName.id,
            secretHash: byName.brokerPassword,
          };
    }
    if (password && networkServer) {
      const ns = await networkServer(username, password.toString());
      if (ns) return { key: `ns:${ns.credentialsRowId}`, appId: ns.appId, role: 'networkServer' };
    }
    if (clientId === username && gatewayUid.safeParse(username).success) {
      const gateway = await registry.byUid(username);
      // registered: bound to its application by the secret made at activation, never by its UID alone
      if (gateway) {
        if (gateway.disabled) return null;
        if (!brokerSecretMatches(password, gateway.brokerPassword)) return badCredentials('wrong gateway secret');
        return {
          key: `device:${gateway.id}`,
          appId: gateway.appId,
          role: 'gateway',
          deviceId: gateway.id,
          uid: username,
          secretHash: gateway.brokerPassword,
        };
      }
      // not registered: heard so that it can be claimed, with no credentials, so bounded per client address
      // (activation.ts) and counted against the address's limit of such clients (provisional)
      if (!activation.admitUnclaimed(username, address))
        return notAuthorized('too many unregistered gateways from this address');
      return { key: unclaimedKey(username), role: 'unclaimedGateway', uid: username, provisional: true };
    }
    return null;
  }

  /** an identity of an application carries its tenant */
  const ofTenant = (identity: DeviceIdentity): DeviceIdentity =>
    identity.appId === undefined ? identity : { ...identity, tenantId: tenantOf(identity.appId) };

  return {
    async authenticate(clientId, username, password, address): Promise<DeviceIdentity | MqttRefusal | null> {
      const answer = await identify(clientId, username, password, address);
      return answer === null || isRefusal(answer) ? answer : ofTenant(answer);
    },
    authorizePublish: (identity, topic) => {
      const i = identity as DeviceIdentity;
      const family = familyOfRole(i.role);
      if (!family?.broker.rules(i, env).publish(topic)) return false;
      family.broker.published?.(i, topic);
      return true;
    },
    authorizeSubscribe: (identity, filter) => topicRules(identity as DeviceIdentity, env).subscribe(filter),
    receiveScope: (identity, filter) => topicRules(identity as DeviceIdentity, env).scope?.(filter),
  };
}

/** Whether a connected identity is (or speaks for) this device: kicked when the device is removed or disabled. */
export const belongsTo = (row: Pick<DeviceRow, 'id' | 'tokenId' | 'uid'>) => (identity: MqttIdentity) => {
  const i = identity as DeviceIdentity;
  return (
    i.deviceId === row.id ||
    (row.tokenId !== null && i.tokenId === row.tokenId) ||
    (row.uid !== null && i.uid === row.uid)
  );
};

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
  /** the bus connection went (false) and came back (true): what was published meanwhile was not heard */
  onConnection?(listener: (up: boolean) => void): void;
}

/** how often gateway sightings not renewed for SIGHTING_TTL_MS are pruned */
const SIGHTING_PRUNE_MS = 3_600_000;

/** How long a starting gateway listens for the other gateways' connected devices (scale-out) */
export const PRESENCE_GATHER_MS = 1500;
/**
 * The gather window is counted in turns of this gateway's event loop as well (one per this many ms), not in time
 * alone: a start that starves its own loop (the rest of the start, a loaded machine) would otherwise close the window
 * before reading the answers that arrived meanwhile, and put the devices the other gateways hold offline.
 */
const GATHER_TURN_MS = 100;

export function attachDevicesToBroker(
  broker: Broker,
  devices: DeviceService,
  activation: Activation,
  opts: {
    log: Logger;
    networkServer?: NetworkServerSignIn;
    lora?: LoraApplications;
    silenceMs?: number;
    now?: () => number;
    loraCategory: number;
    bus?: PresenceBus;
    presenceGatherMs?: number;
    /** the registry's changes made on the other gateways (scale-out) */
    registryChanges?: Pick<RegistryChanges, 'on'>;
    /** the tenant of an application (apps domain) */
    tenantOf?: (appId: number) => number | undefined;
  },
) {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  broker.addAuthority(createDeviceAuthority(devices, activation, opts.networkServer, opts.lora, opts.tenantOf));

  const failed = (what: string) => (err: unknown) => opts.log.error(`${what} failed`, err);
  // a token device's id: learnt at sign-in, or from the registry's `added` when the device was added after (below)
  const deviceOf = (identity: MqttIdentity) => {
    const i = identity as DeviceIdentity;
    return i.role === 'unclaimedGateway' || i.role === 'networkServer' ? undefined : i.deviceId;
  };

  // the same device may hold a second connection for a moment (a reconnect racing the old socket's close): it is
  // offline only when its last connection closes. Counted here, not by scanning every connection on each disconnect.
  const connections = new Map<number, number>();
  const connectedHere = new Set<(deviceId: number) => void>();
  broker.on('connected', (identity) => {
    const i = identity as DeviceIdentity;
    if (i.role === 'token') void activation.tokenConnected(i.tokenId!, now()).catch(failed('token connection write'));
    const id = deviceOf(i);
    if (id === undefined) return;
    for (const fn of connectedHere) fn(id);
    connections.set(id, (connections.get(id) ?? 0) + 1);
    void devices.setOnline(id, true, now()).catch(failed(`presence of device ${id}`));
  });
  broker.on('disconnected', (identity) => {
    const id = deviceOf(identity);
    if (id === undefined) return;
    const left = (connections.get(id) ?? 1) - 1;
    if (left > 0) return void connections.set(id, left);
    connections.delete(id);
    void devices.setOnline(id, false, now()).catch(failed(`presence of device ${id}`));
  });
  // what a message says beyond "the device was heard" is its family's (activation evidence, LWT, discovery, LoRa)
  const heardEnv: HeardEnv = { devices, activation, lora: opts.lora, log: opts.log, deviceOf };
  broker.on('message', (identity, topic, payload) => {
    const i = identity as DeviceIdentity;
    const ts = now();
    if (familyOfRole(i.role)?.broker.heard?.(i, topic, payload, ts, heardEnv)) return;
    const id = deviceOf(i);
    if (id === undefined) return;
    // a will is published by the broker after the device's connection ended: the device is not there
    if (broker.ended?.(identity)) return;
    devices.seen(id, ts);
  });

  const kick = (row: Pick<DeviceRow, 'id' | 'tokenId' | 'uid'>) => broker.disconnect(belongsTo(row));
  // a gateway heard while unclaimed reconnects as the registered device, with its gw/<uid>/... rights
  // (its connection through another gateway ends there by the same change; the client id is free here at once)
  const claimed = (uid: string | null) => {
    if (!uid) return;
    broker.disconnect((i) => (i as DeviceIdentity).role === 'unclaimedGateway' && (i as DeviceIdentity).uid === uid);
    broker.endingElsewhere?.(uid, unclaimedKey(uid));
  };
  devices.on('removed', kick);
  devices.on('disabled', kick);
  // a regenerated secret ends the connections signed in with the old one
  devices.on('secret', kick);
  // a Sentra end device connected with its token before it was added: its connections are that device from now on
  const tokenAdded = (row: Pick<DeviceRow, 'id' | 'tokenId'>) => {
    if (row.tokenId === null) return;
    for (const identity of broker.connected?.() ?? []) {
      const i = identity as DeviceIdentity;
      if (i.role === 'token' && i.tokenId === row.tokenId && i.deviceId === undefined) i.deviceId = row.id;
    }
  };
  devices.on('added', (row) => (claimed(row.uid), tokenAdded(row)));
  // the same for a change made on another gateway (scale-out): its connections here end too
  opts.registryChanges?.on((change) => {
    if (change.event === 'removed' || change.event === 'disabled' || change.event === 'secret') kick(change);
    else if (change.event === 'added') (claimed(change.uid), tokenAdded(change));
  });
  // back after the bus connection went: such a change made meanwhile was not heard. Every device connected here is
  // checked against its row: removed, disabled or given a new secret since it signed in, it is disconnected; a
  // gateway connected unclaimed that was registered meanwhile reconnects as the registered device.
  opts.bus?.onConnection?.((up) => {
    if (up) void recheck().catch(failed('check of the devices connected here'));
  });
  async function recheck() {
    const connected = [...(broker.connected?.() ?? [])] as DeviceIdentity[];
    const unclaimed = connected.filter((i) => i.role === 'unclaimedGateway' && i.uid);
    const registered = connected.filter(
      (i) => i.role !== 'unclaimedGateway' && i.deviceId !== undefined && i.appId !== undefined,
    );
    // read a chunk of devices a statement (a database that cannot answer ends the check: nobody is disconnected)
    const taken = await devices.uidsRegistered(unclaimed.map((i) => i.uid!));
    const rows = new Map((await devices.signInStatesOf(registered.map((i) => i.deviceId!))).map((r) => [r.id, r]));
    let ended = 0;
    for (const identity of unclaimed) if (taken.has(identity.uid!)) ended += broker.disconnect((x) => x === identity);
    for (const identity of registered) {
      const row = rows.get(identity.deviceId!);
      const stale =
        !row ||
        row.appId !== identity.appId ||
        row.disabled ||
        (identity.secretHash !== undefined && row.brokerPassword !== identity.secretHash);
      if (stale) ended += broker.disconnect((x) => x === identity);
    }
    if (ended) opts.log.info(`${ended} device connection(s) ended: changed on another gateway while NATS was away`);
  }

  // After a crash the registry still says "online" for the devices whose connections died with the gateway. At start,
  // every device marked online by a connection that no gateway holds goes offline: alone (memory bus) at once; in
  // scale-out after asking the other gateways on `presence.held` which devices they hold.
  const held = opts.bus?.subscribe<{ reply: string }>('presence.held', ({ data }) =>
    opts.bus!.publish(data.reply, { ids: [...connections.keys()] }),
  );
  const reconcile = async (others: ReadonlySet<number>) => {
    try {
      const all = new Set([...others, ...connections.keys()]);
      const n = await devices.expireUnheld([opts.loraCategory], startedAt, all, now());
      if (n) opts.log.info(`presence: ${n} device(s) left online by a stopped gateway are offline now`);
    } catch (err) {
      opts.log.error('presence reconciliation failed', err);
    }
  };
  let gather: NodeJS.Timeout | undefined;
  if (opts.bus?.kind === 'nats') {
    const others = new Set<number>();
    const reply = `presence.reply.${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
    const answers = opts.bus.subscribe<{ ids: number[] }>(reply, ({ data }) =>
      data.ids.forEach((id) => others.add(id)),
    );
    opts.bus.publish('presence.held', { reply });
    // an interval overdue after a blocked loop runs once, then the loop reads its sockets before the next turn: the
    // window closes after `turns` turns, each with a chance to read answers, however long the loop was blocked
    const windowMs = opts.presenceGatherMs ?? PRESENCE_GATHER_MS;
    const turns = Math.max(1, Math.round(windowMs / GATHER_TURN_MS));
    let turn = 0;
    gather = setInterval(() => {
      if (++turn < turns) return;
      clearInterval(gather);
      gather = undefined;
      answers.unsubscribe();
      void reconcile(others);
    }, windowMs / turns);
    gather.unref();
  } else void reconcile(new Set());

  // a turn that has not ended when the next is due is not started again beside it
  const every = (ms: number, what: string, fn: () => Promise<unknown>) => {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      Promise.resolve()
        .then(fn)
        .catch(failed(what))
        .finally(() => (running = false));
    }, ms);
    t.unref();
    return t;
  };
  const silenceMs = opts.silenceMs ?? LORA_SILENCE_MS;
  const sweep = every(silenceSweepMs(silenceMs), 'device silence sweep', () =>
    devices.expireSilent([opts.loraCategory], silenceMs, now()),
  );
  const seenWrites = every(SEEN_FLUSH_MS, 'device presence write', () => devices.flushSeen());
  // gateways heard but never registered are forgotten after a while (activation.ts)
  const sightingsPrune = every(SIGHTING_PRUNE_MS, 'gateway sightings prune', () => activation.pruneSightings());
  return {
    /**
     * `fn` hears of each connection of a registered device to this gateway's broker, before any of its messages (the
     * broker reports a session ready before what it publishes): the device may have been on another gateway meanwhile
     */
    onConnected: (fn: (deviceId: number) => void) => void connectedHere.add(fn),
    /** stops the timers and writes the gathered presence moves (before the store closes) */
    close: async () => {
      clearInterval(sweep);
      clearInterval(seenWrites);
      clearInterval(sightingsPrune);
      if (gather) clearInterval(gather);
      held?.unsubscribe();
      await devices.flushSeen();
    },
  };
}
