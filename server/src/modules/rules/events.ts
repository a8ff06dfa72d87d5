// Domain events the rule engine listens to, on the bus (docs/decisions/rules.md "Events"). The services that change
// those things publish them where the change happens; nothing polls the database.
//   stored.<app>.<device>            committed telemetry (the pipeline; with NATS only — in one process the engine
//                                    listens to the pipeline's committed listener): categories 11, 12 and 31 (states)
//   dev.<app>.<device>.online        device came online            (21, 22 with value 1)
//   dev.<app>.<device>.offline       device went offline           (21, 22 with value 0)
//   dev.<app>.<device>.state-deleted a state removed (state/delete) (32, key)
//   dev.<app>.<device>.created       device added                  (111)
//   dev.<app>.<device>.updated       device info edited            (112)
//   dev.<app>.<device>.sensors       device sensors edited         (113)
//   dev.<app>.<device>.deleted       device removed                (119)
//   dev.<app>.<device>.expired       silent past its rule's expiry (10009; published by the engine's expiry watch)
//   dev.<app>.0.subscription-ending  the tenant's billing ends within SUBSCRIPTION_NOTICE (501; per application)
//   rule.<app>.<rule>                a rule was written (other gateways reload it)
//   task.<app>.<task>                a task was created, changed or removed (TaskPush; pushed to the console)
import type { Bus } from '../../platform/bus/types.js';
import type { DeviceEvent } from './engine.js';

export const DEVICE_EVENT_KINDS = {
  online: 21,
  offline: 21,
  'state-deleted': 32,
  created: 111,
  updated: 112,
  sensors: 113,
  deleted: 119,
  expired: 10009,
  'subscription-ending': 501,
} as const;
export type DeviceEventKind = keyof typeof DEVICE_EVENT_KINDS;

export const deviceEventSubject = (appId: number, deviceId: number, kind: DeviceEventKind) =>
  `dev.${appId}.${deviceId}.${kind}`;

/** The bus message of a device event: the engine's DeviceEvent plus its kind. */
export interface DeviceEventMessage extends DeviceEvent {
  kind: DeviceEventKind;
}

/** Publishes one device event; a bus failure is logged by the caller's bus, never thrown at the service. */
export function publishDeviceEvent(
  bus: Pick<Bus, 'publish'>,
  e: { appId: number; deviceId: number; kind: DeviceEventKind; ts: number; key?: string; value?: unknown },
) {
  const msg: DeviceEventMessage = {
    appId: e.appId,
    deviceId: e.deviceId,
    kind: e.kind,
    category: DEVICE_EVENT_KINDS[e.kind],
    ts: e.ts,
    key: e.key,
    value: e.value,
  };
  try {
    bus.publish(deviceEventSubject(e.appId, e.deviceId, e.kind), msg);
  } catch {
    // a closed bus during shutdown: the event is lost with the process, as every other in-flight message
  }
}

/** The engine events of one bus message: status events count for both status categories (21 V0 and 22 new). */
export function engineEventsOf(m: DeviceEventMessage): DeviceEvent[] {
  const base = { appId: m.appId, deviceId: m.deviceId, ts: m.ts, key: m.key, value: m.value };
  if (m.kind === 'online' || m.kind === 'offline')
    return [
      { ...base, category: 21 },
      { ...base, category: 22 },
    ];
  return [{ ...base, category: m.category }];
}
