// The telemetry series of an application as other domains ask for them on the storage boundary's store (off the
// per-message path: the engine-specific reads are reads.ts and point-reads.ts).
import { eq } from 'drizzle-orm';
import type { AppStore } from '../../../db.js';
import { telemetrySeries } from '../telemetry.table.js';

/** the application's series and their devices (the node-expiry watch's seed) */
export async function seriesOfApp(store: AppStore, appId: number): Promise<Array<{ id: number; deviceId: number }>> {
  return store.db
    .select({ id: telemetrySeries.id, deviceId: telemetrySeries.deviceId })
    .from(telemetrySeries)
    .where(eq(telemetrySeries.appId, appId))
    .orderBy(telemetrySeries.id);
}
