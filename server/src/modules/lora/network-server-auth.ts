// How a LoRa network-server integration signs in on the broker: with one of the application's API credentials pairs
// (credentials_id as MQTT username, credentials_secret as password), compared by the secret's SHA-256.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken } from '../../platform/crypto.js';
import { credentials } from '../credentials/credentials.table.js';

export const loraNetworkServerSignIn = (db: Db) => {
  // the secret's hash is unique enough to find the pair; the id must match too (prepared once: every unknown MQTT
  // username with a password comes here)
  const pair = db
    .select({ id: credentials.id, appId: credentials.appId })
    .from(credentials)
    .where(and(eq(credentials.credentialsId, sql.placeholder('credentialsId')), eq(credentials.secretHash, sql.placeholder('hash'))))
    .prepare();
  return (credentialsId: string, secret: string) => {
    if (credentialsId.length > 32 || secret.length > 256) return null;
    const row = pair.get({ credentialsId, hash: hashToken(secret) });
    return row ? { appId: row.appId, credentialsRowId: row.id } : null;
  };
};
