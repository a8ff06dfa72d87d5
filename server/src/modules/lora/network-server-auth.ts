// How a LoRa network-server integration signs in on the broker: with one of the application's API credentials pairs
// (credentials_id as MQTT username, credentials_secret as password), compared by the secret's SHA-256.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken } from '../../platform/crypto.js';
import { credentials } from '../credentials/credentials.table.js';

export const loraNetworkServerSignIn = (db: Db) => {
  return (credentialsId: string, secret: string) => {
    if (credentialsId.length > 32 || secret.length > 256) return null;
    // the secret's hash is unique enough to find the pair; the id must match too
    const row = db
      .select({ id: credentials.id, appId: credentials.appId })
      .from(credentials)
      .where(and(eq(credentials.credentialsId, credentialsId), eq(credentials.secretHash, hashToken(secret))))
      .get();
    return row ? { appId: row.appId, credentialsRowId: row.id } : null;
  };
};
