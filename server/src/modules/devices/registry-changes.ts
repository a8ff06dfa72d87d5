// Scale-out (BUS=nats): what one gateway's registry does to a device reaches every gateway at once. Each gateway's
// broker holds only its own connections, and each gateway's telemetry resolver caches device rows. A device removed,
// disabled or given a new broker secret through gateway A was kicked from A's broker alone: its connection to gateway B
// stayed up, still signed in with the old secret, and B's ingest went on taking its messages until its cached row
// expired (RESOLVER_CACHE_MS). Now the registry's changes go out on the bus (fan-out: every gateway hears them, not one
// of a queue group), and the other gateways kick and forget as the origin does.
//
// Core NATS is at most once: a change lost with a gateway that stopped at that moment is not heard. The resolver's
// cache lifetime stays the bound on how long an edit can go unseen, and a kicked device would sign in again with its
// old secret only where that secret was not yet replaced in the database (it is: the origin wrote it first). A
// gateway whose NATS connection went and came back checks every device connected to it against its row instead
// (devices.broker.ts): what was published while it was away never arrives.
import type { PresenceBus } from './devices.broker.js';
import type { DeviceRow } from './devices.table.js';
import { newOrigin } from '../../platform/bus/subjects.js';

/** the subject every gateway hears (no queue group) */
export const REGISTRY_SUBJECT = 'registry.device';

/** the registry events another gateway acts on */
export const SHARED_EVENTS = ['added', 'removed', 'disabled', 'secret', 'sensors', 'updated'] as const;
export type SharedEvent = (typeof SHARED_EVENTS)[number];

/** One change of a device, with what a gateway needs to kick its connections and forget its cached rows. */
export interface RegistryChange {
  /** the gateway it happened on (its own changes it has acted on already) */
  origin: string;
  event: SharedEvent;
  id: number;
  appId: number;
  tokenId: number | null;
  uid: string | null;
  devEui: string | null;
}

export interface RegistryChanges {
  /** hears the changes made on the other gateways */
  on(listener: (change: RegistryChange) => void): void;
  close(): void;
}

/**
 * Shares `registry`'s changes with the other gateways on `bus` and tells `on` listeners theirs. On the in-process bus
 * there is no other gateway: nothing is published and nobody is told.
 */
export function shareRegistryChanges(
  bus: PresenceBus | undefined,
  registry: { on(event: SharedEvent, fn: (row: DeviceRow) => void): void },
): RegistryChanges {
  const listeners: ((change: RegistryChange) => void)[] = [];
  if (!bus || bus.kind !== 'nats') return { on: () => {}, close: () => {} };
  const origin = newOrigin();
  for (const event of SHARED_EVENTS)
    registry.on(event, (row) =>
      bus.publish(REGISTRY_SUBJECT, {
        origin,
        event,
        id: row.id,
        appId: row.appId,
        tokenId: row.tokenId,
        uid: row.uid,
        devEui: row.devEui,
      } satisfies RegistryChange),
    );
  const sub = bus.subscribe<RegistryChange>(REGISTRY_SUBJECT, ({ data }) => {
    if (data.origin === origin) return;
    for (const listener of listeners) listener(data);
  });
  return {
    on: (listener) => void listeners.push(listener),
    close: () => sub.unsubscribe(),
  };
}
