// The one table of wire families, keyed by the wire protocol: each family's folder (generic/, gateway/, lora/,
// tasmota/) holds its uplink decoding, its downlink (command and reply), its broker rules (topics, presence and
// activation evidence) and its registration (what a device add checks and stores); the ingest pipeline, the command
// path, the broker authorisation and the device registry ask this table instead of keeping a `switch` over the families.
// Emma (11) and Imou (12) are cloud integrations, not MQTT: no wire family, only their registration (cloud/).
import type { ActivationKind } from '@sentra/contracts';
import type { DeviceRow } from '../devices.table.js';
import { cloudRegistration, pluginRegistration } from './cloud/registration.js';
import type { CommandBody, LoraDownlink, Outbound, ReplyVerdict } from './command.js';
import type { WireFamily, WireProtocol } from './family.js';
import type { FamilyBehaviour, FamilyDeps } from './registration.js';
import type { DeviceRole } from './topics.js';
import { gatewayFamily } from './gateway/index.js';
import { genericFamily } from './generic/index.js';
import { loraFamily } from './lora/index.js';
import { tasmotaFamily } from './tasmota/index.js';
import { MAX_PAYLOAD_BYTES, reject, type AdapterResult, type DeviceContext } from './wire.js';

export * from './wire.js';
export type { WireFamily, WireProtocol } from './family.js';
export type { CommandBody, LoraDownlink, Outbound, ReplyVerdict } from './command.js';
export type { DeviceRow } from '../devices.table.js';
export { brokerSecret, type FamilyBehaviour, type FamilyDeps, type Prepared } from './registration.js';
export { uidHiddenFrom } from './gateway/registration.js';
export {
  isUnder,
  nothing,
  own,
  type BrokerRules,
  type DeviceIdentity,
  type DeviceRole,
  type HeardEnv,
  type TopicEnv,
  type TopicRules,
} from './topics.js';
export { decodeLora, loraDecoderSchema, type LoraDecoder, type LoraField } from './lora/decoder.js';

export const WIRE_FAMILIES: Readonly<Record<WireProtocol, WireFamily>> = {
  generic: genericFamily,
  tasmota: tasmotaFamily,
  lora: loraFamily,
  gateway: gatewayFamily,
};

/**
 * Device family code (docs/conventions.md "Codes of the domain") → wire protocol, from the families' own `categories`.
 */
export const WIRE_OF_CATEGORY: Readonly<Record<number, WireProtocol>> = Object.fromEntries(
  Object.values(WIRE_FAMILIES).flatMap((f) => f.categories.map((c) => [c, f.wire] as const)),
);

/** A broker identity's role → the wire family it speaks, from the families' own `broker.roles`. */
const FAMILY_OF_ROLE: ReadonlyMap<DeviceRole, WireFamily> = new Map(
  Object.values(WIRE_FAMILIES).flatMap((f) => f.broker.roles.map((r) => [r, f] as const)),
);

/** The wire family a broker identity of this role speaks. */
export const familyOfRole = (role: DeviceRole): WireFamily | undefined => FAMILY_OF_ROLE.get(role);

/** The wire family of a device (by its category), undefined for the cloud integrations. */
export const familyOf = (category: number): WireFamily | undefined => {
  const wire = WIRE_OF_CATEGORY[category];
  return wire === undefined ? undefined : WIRE_FAMILIES[wire];
};

/** The uplink of a message, by the device's family; the topic must belong to it. Never throws: every failure is a
 * typed rejection the pipeline counts. */
export function adaptMessage(
  ctx: DeviceContext,
  topic: string,
  payload: Buffer,
  maxPayloadBytes = MAX_PAYLOAD_BYTES,
): AdapterResult {
  if (payload.length > maxPayloadBytes) return reject('too_large', `${payload.length} bytes`);
  const family = familyOf(ctx.category);
  if (!family) return reject('unknown_topic', `category ${ctx.category} has no MQTT telemetry`);
  try {
    return family.uplink(ctx, topic, payload);
  } catch (err) {
    // a bug in an adapter must cost one message, never the broker
    return reject('bad_shape', err instanceof Error ? err.message : String(err));
  }
}

/** The wire protocol a device speaks, undefined for the cloud integrations (no MQTT). */
export const wireOf = (row: Pick<DeviceRow, 'category'>): WireProtocol | undefined => WIRE_OF_CATEGORY[row.category];

/** The message that carries command `id` to the device, or null when its family takes no commands (or this one). */
export function encodeCommand(row: DeviceRow, id: string, cmd: CommandBody, lora: LoraDownlink = {}): Outbound | null {
  return familyOf(row.category)?.command.encode(row, id, cmd, lora) ?? null;
}

/** The verdict when `topic`/`payload` answers the pending command `id` to `row`; undefined when it does not. */
export function matchReply(
  row: DeviceRow,
  id: string,
  cmd: CommandBody,
  topic: string,
  payload: Buffer,
  loraApplication = String(row.appId),
): ReplyVerdict | undefined {
  return familyOf(row.category)?.command.matchReply(row, id, cmd, topic, payload, loraApplication);
}

/** Emma and Imou: cloud integrations, no wire; only their registration. */
const CLOUD_REGISTRATION: WireFamily['registration'] = { plugin: pluginRegistration, cloud: cloudRegistration };

/** Every activation kind's behaviour (contracts' family table names the kind of each family): the wire families' own,
 * and the cloud integrations'. */
export function familyBehaviours(deps: FamilyDeps): Record<ActivationKind, FamilyBehaviour> {
  const kinds: WireFamily['registration'] = Object.assign(
    {},
    ...Object.values(WIRE_FAMILIES).map((f) => f.registration),
    CLOUD_REGISTRATION,
  );
  return Object.fromEntries(Object.entries(kinds).map(([kind, make]) => [kind, make!(deps)])) as Record<
    ActivationKind,
    FamilyBehaviour
  >;
}
