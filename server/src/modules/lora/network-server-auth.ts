// How a LoRa network-server integration signs in on the broker: with one of the application's API credentials pairs
// (credentials_id as MQTT username, credentials_secret as password), compared by the secret's SHA-256.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken } from '../../platform/crypto.js';
import { credentials } from '../credentials/credentials.table.js';
import { loraServers } from './lora.table.js';

export const loraNetworkServerSignIn = (db: Db) => {
  // the secret's hash is unique enough to find the pair; the id must match too (prepared once: every unknown MQTT
  // username with a password comes here)
  const pair = db
    .select({ id: credentials.id, appId: credentials.appId })
    .from(credentials)
    .where(
      and(
        eq(credentials.credentialsId, sql.placeholder('credentialsId')),
        eq(credentials.secretHash, sql.placeholder('hash')),
      ),
    )
    .prepare();
  return (credentialsId: string, secret: string) => {
    if (credentialsId.length > 32 || secret.length > 256) return null;
    const row = pair.get({ credentialsId, hash: hashToken(secret) });
    return row ? { appId: row.appId, credentialsRowId: row.id } : null;
  };
};

/** How long what an application's LoRa server entries say is remembered: an edited entry counts within this time. */
export const LORA_APPLICATIONS_CACHE_MS = 2000;

/**
 * Which application a network server's topic names: its second level (application/<level>/device/...) is Sentra's
 * numeric application id, or the network server's own application id recorded on one of the application's LoRa
 * server entries (ChirpStack v4 puts its application UUID there). Asked on every uplink: remembered briefly.
 */
export function loraApplications(db: Db, opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  const uuidsQ = db
    .select({ uuid: loraServers.applicationUuid })
    .from(loraServers)
    .where(and(eq(loraServers.appId, sql.placeholder('appId')), isNotNull(loraServers.applicationUuid)))
    .prepare();
  const cache = new Map<number, { uuids: string[]; at: number }>();
  function uuidsOf(appId: number): string[] {
    const t = now();
    const hit = cache.get(appId);
    if (hit && t - hit.at < LORA_APPLICATIONS_CACHE_MS) return hit.uuids;
    const uuids = [...new Set(uuidsQ.all({ appId }).map((r) => r.uuid!))];
    if (cache.size >= 10_000) cache.clear();
    cache.set(appId, { uuids, at: t });
    return uuids;
  }
  return {
    /** the network server's application ids of the application (ChirpStack UUIDs) */
    uuidsOf,
    /** whether a topic's application level names the application */
    names: (appId: number, level: string) => level === String(appId) || uuidsOf(appId).includes(level.toLowerCase()),
    /** the level downlinks to a device of this server entry are published under */
    levelOf(appId: number, serverId: number | null): string {
      if (serverId === null) return String(appId);
      const row = db
        .select({ uuid: loraServers.applicationUuid })
        .from(loraServers)
        .where(and(eq(loraServers.appId, appId), eq(loraServers.id, serverId)))
        .get();
      return row?.uuid ?? String(appId);
    },
  };
}
export type LoraApplications = ReturnType<typeof loraApplications>;
