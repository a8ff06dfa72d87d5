// The devices domain's persistence on the storage boundary's store: SQLite or PostgreSQL, one query code.
import { and, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { devices, type DeviceRow } from './devices.table.js';

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
