// The series telemetry has stored, as other domains list them (not on the card query path: series-keys.ts is).
import { asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../../db.js';
import { telemetrySeries } from '../telemetry.table.js';

export interface SeriesEntry {
  deviceId: number;
  sensor: string;
  configtype: string;
  param: string;
  subparam: string;
  datatype: string;
}

/** Every series of the application's devices, oldest first (the card editor's selection: dashboards domain). */
export function seriesOfApp(store: AppStore, appId: number): Promise<SeriesEntry[]> {
  return store.db
    .select({
      deviceId: telemetrySeries.deviceId,
      sensor: telemetrySeries.sensor,
      configtype: telemetrySeries.configtype,
      param: telemetrySeries.param,
      subparam: telemetrySeries.subparam,
      datatype: telemetrySeries.datatype,
    })
    .from(telemetrySeries)
    .where(eq(telemetrySeries.appId, appId))
    .orderBy(asc(telemetrySeries.id));
}

/** the application's series and their devices (the node-expiry watch's seed) */
export async function seriesIdsOfApp(store: AppStore, appId: number): Promise<Array<{ id: number; deviceId: number }>> {
  return store.db
    .select({ id: telemetrySeries.id, deviceId: telemetrySeries.deviceId })
    .from(telemetrySeries)
    .where(eq(telemetrySeries.appId, appId))
    .orderBy(asc(telemetrySeries.id));
}
