// Devices' persistence.
import { and, asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { devices, type DeviceRow } from './devices.table.js';

/** A device as the card editor's selection lists it: names, its declared sensors and its tags (JSON text). */
export interface SelectionDevice {
  id: number;
  name: string;
  label: string | null;
  serial: string;
  sensors: string;
  tags: string;
}

/** The application's devices for the card editor's selection (dashboards domain), by id. */
export function devicesForSelection(store: AppStore, appId: number): Promise<SelectionDevice[]> {
  return store.db
    .select({
      id: devices.id,
      name: devices.name,
      label: devices.label,
      serial: devices.serialNumber,
      sensors: devices.sensors,
      tags: devices.tags,
    })
    .from(devices)
    .where(eq(devices.appId, appId))
    .orderBy(asc(devices.id));
}

export function createDevicesStore(store: AppStore) {
  const { db } = store;
  const one = (where: ReturnType<typeof eq>) => db.select().from(devices).where(where).get();

  /** the application's device, undefined for an unknown id or another application's device */
  const byId = (appId: number, id: number): Promise<DeviceRow | undefined> =>
    one(and(eq(devices.appId, appId), eq(devices.id, id))!);

  async function idsOf(appId: number): Promise<number[]> {
    const rows = await db.select({ id: devices.id }).from(devices).where(eq(devices.appId, appId)).orderBy(devices.id);
    return rows.map((r) => r.id);
  }

  // ---- the rules domain's read (the node-expiry watch's seed) ----

  /** the application's devices with their last online and offline changes (null: never) */
  const presenceOf = (appId: number): Promise<Array<{ id: number; on: number | null; off: number | null }>> =>
    db
      .select({ id: devices.id, on: devices.lastOnlineTs, off: devices.lastOfflineTs })
      .from(devices)
      .where(eq(devices.appId, appId))
      .orderBy(devices.id);

  return { byId, idsOf, presenceOf };
}

export type DevicesStore = ReturnType<typeof createDevicesStore>;
