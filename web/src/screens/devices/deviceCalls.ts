// The device, tag and LoRa calls the device screens make, turned into values or a DeviceCallError carrying the
// catalogue's message (spec 03 section 8) and the fields the server named. Family calls come from the family table.
import {
  T,
  contracts,
  deviceFamilyCalls,
  familyByCategory,
  type CallDef,
  type Device,
  type DeviceFamilyKey,
  type DeviceSummary,
  type EmmaPluginApplication,
  type InputOf,
  type LoraServer,
  type TagCategory,
} from '@sentra/contracts';
import { CallError, callFailure, callOrThrow } from '../../api/call.js';

/** the failures of the device calls: the one CallError of api/call.ts */
export const DeviceCallError = CallError;
export type DeviceCallError = CallError;
export { callFailure };

async function run<C extends CallDef>(def: C, input: InputOf<C>, fallback: string, timeoutMs?: number) {
  return (await callOrThrow(def, input, fallback, timeoutMs ? { timeoutMs } : undefined)) as Record<string, unknown>;
}

export type DeviceFilter = InputOf<typeof contracts.devices.filter>;
export interface DevicePage {
  devices: DeviceSummary[];
  total: number;
}

export async function listDevices(filter: DeviceFilter): Promise<DevicePage> {
  const body = await run(contracts.devices.filter, filter, T.shell.loadFailed);
  return { devices: body.devices as DeviceSummary[], total: body.total as number };
}

export async function getDevice(id: number): Promise<Device> {
  return (await run(contracts.devices.get, { id }, T.shell.loadFailed)).data as Device;
}

/** A device with its family's own fields (Info MQTT, Info ZLAN, ...). */
export async function getFamilyDevice(family: DeviceFamilyKey, id: number): Promise<Device & Record<string, unknown>> {
  return (await run(deviceFamilyCalls[family].get, { id }, T.shell.loadFailed)).data as Device &
    Record<string, unknown>;
}

export type DeviceEdit = InputOf<typeof contracts.devices.edit>;
export async function editDevice(body: DeviceEdit): Promise<Device> {
  return (await run(contracts.devices.edit, body, T.devices.editFailed)).data as Device;
}

const familyCallsOf = (category: number) => {
  const f = familyByCategory(category);
  if (!f) throw new DeviceCallError(T.common.notFound);
  return deviceFamilyCalls[f.key as DeviceFamilyKey];
};

/** Replaces the sensor configuration through the device family's own edit/sensors call. */
export async function editSensors(category: number, id: number, sensors: unknown): Promise<Device> {
  return (await run(familyCallsOf(category).sensors, { id, sensors }, T.devices.editFailed)).data as Device;
}

/** Removes a device through its family's remove call. */
export async function removeDevice(device: Pick<DeviceSummary, 'id' | 'category'>): Promise<void> {
  await run(familyCallsOf(device.category).remove, { id: device.id }, T.devices.removeFailed);
}

export interface AddRequest {
  family: DeviceFamilyKey;
  variant: string;
  body: Record<string, unknown>;
}

export async function addDevice(req: AddRequest): Promise<Device> {
  const def = deviceFamilyCalls[req.family].adds[req.variant];
  if (!def) throw new DeviceCallError(T.devices.addFailed);
  return (await run(def, req.body, T.devices.addFailed)).data as Device;
}

export async function generateToken(): Promise<string> {
  return (await run(contracts.devices.tokenGenerate, {}, T.devices.tokenFailed)).credentials_token as string;
}

/** Succeeds once a device connected with the token; throws while it has not (-7). */
export async function checkToken(token: string): Promise<number> {
  return (await run(contracts.devices.tokenCheck, { token }, T.devices.serverNotConnected)).connected_ts as number;
}

/** Succeeds once the gateway's UID was heard on gw/<uid>/up (the family's own provision check). */
export async function checkUid(family: DeviceFamilyKey, uid: string): Promise<string> {
  const def = deviceFamilyCalls[family].check;
  if (!def) throw new DeviceCallError(T.devices.uidCheckFailed);
  return (await run(def, { dev_uid: uid }, T.devices.uidCheckFailed)).dev_uid as string;
}

export async function loadTagCategories(): Promise<TagCategory[]> {
  return (await run(contracts.tags.all, {}, T.shell.loadFailed)).categories as TagCategory[];
}

/** Every LoRa server of the application (the activation screen's choice). */
export async function loadLoraServers(): Promise<LoraServer[]> {
  return (await run(contracts.lora.list, { page: 0, size: 100 }, T.shell.loadFailed)).data as LoraServer[];
}

export async function loadEmmaPlugins(): Promise<EmmaPluginApplication[]> {
  return (await run(contracts.devices.emmaPlugins, {}, T.shell.loadFailed)).plugins as EmmaPluginApplication[];
}

/** Generate Dashboard for a dummy device: answers the new dashboard. */
export async function generateDashboard(
  name: string,
  deviceId: number,
): Promise<{ id: number; label: string; path: string }> {
  return (await run(contracts.devices.dummyDashboard, { name, device_id: deviceId }, T.devices.dashboardFailed))
    .data as { id: number; label: string; path: string };
}

/** A new broker password or gateway secret for the device (shown once); the old one stops working at once. */
export async function regenerateBrokerSecret(id: number): Promise<{ id: number; username: string; secret: string }> {
  return (await run(contracts.devices.brokerSecretRegenerate, { id }, T.devices.regenerateFailed)).data as {
    id: number;
    username: string;
    secret: string;
  };
}
