// Activation evidence: credentials tokens of Sentra end devices (issued, then seen connecting to the broker) and
// gateway UIDs heard on gw/<uid>/up. The broker listener records; provision checks and adds read.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { deviceTokens, gatewaySightings } from './devices.table.js';

/** A token's username is 64 hex characters: the broker tells it from other usernames by its look. */
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/;
/** Sightings are written at most this often per UID: a gateway publishing every second costs no write each time. */
const SIGHTING_WRITE_MS = 60_000;

export function createActivation(db: Db, now: () => number) {
  const heardAt = new Map<string, { ts: number; written: number }>();

  function generateToken(appId: number): string {
    const token = newToken(32);
    db.insert(deviceTokens)
      .values({ appId, tokenHash: hashToken(token), createdAt: now() })
      .run();
    return token;
  }

  const tokenByValue = (token: string) =>
    TOKEN_PATTERN.test(token)
      ? db
          .select()
          .from(deviceTokens)
          .where(eq(deviceTokens.tokenHash, hashToken(token)))
          .get()
      : undefined;

  /** The application's token when a device has connected with it, else undefined. */
  function connectedToken(appId: number, token: string) {
    const row = tokenByValue(token);
    return row && row.appId === appId && row.connectedAt !== null ? row : undefined;
  }

  function tokenConnected(tokenId: number, ts: number) {
    db.update(deviceTokens).set({ connectedAt: ts }).where(eq(deviceTokens.id, tokenId)).run();
  }

  const tokenById = (id: number) => db.select().from(deviceTokens).where(eq(deviceTokens.id, id)).get();

  const removeToken = (tokenId: number) => db.delete(deviceTokens).where(eq(deviceTokens.id, tokenId)).run();

  function heard(uid: string, ts: number) {
    const seen = heardAt.get(uid);
    if (seen && ts - seen.written < SIGHTING_WRITE_MS) {
      seen.ts = ts;
      return;
    }
    db.insert(gatewaySightings)
      .values({ uid, firstTs: ts, lastTs: ts })
      .onConflictDoUpdate({ target: gatewaySightings.uid, set: { lastTs: ts } })
      .run();
    heardAt.set(uid, { ts, written: ts });
  }

  /** When the UID was last heard, or undefined if never. */
  function lastHeard(uid: string): number | undefined {
    const seen = heardAt.get(uid);
    if (seen) return seen.ts;
    return db
      .select({ ts: gatewaySightings.lastTs })
      .from(gatewaySightings)
      .where(and(eq(gatewaySightings.uid, uid), isNotNull(gatewaySightings.lastTs)))
      .get()?.ts;
  }

  return { generateToken, tokenByValue, tokenById, connectedToken, tokenConnected, removeToken, heard, lastHeard };
}

export type Activation = ReturnType<typeof createActivation>;
