// Sensor settings' tag maps as the tags domain rewrites them (a category or an option removed): the telemetry domain's
// table, read and written here on the storage boundary's store.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { sensorSettings } from './sensor-settings.table.js';

/** device ids per IN list: far below either engine's limit of parameters */
const CHUNK = 500;

export function createSensorSettingsStore(store: AppStore) {
  const { db } = store;
  return {
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
