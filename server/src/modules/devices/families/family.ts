// What one wire family's folder answers, so that the ingest pipeline, the command path, the broker authorisation and
// the device registry ask the one table (./index.ts) instead of each keeping a `switch` over the families
// (docs/conventions.md "Device topics").
import type { ActivationKind } from '@sentra/contracts';
import type { CommandWire } from './command.js';
import type { FamilyBehaviour, FamilyDeps } from './registration.js';
import type { BrokerRules } from './topics.js';
import type { AdapterResult, DeviceContext } from './wire.js';

/** How a family speaks on the wire (docs/conventions.md "Device topics"). */
export type WireProtocol = 'generic' | 'tasmota' | 'lora' | 'gateway';

export interface WireFamily {
  wire: WireProtocol;
  /** the device family codes (docs/conventions.md "Codes of the domain") that speak this protocol */
  categories: readonly number[];
  /** uplink: one message of a device of the family → points and states, or a typed rejection (never throws on input) */
  uplink(ctx: DeviceContext, topic: string, payload: Buffer): AdapterResult;
  /** downlink: a command's message to the device, and the recognition of the device's reply */
  command: CommandWire;
  /** on the broker: the roles of the family's identities, their topic rules, and what their messages tell the registry */
  broker: BrokerRules;
  /** what adding a device of the family checks and stores, and what its get shows, per activation kind it uses */
  registration: Partial<Record<ActivationKind, (deps: FamilyDeps) => FamilyBehaviour>>;
}
