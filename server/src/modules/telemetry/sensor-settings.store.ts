// Sensor settings: a device's sensor row's policies and tags (the device data calls read and save them), and the tag
// maps as the tags domain rewrites them (a category or an option removed). The telemetry domain's table, read and
// written here on the storage boundary's store.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { sensorSettings } from './sensor-settings.table.js';

/** device ids per IN list: far below either engine's limit of parameters */
const CHUNK = 500;

export function createSensorSettingsStore(store: AppStore) {
  const { db } = store;
  return {
    /** one sensor row's settings, or undefined when none were saved */
    settingsOf: (deviceId: number, key: string) =>
      db
        .select()
        .from(sensorSettings)
        .where(and(eq(sensorSettings.deviceId, deviceId), eq(sensorSettings.key, key)))
        .get(),

    /** saves a sensor row's policies and/or tags (the other keeps its value, or its default on a new row) */
    async save(deviceId: number, key: string, set: { policies?: string; tags?: string }, at: number) {
      const row = await db
        .insert(sensorSettings)
        .values({ deviceId, key, ...set, updatedAt: at })
        .onConflictDoUpdate({ target: [sensorSettings.deviceId, sensorSettings.key], set: { ...set, updatedAt: at } })
        .returning()
        .get();
      return row!;
    },

    /** the sensor rows of these devices whose tag map text matches `pattern` (a LIKE pattern, `\` escapes) */
    async tagMapsMatching(deviceIds: readonly number[], pattern: string) {
      const out: { deviceId: number; key: string; tags: string }[] = [];
      for (let i = 0; i < deviceIds.length; i += CHUNK) {
        const ids = deviceIds.slice(i, i + CHUNK);
        out.push(
          ...(await db
            .select({ deviceId: sensorSettings.deviceId, key: sensorSettings.key, tags: sensorSettings.tags })
            .from(sensorSettings)
            .where(and(inArray(sensorSettings.deviceId, ids), sql`${sensorSettings.tags} like ${pattern} escape '\\'`))
            .orderBy(asc(sensorSettings.deviceId), asc(sensorSettings.key))),
        );
      }
      return out;
    },
    async setTags(deviceId: number, key: string, tags: string, updatedAt: number): Promise<void> {
      await db
        .update(sensorSettings)
        .set({ tags, updatedAt })
        .where(and(eq(sensorSettings.deviceId, deviceId), eq(sensorSettings.key, key)));
    },
  };
}

export type SensorSettingsStore = ReturnType<typeof createSensorSettingsStore>;
