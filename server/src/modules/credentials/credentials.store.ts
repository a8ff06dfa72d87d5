// The credentials domain's persistence on the storage boundary's store (SQLite or PostgreSQL, one query code).
import { and, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { credentials } from './credentials.table.js';

// ---- the LoRa network-server sign-in (devices' broker authority) ----

/** The API credentials pair of this id and secret hash: its row id and application, undefined when none matches. */
export async function credentialsPairByHash(
  store: AppStore,
  credentialsId: string,
  secretHash: string,
): Promise<{ id: number; appId: number } | undefined> {
  return store.db
    .select({ id: credentials.id, appId: credentials.appId })
    .from(credentials)
    .where(and(eq(credentials.credentialsId, credentialsId), eq(credentials.secretHash, secretHash)))
    .get();
}
