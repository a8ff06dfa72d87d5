// What the ingest path carries: a device message's points and states, normalised (the bus subject `tele.<app>.<device>`
// and the writer's queue), and what a commit tells listeners. Types (and one shared empty array) only, so the store and
// the read side can name a point without importing the writer.
import type { StateChange } from '../states/states.store.js';
import type { AckTicket } from './ingest/remote-acks.js';
import type { AckRelease } from '../../platform/mqtt/types.js';

export interface TelemetryPoint {
  seriesId: number;
  ts: number;
  num: number | null;
  text: string | null;
}

/** the states of the many messages that carry none: one array, frozen so that nobody adds to it */
export const NO_STATES: StateChange[] = Object.freeze([]) as unknown as StateChange[];

/** One device message, normalised: what travels on the bus subject `tele.<app>.<device>`. */
export interface TelemetryMessage {
  appId: number;
  deviceId: number;
  qos: 0 | 1 | 2;
  receivedAt: number;
  points: TelemetryPoint[];
  states: StateChange[];
  /** BUS=nats, QoS 1/2: the acknowledgement the storing gateway reports to the receiving one (remote-acks.ts) */
  ack?: AckTicket;
  /**
   * One process (memory bus), QoS 1/2: the broker's held acknowledgement, let go once the message is settled
   * (ingest/acks.ts). On the object itself rather than in a WeakMap: a WeakMap entry per message was an ephemeron for
   * every collection to trace. Never on the wire (JSON leaves functions out).
   */
  release?: AckRelease;
}

/** What listeners (live fan-out, rules) receive once a message is committed: only what was stored. */
export interface CommittedTelemetry {
  appId: number;
  deviceId: number;
  receivedAt: number;
  committedAt: number;
  points: readonly TelemetryPoint[];
  states: readonly StateChange[];
  /**
   * points of the message the store already held (a message its device sent again, its acknowledgement lost), when
   * there were any: gateways storing locally evaluate them for rules once more (docs/decisions/rules.md "Exactly once")
   */
  resent?: readonly TelemetryPoint[];
}
