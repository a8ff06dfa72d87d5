// What the embedded MQTT broker asks of the domains: who a client is, and what it may publish and subscribe.
// The platform knows no device families; authorities (devices, credentials for LoRa network servers, ...) do.
import { availableParallelism } from 'node:os';
import type { AckRelease } from './held-acks.js';
export type { AckRelease } from './held-acks.js';

/**
 * Broker threads sharing the MQTT listener unless MQTT_THREADS says otherwise (more than one needs the native dup
 * helper): two where the machine has two cores or more, so that the sockets' reads and the acknowledgements' writes
 * of half the devices run beside the other half's (docs/decisions/mqtt-broker.md).
 */
export const DEFAULT_BROKER_THREADS = Math.min(2, availableParallelism());

/** An authenticated MQTT client; opaque to the broker except for `key`, a stable identity used for kicking. */
export interface MqttIdentity {
  /** e.g. 'device:42', 'gateway:ZL123', 'ns:7' */
  key: string;
  appId?: number;
  /** the tenant the identity belongs to: its retained messages count against the tenant's share (persistence/) */
  tenantId?: number;
  /**
   * admitted without credentials (a gateway not registered yet, heard so that it can be claimed): counted against
   * its client address's limit of such clients (mqtt-connect-throttle.ts)
   */
  provisional?: boolean;
  [extra: string]: unknown;
}

/** An authority's "I know this client, and it is refused": no later authority is asked (CONNACK with `returnCode`). */
export interface MqttRefusal {
  refused: true;
  /** 4: bad user name or password; 5: not authorised */
  returnCode: 4 | 5;
  message: string;
}
export const badCredentials = (message: string): MqttRefusal => ({ refused: true, returnCode: 4, message });
export const notAuthorized = (message: string): MqttRefusal => ({ refused: true, returnCode: 5, message });
export const isRefusal = (answer: MqttIdentity | MqttRefusal | null): answer is MqttRefusal =>
  answer !== null && answer.refused === true;

export interface BrokerAuthority {
  /** null when this authority does not know the client; the next authority is asked (`address`: the client's IP) */
  authenticate(
    clientId: string,
    username: string | undefined,
    password: Buffer | undefined,
    address?: string,
  ): Promise<MqttIdentity | MqttRefusal | null> | MqttIdentity | MqttRefusal | null;
  /** asked only for identities this authority issued */
  authorizePublish(identity: MqttIdentity, topic: string): boolean;
  authorizeSubscribe(identity: MqttIdentity, topic: string): boolean;
  /**
   * For an allowed filter that reaches beyond the identity's own topics (a `+` where its own tree has a name, as
   * ChirpStack's `application/+/device/+/command/+`): the topic prefixes it may receive; deliveries to the client
   * outside every prefix it was given are dropped. Undefined: the filter is within its own topics.
   */
  receiveScope?(identity: MqttIdentity, filter: string): string[] | undefined;
}

export interface BrokerEvents {
  connected: (identity: MqttIdentity, clientId: string) => void;
  disconnected: (identity: MqttIdentity, clientId: string) => void;
  /**
   * An authorised publish from a client (not from the gateway itself). For QoS 1 and 2 the client's acknowledgement
   * waits for every listener that called `hold` until it calls the release it got (after the message is stored, or
   * with `false`: not acknowledged, the connection is closed so the client sends it again); a listener that does not
   * hold lets it go when it returns. `hold` is called while the listener handles the event, never later.
   */
  message: (identity: MqttIdentity, topic: string, payload: Buffer, qos: 0 | 1 | 2, hold?: () => AckRelease) => void;
}

export interface Broker {
  /** authorities are asked in order; with none, every client is refused (anonymous clients are always refused) */
  addAuthority(authority: BrokerAuthority): void;
  on<E extends keyof BrokerEvents>(event: E, listener: BrokerEvents[E]): void;
  /** publish from the gateway to devices (commands, downlinks) */
  publish(topic: string, payload: Buffer | string, opts?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  /**
   * Whether a QoS 1 message on `topic` would wait for a persistent session (of `identityKey`, or any: a subscription was
   * authorised for its identity) whose client is away: it is delivered when the client returns
   * (persistence/session-store.ts).
   */
  awaits?(topic: string, identityKey?: string): boolean;
  /** drops a message queued for an away session of `identityKey` (a command whose time-out passed); false if none was */
  unqueue?(topic: string, payload: Buffer, identityKey?: string): boolean;
  /** disconnects every client whose identity matches (removed or disabled device) */
  disconnect(match: (identity: MqttIdentity) => boolean): number;
  /**
   * `identityKey`'s connection of `clientId` through another gateway is ending by a change every gateway applies (an
   * unclaimed gateway registered): the client id is free here now, not once that gateway's notice of the end arrives
   */
  endingElsewhere?(clientId: string, identityKey: string): void;
  /** identities connected now */
  connected(): MqttIdentity[];
  /**
   * Whether this identity's connection has ended. A message from it afterwards is its will, published by the broker on
   * its behalf: it says nothing about the device being there (presence must not count it as "heard").
   */
  ended?(identity: MqttIdentity): boolean;
  /**
   * Stops (true) or resumes (false) reading from every client connection: TCP backpressure towards the devices while
   * the gateway's writer is behind, instead of memory growing and the event loop drowning. Sockets stay open.
   */
  setReadPaused(paused: boolean): void;
  readonly readPaused: boolean;
  /** TCP port actually bound (MQTT_PORT, or the ephemeral one when 0) */
  readonly port: number;
}
